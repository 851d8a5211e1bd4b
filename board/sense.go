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
// record (the clock is not turned with the board); on a polled board only
// from a face read while the board shows the record's position, confirmed
// by its next answer, faces being left unfed until then (clockReading). A
// face that says which colour plays on the left, or
// [Tracker.SetClockSides], fixes the mapping instead.
func (t *Tracker) Sense(at time.Time, s game.Sensed) []game.Event {
	switch s := s.(type) {
	case game.SquareChange:
		t.chg[0] = s
		return t.Squares(at, t.chg[:])
	case game.FullRead:
		if t.opts.DumpsOnly {
			return t.dumpRead(at, s.Placement)
		}
		return t.Dump(at, s.Placement)
	case game.ClockFace:
		if s.Absent {
			return t.advance(at, nil)
		}
		r, ok := t.clockReading(at, s)
		if !ok {
			return t.advance(at, nil)
		}
		return t.Clock(at, r)
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

// clockReading maps a clock face read at at to a reading in colours. On a
// polled board the mapping is guessed only from a face read while the
// board shows the record's position with nothing made or pressed since
// (sidesKnowable), and taken only once two poll cycles have passed with
// nothing new either (sidesAnswered: a bus line reads the clock and the
// board's changes apart, so the board may have moved just before the
// reading); until then faces are not fed (ok false). Read after a move the
// record does not hold yet, the running side may be the mover's
// opponent's (he pressed) or the mover's (he did not yet), and a wrong
// guess turns every later reading's colours round for the rest of the game
// (each press read as the opponent's, the game's last one never completing
// its move). A board seldom at rest gets its sides from its press records'
// times instead (sidesFromPress). The board's press records complete its
// moves meanwhile (leverPress). Once a running face was held back, no
// face is fed until the sides are known, a stopped one included (its
// colours would be a guess), and the first one fed then says so
// (ClockChanged.Resync).
func (t *Tracker) clockReading(at time.Time, f game.ClockFace) (game.ClockReading, bool) {
	if f.LeftIs != rules.NoColor {
		t.clk.left = f.LeftIs
	}
	if t.clk.left == rules.NoColor && f.Running != game.NoDisplay {
		mover := t.line.node(t.line.done).pos.Turn()
		left := mover.Other()
		if f.Running == game.LeftDisplay {
			left = mover
		}
		if t.opts.Polled {
			if timed := t.sidesFromPress(f); timed != rules.NoColor {
				t.clk.left, t.clk.sides = timed, nil
				return f.Reading(timed), true
			}
			switch g := t.clk.sides; {
			case !t.sidesKnowable() || g != nil && g.left != left:
				t.clk.sides = nil
			case g == nil:
				t.clk.sides = &sidesGuess{at: at, left: left}
			}
			t.clk.withheld = true
			return game.ClockReading{}, false
		}
		t.clk.left = left
	}
	if t.clk.left == rules.NoColor && t.clk.withheld {
		return game.ClockReading{}, false
	}
	left := t.clk.left
	if left == rules.NoColor {
		left = rules.White
	}
	return f.Reading(left), true
}
