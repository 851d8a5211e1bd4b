package hall

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/gamestore"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// setUpScript lifts every piece that is not where the start position wants
// it and then puts the start position's pieces on the squares it lacks.
func setUpScript(from rules.Placement) emu.Script {
	start := emu.StartPlacement()
	var s emu.Script
	at := time.Duration(0)
	for _, sq := range from.Diff(&start, nil) {
		if !from.At(sq).IsEmpty() {
			s = append(s, emu.Action{At: at, Kind: emu.Lift, Square: sq})
			at += 150 * time.Millisecond
		}
	}
	for _, sq := range from.Diff(&start, nil) {
		if !start.At(sq).IsEmpty() {
			s = append(s, emu.Action{At: at, Kind: emu.Place, Square: sq, Piece: start.At(sq)})
			at += 150 * time.Millisecond
		}
	}
	return s
}

// runSession plays s on an emulated board offline and feeds everything the
// board sends to a session, ticking it every 100 ms.
func runSession(t *testing.T, o session.SessionOptions, s emu.Script) (*session.Session, []session.Step) {
	t.Helper()
	t0 := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	e := emu.New(emu.Setup{}, t0)
	sess, err := session.NewSession(o, nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	d := dgt.NewDecoder(dgt.SingleBoard)
	var steps []session.Step
	e.Input(t0, []byte{0x42, 0x4B})
	e.Schedule(t0.Add(time.Second), s)
	end := t0.Add(time.Second + s.Duration() + 5*time.Second)
	for at := t0; !at.After(end); at = at.Add(100 * time.Millisecond) {
		e.Advance(at)
		d.Feed(e.Output())
		for {
			m, err := d.Next()
			if errors.Is(err, dgt.ErrNeedMore) {
				break
			}
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			steps = append(steps, sess.Message(at, m))
		}
		steps = append(steps, sess.Tick(at))
	}
	return sess, steps
}

// TestNextGameAfterResult: with NextGame, a set-up after a finished game
// starts the next round's game on the board, whose moves are recorded under
// the new game id; without it the set-up is ignored.
func TestNextGameAfterResult(t *testing.T) {
	rs, err := ruleset.Lookup(ruleset.FIDE2018Standard)
	if err != nil {
		t.Fatal(err)
	}
	g1 := game.ID{Event: "demo", Round: 1, Board: 3}
	line := script(t, scholar...)
	// The players signal the result (kings in the centre: the tracker then
	// waits for a set-up) and set the pieces up again.
	gesture, after := resultAfter(t, scholar...)
	s := line.Then(2*time.Second, gesture).Then(2*time.Second, setUpScript(after)).Then(3*time.Second, script(t, "d2d4", "d7d5"))

	for _, c := range []struct {
		name      string
		next      func(gamerecord.Info) gamerecord.Info
		wantGame  game.ID
		wantMoves string
		finished  int
		mismatch  bool // the arbiter is told no next game could start
	}{
		{"next round", session.NextRound, game.ID{Event: "demo", Round: 2, Board: 3}, "d2d4 d7d5", 1, false},
		{"same id refused", func(i gamerecord.Info) gamerecord.Info { return i }, g1, strings.Join(scholar, " "), 0, true},
		{"no NextGame", nil, g1, strings.Join(scholar, " "), 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := session.SessionOptions{Info: gamerecord.Info{Game: g1, White: "A", Black: "B"}, RuleSet: rs, Tracker: session.DefaultTrackerOptions(), NextGame: c.next}
			sess, steps := runSession(t, o, s)
			var finished []*gamerecord.Record
			var moves []game.MoveEvent
			mismatch := 0
			for _, st := range steps {
				finished = append(finished, st.Finished...)
				for _, out := range st.Out {
					switch p := out.(type) {
					case game.MoveEvent:
						moves = append(moves, p)
					}
					if a, ok := out.(game.Alert); ok && a.Kind == game.KindBoardMismatch {
						mismatch++
					}
				}
			}
			rec := sess.Record()
			if rec.Info.Game != c.wantGame || strings.Join(rec.UCIs(), " ") != c.wantMoves {
				t.Fatalf("current line %s moves %v, want %s %s", rec.Info.Game, rec.UCIs(), c.wantGame, c.wantMoves)
			}
			if (mismatch > 0) != c.mismatch {
				t.Errorf("%d board_mismatch alerts, want some: %v", mismatch, c.mismatch)
			}
			if len(finished) != c.finished {
				t.Fatalf("%d finished games, want %d", len(finished), c.finished)
			}
			if c.finished == 1 {
				f := finished[0]
				if f.Info.Game != g1 || strings.Join(f.UCIs(), " ") != strings.Join(scholar, " ") || f.Result != "1-0" {
					t.Errorf("finished line %s %v %s", f.Info.Game, f.UCIs(), f.Result)
				}
				last := moves[len(moves)-1]
				if last.Game != c.wantGame || last.Ply != 2 || last.UCI != "d7d5" {
					t.Errorf("last move event %+v", last)
				}
				if rec.Result != "*" || rec.Info.White != "A" {
					t.Errorf("new line: result %q white %q", rec.Result, rec.Info.White)
				}
			}
		})
	}
}

// TestNextGameInTheHall: on a board served over a pseudo-terminal, a game
// ended by the result gesture and a set-up move the board on to the next
// round's game; its moves are recorded there, arbiter commands reach it
// under its new id, and the finished game still takes the commands that
// concern it alone (its result confirmed or changed, saved and published)
// but none that would touch the board or its clock.
func TestNextGameInTheHall(t *testing.T) {
	integration(t)
	g1 := game.ID{Event: "open2026", Round: 1, Board: 1}
	g2 := game.ID{Event: "open2026", Round: 2, Board: 1}
	f := startHall(t, "b1", g1, "00001", func(hb *Board) { hb.Session.NextGame = session.NextRound })
	dir, b, d := f.dir, f.b, f.d

	// Four moves, 1-0 by the gesture, the pieces set up again, two moves.
	moves := []string{"e2e4", "e7e5", "g1f3", "b8c6"}
	gesture, after := resultAfter(t, moves...)
	b.e.Schedule(time.Now(), script(t, moves...).Then(2500*time.Millisecond, gesture).
		Then(2*time.Second, setUpScript(after)).Then(2*time.Second, script(t, "d2d4", "d7d5")))

	waitFor(t, 40*time.Second, "the second line's moves", func() bool {
		r, ok := d.h.Record(g2)
		return ok && strings.Join(r.UCIs(), " ") == "d2d4 d7d5"
	})
	if _, ok := d.h.Record(g1); ok {
		t.Error("the finished line is still the board's current record")
	}

	arb := f.arbiter(t)
	for _, c := range []struct {
		g   game.ID
		cmd string
		ok  bool
	}{
		{g2, `{"cmd":"set_result","result":"1/2-1/2"}`, true},
		{g1, `{"cmd":"set_result","result":"0-1","termination":"arbiter decision"}`, true},
		{g1, `{"cmd":"adjust_clock","white_ms":60000,"black_ms":60000}`, false},
		{g1, `{"cmd":"set_result","result":"*"}`, false},
	} {
		rep, err := arb.Request(testPrefix+".arbiter."+c.g.String()+".cmd", []byte(c.cmd), 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		var cr CommandReply
		decode(t, rep.Data, &cr)
		if cr.OK != c.ok {
			t.Errorf("%s on %s: %s (want ok %v)", c.cmd, c.g, rep.Data, c.ok)
		}
	}
	waitFor(t, 10*time.Second, "the second line's result", func() bool {
		r, ok := d.h.Record(g2)
		return ok && r.Result == "1/2-1/2"
	})
	if r, _ := d.h.Record(g2); r.Result != "1/2-1/2" || strings.Join(r.UCIs(), " ") != "d2d4 d7d5" {
		t.Errorf("the current game after a command on the finished one: %q %v", r.Result, r.UCIs())
	}
	// Stopped, the hall has compacted its journal: both games are in
	// their record files.
	d.stop()
	rec, ok, err := gamestore.LoadRecord(filepath.Join(dir, "data", "games"), g1)
	if err != nil || !ok || rec.Result != "0-1" || strings.Join(rec.UCIs(), " ") != strings.Join(moves, " ") {
		t.Errorf("the finished game after the arbiter's result: %v %v %q %v", ok, err, rec.Result, rec.UCIs())
	}
	rec, ok, err = gamestore.LoadRecord(filepath.Join(dir, "data", "games"), g2)
	if err != nil || !ok || strings.Join(rec.UCIs(), " ") != "d2d4 d7d5" || rec.Result != "1/2-1/2" {
		t.Errorf("next line's record: %v %v %+v", ok, err, rec)
	}
}
