package rehearse

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

var t0 = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

func at(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }

// line returns the line of the report whose subject contains sub.
func line(t *testing.T, c *Checklist, now time.Time, sub string) Line {
	t.Helper()
	for _, l := range c.Report(now).Lines {
		if strings.Contains(l.Subject, sub) {
			return l
		}
	}
	t.Fatalf("no line %q in %+v", sub, c.Report(now).Lines)
	return Line{}
}

func want(t *testing.T, l Line, st State, reason string) {
	t.Helper()
	if l.State != st || !strings.Contains(l.Reason, reason) {
		t.Errorf("%s: %s %q, want %s with %q", l.Subject, l.State, l.Reason, st, reason)
	}
}

func TestBoardAnswers(t *testing.T) {
	c := New([]Check{BoardAnswers{Board: "r1-b1", Port: "/dev/a"}, BoardAnswers{Board: "r1-b2", Port: "/dev/b"}}, t0, time.Minute)
	want(t, line(t, c, at(0), "r1-b1"), Waiting, "no answer yet")
	c.Apply(at(1), BoardSeen{Board: "r1-b2", Error: "open /dev/b: no such file"})
	want(t, line(t, c, at(1), "r1-b2"), Waiting, "no such file")
	if !c.Apply(at(2), BoardSeen{Board: "r1-b1", Connected: true}) {
		t.Error("a board answering changed nothing")
	}
	want(t, line(t, c, at(2), "r1-b1"), Passed, "")
	// A board that answered stays passed; one that never did fails at
	// the end, naming why.
	c.Apply(at(3), BoardSeen{Board: "r1-b1", Error: "unplugged"})
	c.Expire(at(60))
	want(t, line(t, c, at(60), "r1-b1"), Passed, "")
	want(t, line(t, c, at(60), "r1-b2"), Failed, "nothing within 1m0s: no answer: open /dev/b: no such file")
	if s := (BoardAnswers{Board: "r1-b5", Port: "/dev/bus1", BusAddress: 4105}).Subject(); s != "board r1-b5 answers (/dev/bus1, bus address 4105)" {
		t.Errorf("a board on a bus line: %q", s)
	}
	if !c.Ended(at(60)) || c.Ended(at(59)) {
		t.Error("Ended: want false before the end, true at it")
	}
}

func TestClockSet(t *testing.T) {
	rest := RestTimes(90*time.Minute, 30*time.Second)
	c := New([]Check{ClockSet{Board: "r1-b1", TimeControl: "5400+30", Rest: rest}}, t0, time.Minute)
	l := func() Line { return line(t, c, at(10), "r1-b1") }
	want(t, l(), Waiting, "no clock reading")
	// A reading that does not say whether the clock runs is not compared.
	c.Apply(at(1), BoardSeen{Board: "r1-b1", Connected: true, Clock: &ClockReading{White: time.Hour, Black: time.Hour}})
	want(t, l(), Waiting, "does not say whether it runs")
	// A running clock is not compared.
	c.Apply(at(1), BoardSeen{Board: "r1-b1", Connected: true, Clock: &ClockReading{White: time.Hour, Black: time.Hour, Running: "white"}})
	want(t, l(), Waiting, "the clock runs")
	// At rest with the wrong times: failed, naming both.
	c.Apply(at(2), BoardSeen{Board: "r1-b1", Connected: true, Clock: &ClockReading{White: time.Hour, Black: time.Hour, Running: "none"}})
	want(t, l(), Failed, "the clock shows 1:00:00 | 1:00:00 at rest; time control 5400+30 starts at 1:30:00 or 1:30:30")
	// Running again (the organiser sets it): still failed with that reason.
	c.Apply(at(3), BoardSeen{Board: "r1-b1", Connected: true, Clock: &ClockReading{White: time.Hour, Black: time.Hour, Running: "black"}})
	want(t, l(), Failed, "shows 1:00:00 | 1:00:00")
	// One side right, one wrong: failed.
	c.Apply(at(4), BoardSeen{Board: "r1-b1", Connected: true, Clock: &ClockReading{White: 90 * time.Minute, Black: time.Hour, Running: "none"}})
	want(t, l(), Failed, "1:30:00 | 1:00:00")
	// Set right (a DGT 3000 in Fischer mode: base + one increment): passed,
	// and the moves after it do not matter.
	c.Apply(at(5), BoardSeen{Board: "r1-b1", Connected: true, Clock: &ClockReading{White: 90*time.Minute + 30*time.Second, Black: 90*time.Minute + 30*time.Second, Running: "none"}})
	want(t, l(), Passed, "")
	c.Apply(at(6), BoardSeen{Board: "r1-b1", Connected: true, Clock: &ClockReading{White: time.Minute, Black: time.Hour, Running: "none"}})
	want(t, l(), Passed, "")
}

func TestClockNeverAtRest(t *testing.T) {
	c := New([]Check{ClockSet{Board: "b", TimeControl: "600", Rest: RestTimes(10*time.Minute, 0)}}, t0, time.Minute)
	c.Expire(at(60))
	want(t, line(t, c, at(60), "b"), Failed, "nothing within 1m0s: no clock reading yet")
	if RestTimes(10*time.Minute, 0)[0] != 10*time.Minute || len(RestTimes(10*time.Minute, 0)) != 1 {
		t.Error("RestTimes without an increment")
	}
}

func TestMoves(t *testing.T) {
	g := game.ID{Event: "cup-rehearsal", Round: 1, Board: 3}
	g2 := game.ID{Event: "cup-rehearsal", Round: 1, Board: 4}
	c := New([]Check{LiveMove{Board: "r1-b3", Game: g}, PublicMove{Board: "r1-b3", Game: g, Delay: 10 * time.Second},
		PublicMove{Board: "r1-b4", Game: g2, Delay: 10 * time.Second}}, t0, time.Minute)
	want(t, line(t, c, at(0), "live"), Waiting, "move a piece")
	c.Apply(at(1), MoveSeen{Game: g})
	want(t, line(t, c, at(1), "live"), Passed, "")
	want(t, line(t, c, at(1), "r1-b3 reaches the public"), Waiting, "the public copy is due 10s later")
	c.Apply(at(11), MoveSeen{Game: g, Public: true})
	want(t, line(t, c, at(11), "r1-b3 reaches the public"), Passed, "")
	// Board 4's public copy comes 3 s after its live move: promise broken.
	c.Apply(at(20), MoveSeen{Game: g2})
	c.Apply(at(23), MoveSeen{Game: g2, Public: true})
	want(t, line(t, c, at(23), "r1-b4 reaches the public"), Failed, "came 3s after the live move, before the public delay of 10s")
}

func TestPublicWithoutLive(t *testing.T) {
	g := game.ID{Event: "e", Round: 1, Board: 1}
	c := New([]Check{PublicMove{Board: "b", Game: g, Delay: 0}}, t0, time.Minute)
	c.Apply(at(1), MoveSeen{Game: g, Public: true})
	want(t, line(t, c, at(1), "b"), Failed, "no live move")
	c.Apply(at(1), MoveSeen{Game: g})
	want(t, line(t, c, at(1), "b"), Passed, "")
}

func TestLichess(t *testing.T) {
	c := New([]Check{LichessRound{Round: 1, ID: "aaaa1111"}, LichessRound{Round: 2, ID: "bbbb2222"}, LichessRound{Round: 3, ID: "cccc3333"},
		LichessPush{ID: "test0001"}}, t0, time.Minute)
	c.Apply(at(1), RoundRead{ID: "aaaa1111", Writeable: true})
	c.Apply(at(1), RoundRead{ID: "bbbb2222", Err: "404 Not Found: no such round"})
	c.Apply(at(1), RoundRead{ID: "cccc3333"})
	want(t, line(t, c, at(1), "aaaa1111"), Passed, "")
	want(t, line(t, c, at(1), "bbbb2222"), Failed, "Lichess round bbbb2222 (lichess.rounds 2): 404 Not Found")
	want(t, line(t, c, at(1), "cccc3333"), Failed, "may not push to round cccc3333")
	want(t, line(t, c, at(1), "test0001"), Waiting, "pushes the rehearsal's games")
	c.Apply(at(2), PushSeen{ID: "test0001", Err: "401 Unauthorized: No such token"})
	want(t, line(t, c, at(2), "test0001"), Failed, "Lichess refused the test push: 401 Unauthorized: No such token")
	c.Apply(at(3), PushSeen{ID: "test0001", Pushes: 1})
	want(t, line(t, c, at(3), "test0001"), Passed, "")

	none := New([]Check{LichessPush{}, BoardAnswers{Board: "b"}}, t0, time.Minute)
	want(t, line(t, none, at(0), "test push"), Failed, "give --lichess-round")
	// A failure for good does not keep the rehearsal waiting for the end.
	if none.Ended(at(1)) {
		t.Error("ended with a board still waiting")
	}
	none.Apply(at(2), BoardSeen{Board: "b", Connected: true})
	if !none.Ended(at(2)) {
		t.Error("the only line left is a failure for good, and the rehearsal waits for the end")
	}
	// A refused push may pass later (a token put right): it is not for good.
	refused := New([]Check{LichessPush{ID: "x"}}, t0, time.Minute)
	refused.Apply(at(4), PushSeen{ID: "x", Err: "401"})
	if refused.Ended(at(4)) {
		t.Error("ended on a refused push")
	}
}

func TestSignIn(t *testing.T) {
	c := New([]Check{SignIn{User: "arb1", Role: "arbiter"}, SignIn{User: "arb2", Role: "arbiter"}, SignIn{User: "org", Role: "organiser"}}, t0, time.Minute)
	want(t, line(t, c, at(0), "arb1"), Waiting, "sign in as arb1")
	c.Apply(at(5), SignInSeen{User: "arb1", From: "10.0.0.7"})
	want(t, line(t, c, at(5), "arb1"), Failed, "a wrong password for arb1 at 09:00:05 from 10.0.0.7")
	c.Apply(at(6), SignInSeen{User: "arb1", OK: true, From: "10.0.0.7"})
	want(t, line(t, c, at(6), "arb1"), Passed, "")
	c.Apply(at(7), SignInSeen{User: "org", OK: true})
	c.Expire(at(60))
	want(t, line(t, c, at(60), "arb2"), Failed, "nothing within 1m0s: sign in as arb2")
	want(t, line(t, c, at(60), "org"), Passed, "")
}

func TestBlindRelay(t *testing.T) {
	g := game.ID{Event: "e", Round: 1, Board: 60}
	c := New([]Check{BlindRelay{Board: "r1-b60", Game: g, Listeners: []string{"relay60"}},
		BlindRelay{Board: "r1-b61", Game: game.ID{Event: "e", Round: 1, Board: 61}},
		BlindRelay{Board: "r1-b62", Game: game.ID{Event: "e", Round: 1, Board: 62}, Speak: true}}, t0, time.Minute)
	want(t, line(t, c, at(0), "r1-b61"), Failed, "nothing can hear the announcements")
	want(t, line(t, c, at(0), "r1-b60"), Waiting, "move a piece")
	c.Apply(at(1), AnnounceSeen{Game: g})
	want(t, line(t, c, at(1), "r1-b60"), Waiting, "no relay device ([relay60]) has received it")
	c.Apply(at(2), RelayHeard{User: "someone", Msgs: 3})
	want(t, line(t, c, at(2), "r1-b60"), Waiting, "no relay device")
	c.Apply(at(3), RelayHeard{User: "relay60", Msgs: 1})
	want(t, line(t, c, at(3), "r1-b60"), Passed, "received by relay60")
	c.Apply(at(4), AnnounceSeen{Game: game.ID{Event: "e", Round: 1, Board: 62}})
	want(t, line(t, c, at(4), "r1-b62"), Passed, "listen at the table")
}

func TestReportAndPrint(t *testing.T) {
	g := game.ID{Event: "e", Round: 1, Board: 1}
	c := New([]Check{BoardAnswers{Board: "r1-b1", Port: "/dev/a"}, LiveMove{Board: "r1-b1", Game: g}, SignIn{User: "arb", Role: "arbiter"}}, t0, time.Minute)
	c.Apply(at(1), BoardSeen{Board: "r1-b1", Connected: true})
	c.Apply(at(2), SignInSeen{User: "arb"})
	r := c.Report(at(2))
	if p, f, w := r.Count(); p != 1 || f != 1 || w != 1 || r.Ended {
		t.Errorf("count %d passed %d failed %d waiting, ended %v", p, f, w, r.Ended)
	}
	if r.Lines[0].Kind != "board" || r.Lines[1].Kind != "live" || r.Lines[2].Kind != "sign_in" || !r.Lines[0].Since.Equal(at(1)) {
		t.Errorf("lines %+v", r.Lines)
	}
	var b bytes.Buffer
	if err := Print(&b, r); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"1 passed, 1 failed, 1 waiting", "passed  board r1-b1 answers (/dev/a)",
		"failed  arbiter user arb signs in: a wrong password for arb", "waiting a move on board r1-b1 reaches the live feed (e.1.1): move a piece"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("print lacks %q:\n%s", s, b.String())
		}
	}
	c.Apply(at(3), MoveSeen{Game: g})
	c.Apply(at(4), SignInSeen{User: "arb", OK: true})
	if !c.Ended(at(4)) {
		t.Error("every line passed and the rehearsal is not over")
	}
	b.Reset()
	Print(&b, c.Report(at(4)))
	if !strings.Contains(b.String(), "every check passed: 3 passed, 0 failed, 0 waiting") {
		t.Errorf("print:\n%s", b.String())
	}
}
