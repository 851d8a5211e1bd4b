package hall

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// spareGame is the game of the spare tests: six plies on the board, six
// on the spare.
var spareGame = []string{"e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "a7a6", "c1e3", "e7e5"}

// spareScript is the script of plies from..to-1 of spareGame, from the
// position after from, and that position's placement before and after.
func spareScript(t *testing.T, from, to int) (emu.Script, rules.Placement) {
	t.Helper()
	pos := rules.Position(chess.StartPosition(chess.Standard))
	var before rules.Position
	var moves []rules.Move
	for i, u := range spareGame[:to] {
		if i == from {
			before = pos
		}
		m := mustMove(t, pos, u)
		if i >= from {
			moves = append(moves, m)
		}
		pos, _ = pos.Play(m)
	}
	s, err := emu.GameScript(before, moves, emu.GameOptions{Think: func(int) time.Duration { return 1200 * time.Millisecond }})
	if err != nil {
		t.Fatal(err)
	}
	return s, before.Placement()
}

// sendCommand sends an arbiter command to the hall as the responder would.
func sendCommand(t *testing.T, h *Hall, g game.ID, body string) CommandReply {
	t.Helper()
	rep := h.answer(context.Background(), broadcast.Request{Game: g, Data: []byte(body)})
	var cr CommandReply
	if err := json.Unmarshal(rep.Data, &cr); err != nil {
		t.Fatalf("%s: reply %s: %v", body, rep.Data, err)
	}
	return cr
}

// spareAlerts returns the spare_setup alerts observed.
func spareAlerts(obs []Observation) []game.Alert {
	var out []game.Alert
	for _, ob := range obs {
		if a, ok := ob.Payload.(game.Alert); ok && a.Kind == game.KindSpareSetup {
			out = append(out, a)
		}
	}
	return out
}

// TestSwitchToSpareMidGame: a game of six plies on its board is moved to
// a spare by the arbiter (switch_board). The spare, at the start
// position, is not the game's: a warn spare_setup alert names what
// differs and no move is made up; set up turned around, the alert says
// so; a move on the old board counts no more. Set up one piece short, still nothing counts; set up
// right, an info alert, and the game goes on on the spare: the record is
// the twelve plies exactly, one MoveEvent each, in order, with the
// spare's clock. The switch is kept in the record: a hall restarted on the
// same data reads the spare, not the old board.
func TestSwitchToSpareMidGame(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		g := game.ID{Event: "open2026", Round: 1, Board: 1}
		old := emu.New(emu.Setup{Serial: "04711"}, time.Now())
		spare := emu.New(emu.Setup{Serial: "05000"}, time.Now())
		oldPort, sparePort := servePipe(t, old), servePipe(t, spare)
		opts := func() Options {
			return Options{Boards: []Board{boardFor(t, "r1-b1", g, oldPort.Open)},
				Spares: []Spare{{ID: "spare-1", Port: "pipe-spare", Open: sparePort.Open, Link: patientLink}}}
		}
		sh := startSim(t, dir, opts())
		waitConnected(t, sh.h)
		first, _ := spareScript(t, 0, 6)
		old.Schedule(time.Now(), first)
		handsDone(t, old, time.Minute)
		waitFor(t, 10*time.Second, "six plies", func() bool { r, _ := sh.h.Record(g); return len(r.Moves) == 6 })

		for _, bad := range []string{`{"cmd":"switch_board","to":"spare-9"}`, `{"cmd":"switch_board","to":"r1-b1"}`} {
			if cr := sendCommand(t, sh.h, g, bad); cr.OK || !strings.Contains(cr.Error, "switch_board") {
				t.Errorf("%s: %+v, want refused", bad, cr)
			}
		}
		if cr := sendCommand(t, sh.h, g, `{"cmd":"switch_board","to":"spare-1","by":"arb"}`); !cr.OK {
			t.Fatalf("switch_board: %+v", cr)
		}
		waitFor(t, 20*time.Second, "the spare's differences told", func() bool { return len(spareAlerts(sh.observed())) > 0 })
		if a := spareAlerts(sh.observed())[0]; a.Severity != game.Warn || !strings.Contains(a.Message, "e4 empty, want P") {
			t.Errorf("first spare_setup alert %s %q, want warn naming e4", a.Severity, a.Message)
		}

		// The spare set up turned around: the arbiter is told so.
		_, at6 := spareScript(t, 6, 12)
		turned := turnedAround(at6)
		spare.SetPlacement(time.Now(), &turned)
		waitFor(t, 30*time.Second, "the spare told turned around", func() bool {
			as := spareAlerts(sh.observed())
			return as[len(as)-1].Severity == game.Warn && strings.Contains(as[len(as)-1].Message, "turned around")
		})

		// A hand moves on the old board: it is not read.
		stray, _ := spareScript(t, 6, 7)
		old.Schedule(time.Now(), stray)
		unheard(old, 5*time.Second)
		if old.Pending() != 0 {
			t.Fatal("the stray move was not made on the old board")
		}
		// The spare set up one piece short (no white pawn on e4).
		short := at6
		e4, _ := rules.Chess8x8.ParseSquare("e4")
		short.Sq[e4] = rules.NoPiece
		spare.SetPlacement(time.Now(), &short)
		time.Sleep(15 * time.Second)
		if r, _ := sh.h.Record(g); len(r.Moves) != 6 {
			t.Fatalf("before the spare shows the game: %d plies (%s), want 6", len(r.Moves), strings.Join(r.UCIs(), " "))
		}
		for _, a := range spareAlerts(sh.observed()) {
			if a.Severity != game.Warn {
				t.Fatalf("spare_setup %s before the spare shows the game: %s", a.Severity, a.Message)
			}
		}

		spare.SetPlacement(time.Now(), &at6)
		waitFor(t, 20*time.Second, "the spare's match told", func() bool {
			as := spareAlerts(sh.observed())
			return len(as) > 0 && as[len(as)-1].Severity == game.Info
		})
		rest, _ := spareScript(t, 6, 12)
		spare.Schedule(time.Now(), rest)
		handsDone(t, spare, time.Minute)
		waitUntil(10*time.Second, func() bool { r, _ := sh.h.Record(g); return len(r.Moves) >= 12 })
		r, _ := sh.h.Record(g)
		if got := strings.Join(r.UCIs(), " "); got != strings.Join(spareGame, " ") || r.Spare != "spare-1" {
			t.Fatalf("record after the switch (spare %q):\n got %s\nwant %s", r.Spare, got, strings.Join(spareGame, " "))
		}
		evs := sh.journalled(g) // stops the hall
		byPly := map[int]game.MoveEvent{}
		for _, ev := range evs {
			if prev, dup := byPly[ev.Ply]; dup && prev.UCI != ev.UCI {
				t.Errorf("ply %d published as %s and %s", ev.Ply, prev.UCI, ev.UCI)
			}
			byPly[ev.Ply] = ev
		}
		for p := 1; p <= len(spareGame); p++ {
			if ev, ok := byPly[p]; !ok || ev.UCI != spareGame[p-1] || ev.Clock == nil {
				t.Errorf("ply %d: MoveEvent %+v (present %v), want %s with the clock", p, ev, ok, spareGame[p-1])
			}
		}
		if len(byPly) != len(spareGame) {
			t.Errorf("%d plies published, want %d", len(byPly), len(spareGame))
		}

		// Restarted: the spare is read, the old board not.
		sh2 := startSim(t, dir, opts())
		waitConnected(t, sh2.h)
		time.Sleep(5 * time.Second)
		if r, _ := sh2.h.Record(g); len(r.Moves) != 12 || r.Spare != "spare-1" {
			t.Fatalf("after the restart: %d plies, spare %q", len(r.Moves), r.Spare)
		}
		pos := rules.Position(chess.StartPosition(chess.Standard))
		for _, u := range spareGame {
			pos, _ = pos.Play(mustMove(t, pos, u))
		}
		more, err := emu.GameScript(pos, []rules.Move{mustMove(t, pos, "f1e2")}, emu.GameOptions{Think: func(int) time.Duration { return time.Second }})
		if err != nil {
			t.Fatal(err)
		}
		spare.Schedule(time.Now(), more)
		handsDone(t, spare, time.Minute)
		waitFor(t, 10*time.Second, "ply 13 on the spare", func() bool { r, _ := sh2.h.Record(g); return len(r.Moves) == 13 })
		if r, _ := sh2.h.Record(g); r.Moves[12].UCI != "f1e2" {
			t.Errorf("ply 13 %s, want f1e2", r.Moves[12].UCI)
		}
	})
}

// TestSwitchSpareOneGameAtATime: a spare reads one game: while board 1's
// game is on it, board 2's is refused (naming board 1); moved back to its
// own board (switch_board to its id), board 1 frees the spare for board 2.
// A command for a game the hall does not have moves nothing.
func TestSwitchSpareOneGameAtATime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g1, g2 := game.ID{Event: "open2026", Round: 1, Board: 1}, game.ID{Event: "open2026", Round: 1, Board: 2}
		b1, b2, sp := emu.New(emu.Setup{Serial: "00001"}, time.Now()), emu.New(emu.Setup{Serial: "00002"}, time.Now()), emu.New(emu.Setup{Serial: "00009"}, time.Now())
		sh := startSim(t, t.TempDir(), Options{
			Boards: []Board{boardFor(t, "r1-b1", g1, servePipe(t, b1).Open), boardFor(t, "r1-b2", g2, servePipe(t, b2).Open)},
			Spares: []Spare{{ID: "spare-1", Port: "pipe-spare", Open: servePipe(t, sp).Open}}})
		waitConnected(t, sh.h)
		to := func(g game.ID, id string) CommandReply {
			return sendCommand(t, sh.h, g, `{"cmd":"switch_board","to":"`+id+`"}`)
		}
		if cr := to(g1, "spare-1"); !cr.OK {
			t.Fatalf("board 1 to the spare: %+v", cr)
		}
		if cr := to(g2, "spare-1"); cr.OK || !strings.Contains(cr.Error, "r1-b1") {
			t.Errorf("board 2 to the spare board 1's game is on: %+v, want refused naming r1-b1", cr)
		}
		if cr := to(g1, "spare-1"); cr.OK || !strings.Contains(cr.Error, "already") {
			t.Errorf("board 1 to the spare it is on: %+v, want refused", cr)
		}
		if cr := to(g1, "r1-b1"); !cr.OK {
			t.Fatalf("board 1 back to its own board: %+v", cr)
		}
		if cr := to(g2, "spare-1"); !cr.OK {
			t.Errorf("board 2 to the spare freed: %+v", cr)
		}
		if cr := to(game.ID{Event: "open2026", Round: 1, Board: 9}, "spare-1"); cr.OK {
			t.Errorf("a game the hall does not have: %+v", cr)
		}
		waitFor(t, 20*time.Second, "both boards read", func() bool { _, dis := sh.h.Summary(); return dis == 0 })
		if p1, p2 := sh.h.portOf(g1), sh.h.portOf(g2); p1 != "pty" || p2 != "pipe-spare" {
			t.Errorf("ports read: board 1 %s, board 2 %s; want pty and pipe-spare", p1, p2)
		}
	})
}
