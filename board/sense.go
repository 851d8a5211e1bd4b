package board

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Sense feeds one sensor report that arrived at time at (from a live
// board or a recording, through its protocol's translator) and returns
// the events: square changes, full reads and clock faces go to
// [Tracker.Squares], [Tracker.Dump] and [Tracker.Clock]; a result signal
// (a DGT magic piece) is a result gesture. A clock face with no clock
// connected only lets time pass: the wiring decides what a lost clock
// means ([Tracker.ClockLost]).
//
// Clock displays are mapped to colours on the first reading with a
// running clock: the running side belongs to the side to move in the
// record (the clock is not turned with the board). A face that says which
// colour plays on the left, or [Tracker.SetClockSides], fixes the mapping
// instead.
func (t *Tracker) Sense(at time.Time, s game.Sensed) []game.Event {
	switch s := s.(type) {
	case game.SquareChange:
		t.chg[0] = s
		return t.Squares(at, t.chg[:])
	case game.FullRead:
		return t.Dump(at, s.Placement)
	case game.ClockFace:
		if s.Absent {
			return t.advance(at, nil)
		}
		return t.Clock(at, t.clockReading(s))
	case game.LeverPress:
		return t.leverPress(at, s)
	case game.ResultSignal:
		return t.signal(at, s)
	}
	return nil
}

// SetClockSides says which colour plays on the clock's left display.
func (t *Tracker) SetClockSides(left rules.Color) { t.clk.left = left }

// ClockSides returns the colour on the clock's left display, once known
// (rules.NoColor before the first running reading).
func (t *Tracker) ClockSides() rules.Color { return t.clk.left }

// clockReading maps a clock face to a reading in colours.
func (t *Tracker) clockReading(f game.ClockFace) game.ClockReading {
	if f.LeftIs != rules.NoColor {
		t.clk.left = f.LeftIs
	}
	if t.clk.left == rules.NoColor && f.Running != game.NoDisplay {
		mover := t.line.node(t.line.done).pos.Turn()
		if f.Running == game.LeftDisplay {
			t.clk.left = mover
		} else {
			t.clk.left = mover.Other()
		}
	}
	left := t.clk.left
	if left == rules.NoColor {
		left = rules.White
	}
	return f.Reading(left)
}
