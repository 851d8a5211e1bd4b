package board

import (
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// completedPlies returns the MoveCompleted events in order.
func completedPlies(evs []Event) []*MoveCompleted {
	var out []*MoveCompleted
	for _, e := range evs {
		if c, ok := e.(*MoveCompleted); ok {
			out = append(out, c)
		}
	}
	return out
}

// TestClockLost: while the clock is lost, moves made on the board are
// completed as without a clock (the opponent starting their turn, or the
// stable window), once each, in order, flagged ClockLost with no clock
// reading; when the clock is back, completion is by press again, and the
// move in progress is completed once: by the returning reading when it
// shows the mover pressed, else by the mover's press.
func TestClockLost(t *testing.T) {
	for _, tc := range []struct {
		name    string
		pressed bool // the returning reading shows the mover's clock stopped
	}{
		{name: "mover pressed during the gap", pressed: true},
		{name: "mover presses after the return"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newScript(t, Options{})
			s.move("e2e4", true)
			s.move("d7d5", true)
			s.do("wait")
			if s.tr.Completed() != 2 {
				t.Fatalf("completed %d before the gap\n%s", s.tr.Completed(), s.dump())
			}
			s.reset()
			s.add(s.tr.ClockLost(s.now))
			// Three plies during the gap: the first two completed by the
			// opponent's lift, the third by the stable window.
			s.move("e4d5", false)
			s.do("wait:600ms")
			s.move("d8d5", false)
			s.do("wait:600ms")
			s.move("b1c3", false)
			s.do("wait:4s")
			// One more made, not yet completed, when the clock comes back.
			s.move("d5a5", false)
			s.do("wait:600ms")
			gap := completedPlies(s.evs)
			if len(gap) != 3 {
				t.Fatalf("%d completed in the gap, want 3\n%s", len(gap), s.dump())
			}
			for i, c := range gap {
				if c.Ply != 3+i || c.Clock != nil || !c.ClockLost {
					t.Fatalf("gap completion %d: %+v", i, c)
				}
			}
			s.reset()
			s.add(s.tr.ClockBack(s.now))
			s.now = s.now.Add(100 * time.Millisecond)
			if tc.pressed {
				s.clk.Running = rules.White
			} else {
				s.clk.Running = rules.Black
			}
			s.add(s.tr.Clock(s.now, s.clk))
			if !tc.pressed {
				s.do("wait:4s") // no stable-window completion any more
				if n := len(completedPlies(s.evs)); n != 0 {
					t.Fatalf("%d completed without a press\n%s", n, s.dump())
				}
				s.do("press")
			}
			s.do("wait")
			back := completedPlies(s.evs)
			if len(back) != 1 || back[0].Ply != 6 || back[0].UCI != "d5a5" || back[0].Clock == nil || back[0].ClockLost {
				t.Fatalf("after the return %+v\n%s", back, s.dump())
			}
			// Completion by press again, no stray ClockWithoutMove.
			s.reset()
			s.move("g1f3", true)
			s.do("wait")
			s.want("MoveMade", "MoveCompleted")
			if s.tr.Completed() != 7 || s.tr.Ply() != 7 {
				t.Fatalf("completed %d of %d", s.tr.Completed(), s.tr.Ply())
			}
		})
	}
}
