package board

import (
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// completedPlies returns the MoveCompleted events in order.
func completedPlies(evs []game.Event) []game.MoveCompleted {
	var out []game.MoveCompleted
	for _, e := range evs {
		if c, ok := e.(game.MoveCompleted); ok {
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
			s := newScript(t, TrackerOptions{})
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
			s.want("game.MoveMade", "game.MoveCompleted")
			if s.tr.Completed() != 7 || s.tr.Ply() != 7 {
				t.Fatalf("completed %d of %d", s.tr.Completed(), s.tr.Ply())
			}
		})
	}
}

// TestPortGapPresses: the board's port is away (ClockLost … ClockBack)
// while plies are made and the clock pressed; the full read and the first
// reading after the return arrive in either order. Every ply is completed
// once, in order, the last ones with the returning reading, and the presses
// made meanwhile give no ClockWithoutMove.
func TestPortGapPresses(t *testing.T) {
	for _, tc := range []struct {
		name         string
		away         []string
		readingFirst bool
	}{
		{"2 plies, reading first", []string{"g1f3", "b8c6"}, true},
		{"2 plies, dump first", []string{"g1f3", "b8c6"}, false},
		{"3 plies, reading first", []string{"g1f3", "b8c6", "f3g5"}, true},
		{"3 plies, dump first", []string{"g1f3", "b8c6", "f3g5"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newScript(t, TrackerOptions{})
			s.move("e2e4", true)
			s.move("c7c5", true)
			s.do("wait")
			s.reset()
			s.add(s.tr.ClockLost(s.now))
			want := playUCI(t, s.tr.Position(), tc.away...)
			s.now = s.now.Add(3 * time.Second)
			s.do("wait")
			s.add(s.tr.ClockBack(s.now))
			s.clk.Running = want.Turn()
			s.clk.White -= 2 * time.Second
			reading := func() { s.now = s.now.Add(50 * time.Millisecond); s.add(s.tr.Clock(s.now, s.clk)) }
			dump := func() { s.now = s.now.Add(50 * time.Millisecond); s.add(s.tr.Dump(s.now, want.Placement())) }
			if tc.readingFirst {
				reading()
				dump()
			} else {
				dump()
				reading()
			}
			s.do("wait")
			done := completedPlies(s.evs)
			if len(done) != len(tc.away) {
				t.Fatalf("%d completed, want %d\n%s", len(done), len(tc.away), s.dump())
			}
			for i, c := range done {
				if c.Ply != 3+i || c.UCI != tc.away[i] {
					t.Fatalf("completion %d: %+v", i, c)
				}
			}
			if last := done[len(done)-1]; last.Clock == nil || last.Clock.White != s.clk.White {
				t.Fatalf("last completion without the returning reading: %+v", last)
			}
			for _, e := range s.evs {
				switch e.(type) {
				case game.ClockWithoutMove, game.DisplacedPieces, game.Unexplained:
					t.Fatalf("%T\n%s", e, s.dump())
				}
			}
			// Completion by press afterwards.
			s.reset()
			next := map[rules.Color]string{rules.White: "d2d4", rules.Black: "d7d6"}[want.Turn()]
			s.move(next, true)
			s.do("wait")
			s.want("game.MoveMade", "game.MoveCompleted")
		})
	}
}
