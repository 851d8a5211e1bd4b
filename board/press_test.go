package board

import (
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestPressJudgedAfterTheNextScan: a press is judged once the scan that
// follows it has reported the board (one scan period and a little later:
// the lever often beats the scan, and until then the board may not show
// the whole move), whether the board had shown the presser's move for a
// long time or since a moment; with pieces in the air it waits. Time is
// passed in, so the event stamps are exact.
func TestPressJudgedAfterTheNextScan(t *testing.T) {
	const settle = 500 * time.Millisecond
	// afterScan: the scan that follows a press has reported the board one
	// scan period (the default 250 ms, nothing learnt yet) and 25 ms
	// after it; the test's ticks come every 10 ms.
	const afterScan = 280 * time.Millisecond
	tests := []struct {
		name       string
		pressAfter time.Duration // after the last square change
		extraLift  string        // a square lifted after the move, before the press ("": none)
		// judged: when the completion is returned, after the last square
		// change.
		judged time.Duration
	}{
		{"stable board", 300 * time.Millisecond, "", 300*time.Millisecond + afterScan},
		{"stable a scan period", 250 * time.Millisecond, "", 250*time.Millisecond + afterScan},
		{"stable for the settle window", 700 * time.Millisecond, "", 700*time.Millisecond + afterScan},
		{"pressed within a scan", 100 * time.Millisecond, "", 100*time.Millisecond + afterScan},
		{"pressed within a scan, settled before the next scan", 240 * time.Millisecond, "", 240*time.Millisecond + afterScan},
		{"piece in the air: waits", 300 * time.Millisecond, "d2", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := New(TrackerOptions{Start: chess.StartPosition(chess.Standard), Settle: settle})
			if err != nil {
				t.Fatal(err)
			}
			sq := func(s string) rules.Square {
				q, err := chess.StartPosition(chess.Standard).Geometry().ParseSquare(s)
				if err != nil {
					t.Fatal(err)
				}
				return q
			}
			var evs []game.Event
			clk := game.ClockReading{White: time.Minute, Black: time.Minute, Running: rules.White}
			evs = append(evs, tr.Clock(t0, clk)...)
			pawn := rules.Piece{Color: rules.White, Kind: rules.Pawn}
			evs = append(evs, tr.Squares(t0.Add(time.Second), []game.SquareChange{{Square: sq("e2")}})...)
			last := t0.Add(1100 * time.Millisecond)
			evs = append(evs, tr.Squares(last, []game.SquareChange{{Square: sq("e4"), Piece: pawn}})...)
			if tc.extraLift != "" {
				last = last.Add(50 * time.Millisecond)
				evs = append(evs, tr.Squares(last, []game.SquareChange{{Square: sq(tc.extraLift)}})...)
			}
			if tc.pressAfter > settle {
				evs = append(evs, tr.Tick(last.Add(settle))...)
			}
			press := last.Add(tc.pressAfter)
			clk.Running = rules.Black
			evs = evs[:0]
			var judgedAt time.Time
			var mc *game.MoveCompleted
			feed := func(at time.Time, got []game.Event) {
				for _, e := range got {
					if m, ok := e.(game.MoveCompleted); ok && mc == nil {
						mc, judgedAt = &m, at
					}
				}
				evs = append(evs, got...)
			}
			feed(press, tr.Clock(press, clk))
			// Then time passes in 10 ms ticks.
			for at := press; at.Before(press.Add(3 * time.Second)); at = at.Add(10 * time.Millisecond) {
				feed(at, tr.Tick(at))
			}
			if tc.extraLift != "" {
				if mc != nil {
					t.Fatalf("completed with a piece in the air: %+v", mc)
				}
				return
			}
			if mc == nil {
				t.Fatalf("no game.MoveCompleted in %v", evs)
			}
			if got := judgedAt.Sub(last); got != tc.judged {
				t.Errorf("completion returned at +%v, want +%v", got, tc.judged)
			}
			// A move completed by a press is stamped with the press.
			if !mc.At.Equal(press) || mc.UCI != "e2e4" || mc.Clock == nil || mc.Clock.Running != rules.Black {
				t.Fatalf("completed %s at +%v, want +%v (clock %v)", mc.UCI, mc.At.Sub(last), tc.pressAfter, mc.Clock)
			}
		})
	}
}
