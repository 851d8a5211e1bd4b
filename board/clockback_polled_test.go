package board

import (
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestPolledPressReadBeforeItsRecordAfterClockBack: a bus board's record
// rebuilt from its log (the hall's Session.rebuild after a
// resynchronisation: every recorded ply replayed, then ClockLost and
// ClockBack), the hand in the middle of White's next move. The line reads
// the clock before it polls the board again: the reading shows Black's
// clock running (White has pressed), the answer after it the knight
// landing and White's press record. That press is White's: the move is
// completed with White's time, and Black's reply with Black's. On main
// 046146e the first reading after the clock came back only set the
// running side, so White's press record was taken as Black's (a press
// without a move by the wrong side, the moves completed late or never);
// c1f85e0's press records credited by their display bit read it right.
func TestPolledPressReadBeforeItsRecordAfterClockBack(t *testing.T) {
	start := chess.StartPosition(chess.Standard)
	tr, err := New(TrackerOptions{Start: start, Polled: true, ScanPeriod: 900 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	tr.SetClockSides(rules.White)
	at := t0
	pos := rules.Position(start)
	for _, u := range []string{"e2e4", "e7e5"} {
		m, err := pos.ParseMove(u)
		if err != nil {
			t.Fatal(err)
		}
		pos, _ = pos.Play(m)
		tr.Dump(at, pos.Placement())
		tr.Finish(at)
	}
	if tr.Completed() != 2 {
		t.Fatalf("replay: %d plies completed", tr.Completed())
	}
	tr.ClockLost(at)
	tr.ClockBack(at)
	var evs []game.Event
	sq := func(name string) rules.Square {
		s, err := start.Geometry().ParseSquare(name)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	mid := pos.Placement()
	mid.Sq[sq("g1")] = rules.NoPiece // the knight in the hand
	at = at.Add(100 * time.Millisecond)
	evs = append(evs, tr.Reread(at, mid)...)
	// The clock read: White pressed 1:29:50 (+30 s), Black's clock runs.
	at = at.Add(70 * time.Millisecond)
	evs = append(evs, tr.Clock(at, game.ClockReading{White: 90*time.Minute + 20*time.Second, Black: 90*time.Minute - 3*time.Second, Running: rules.Black})...)
	// The board's answer: the knight on f3, White's press record.
	at = at.Add(35 * time.Millisecond)
	evs = append(evs, tr.Sense(at, game.SquareChange{Square: sq("f3"), Piece: rules.Piece{Color: rules.White, Kind: rules.Knight}})...)
	evs = append(evs, tr.Sense(at, game.LeverPress{Display: game.LeftDisplay, Time: 90*time.Minute + 20*time.Second})...)
	evs = append(evs, tr.Tick(at)...)
	// Black replies: Nc6 and his press in the next answers.
	for _, step := range []struct {
		d  time.Duration
		in []game.Sensed
	}{
		{900 * time.Millisecond, []game.Sensed{game.SquareChange{Square: sq("b8"), Piece: rules.NoPiece}}},
		{900 * time.Millisecond, []game.Sensed{game.SquareChange{Square: sq("c6"), Piece: rules.Piece{Color: rules.Black, Kind: rules.Knight}},
			game.LeverPress{Display: game.RightDisplay, Time: 90*time.Minute + 25*time.Second}}},
		{900 * time.Millisecond, nil},
		{2 * time.Second, nil},
	} {
		at = at.Add(step.d)
		for _, s := range step.in {
			evs = append(evs, tr.Sense(at, s)...)
		}
		evs = append(evs, tr.Tick(at)...)
	}
	var done []string
	for _, e := range evs {
		switch e := e.(type) {
		case game.MoveCompleted:
			if e.Clock == nil {
				t.Errorf("ply %d completed without a clock reading", e.Ply)
				continue
			}
			mover := e.Clock.White
			if e.Ply%2 == 0 {
				mover = e.Clock.Black
			}
			done = append(done, e.UCI)
			if want := []time.Duration{90*time.Minute + 20*time.Second, 90*time.Minute + 25*time.Second}[min(e.Ply-3, 1)]; mover != want {
				t.Errorf("ply %d %s: the mover's clock %v, want %v (his press)", e.Ply, e.UCI, mover, want)
			}
		case game.ClockWithoutMove, game.IllegalMove, game.DisplacedPieces, game.Ambiguous:
			t.Errorf("%T %+v", e, e)
		}
	}
	if strings.Join(done, " ") != "g1f3 b8c6" {
		t.Errorf("completed %v, want g1f3 b8c6", done)
	}
}
