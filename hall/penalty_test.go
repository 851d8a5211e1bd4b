package hall

import (
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/adjudicator"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/clock"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
)

// TestHallPenaltyAuto: with penalties auto, Black's completed illegal move
// on an emulated board with a DGT 3000 (90 min + 30 s, on a real pty)
// gives White 2 minutes on the clock itself (SetNRun, read back from the
// emulated clock), the alert on the arbiter subject says it was applied
// and that the clock now runs without increment, the levers still switch
// the clock, and the moves played afterwards (no increments any more)
// raise no clock_defect alert.
func TestHallPenaltyAuto(t *testing.T) {
	integration(t)
	g := game.ID{Event: "open2026", Round: 1, Board: 3}
	f := startHall(t, "r1-b3", g, "00003", func(hb *Board) {
		hb.Session.TimeControl = clock.MustParse("5400+30")
		hb.Session.Penalties = adjudicator.PenaltiesAuto
		hb.Session.ClockEvery = -1 // every reading is a ClockEvent: the test counts them
	})
	b, d := f.b, f.d
	arb, alerts := f.alerts(t)
	clocks := make(chan *nats.Msg, 1024)
	if _, err := arb.ChanSubscribe(testPrefix+".game."+g.String()+".clock", clocks); err != nil {
		t.Fatal(err)
	}
	if err := arb.Flush(); err != nil {
		t.Fatal(err)
	}

	// 1. e4 (White on the left), then Black's bishop f8-a3 through its
	// own pawn, and Black presses: a completed illegal move.
	start := chess.StartPosition(chess.Standard)
	afterE4, _ := start.Play(mustMove(t, start, "e2e4"))
	ill, err := emu.MoveScript(afterE4, rules.Move{From: sq(t, "f8"), To: sq(t, "a3"), Promo: rules.NoKind, Drop: rules.NoKind},
		emu.Handling{Press: true, Side: emu.Right, Speed: 2})
	if err != nil {
		t.Fatal(err)
	}
	b.e.Schedule(time.Now(), script(t, "e2e4").Then(time.Second, ill))

	var applied game.Alert
	deadline := time.After(30 * time.Second)
	for applied.Kind != game.KindIllegalMove {
		select {
		case m := <-alerts:
			applied = game.Alert{}
			decode(t, m.Data, &applied)
		case <-deadline:
			t.Fatal("no illegal_move alert on the arbiter subject")
		}
	}
	if applied.Side != "black" || applied.Proposal["applied"] != true ||
		!strings.Contains(applied.Message, "Applied (penalties: auto): White gets 2 min") ||
		!strings.Contains(applied.Message, "adds no increment") {
		t.Errorf("alert %v: %s", applied.Proposal, applied.Message)
	}
	// The clock took it: host-controlled, White (left) 2 minutes up on
	// the 90:30 + 30 s it had after 1. e4, running for White.
	var cs emu.ClockState
	waitFor(t, 10*time.Second, "the clock to show White's 2 minutes", func() bool {
		cs = b.e.Clock(time.Now())
		return cs.HostControl && cs.Left > 92*time.Minute && cs.Left <= 93*time.Minute && cs.Right > 89*time.Minute
	})
	if cs.Running != emu.Left {
		t.Errorf("clock %+v: White's side should run", cs)
	}
	blackAtPenalty := cs.Right
	if cs.Text != "" || cs.Beeps != 0 {
		t.Errorf("the players were shown %q / %d beeps", cs.Text, cs.Beeps)
	}

	// The pieces go back (bishop a3-f8) and play goes on: 1... e5 (the
	// lever is already down on Black's side), 2. Nf3 and White presses,
	// 2... Nc6 and Black presses.
	bB := afterE4.At(sq(t, "f8"))
	restore := emu.Script{{At: 500 * time.Millisecond, Kind: emu.Lift, Square: sq(t, "a3")},
		{At: 900 * time.Millisecond, Kind: emu.Place, Square: sq(t, "f8"), Piece: bB}}
	afterE5, _ := afterE4.Play(mustMove(t, afterE4, "e7e5"))
	e5, _ := emu.MoveScript(afterE4, mustMove(t, afterE4, "e7e5"), emu.Handling{Speed: 2})
	nf3, _ := emu.MoveScript(afterE5, mustMove(t, afterE5, "g1f3"), emu.Handling{Press: true, Side: emu.Left, Speed: 2})
	afterNf3, _ := afterE5.Play(mustMove(t, afterE5, "g1f3"))
	nc6, _ := emu.MoveScript(afterNf3, mustMove(t, afterNf3, "b8c6"), emu.Handling{Press: true, Side: emu.Right, Speed: 2})
	b.e.Schedule(time.Now(), restore.Then(time.Second, e5).Then(time.Second, nf3).Then(1500*time.Millisecond, nc6))

	waitFor(t, 30*time.Second, "2... Nc6", func() bool {
		r, _ := d.h.Record(g)
		return len(r.Moves) >= 4
	})
	r, _ := d.h.Record(g)
	if got := strings.Join(r.UCIs(), " "); got != "e2e4 e7e5 g1f3 b8c6" {
		t.Errorf("moves %s", got)
	}
	// The levers still work: White's press after Nf3 ran Black's clock,
	// Black's press after Nc6 runs White's again.
	waitFor(t, 10*time.Second, "White's clock to run after 2... Nc6", func() bool {
		cs = b.e.Clock(time.Now())
		return cs.Running == emu.Left
	})
	if cs.Right > blackAtPenalty-time.Second {
		t.Errorf("Black's clock never ran after the penalty (%v, then %v): the levers do nothing", blackAtPenalty, cs.Right)
	}
	// A few clock readings after the last press reach the clock model.
	pressed := time.Now()
	readings := 0
	for readings < 3 {
		select {
		case m := <-clocks:
			var ce game.ClockEvent
			if decode(t, m.Data, &ce) && ce.At.After(pressed) {
				readings++
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%d clock readings after the last press, want 3", readings)
		}
	}
	quiesce(t, d, arb)
	for {
		select {
		case m := <-alerts:
			var al game.Alert
			decode(t, m.Data, &al)
			t.Logf("alert %s: %s", al.Kind, al.Message)
			if al.Kind == game.KindClockDefect || al.Kind == game.KindClockCommandFailed {
				t.Errorf("after the penalty: %s: %s", al.Kind, al.Message)
			}
		default:
			return
		}
	}
}
