package board

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// Clock feeds a clock reading. Every changed reading is passed on as
// [ClockChanged]. A lever press is read from the running side changing
// from one side to the other (a pause in between does not hide it); under
// [ClockPress] completion it completes the presser's made move, or is
// judged after [Options.PressGrace] (the board's scan may lag the lever):
// a completed illegal move, a press without a move ([ClockWithoutMove]),
// or a press with pieces out of place ([DisplacedPieces]).
func (t *Tracker) Clock(at time.Time, r ClockReading) []Event {
	evs := t.advance(at, nil)
	if t.clock == nil || *t.clock != r {
		evs = append(evs, &ClockChanged{Stamp: Stamp{At: at}, Clock: r})
	}
	rc := r
	t.clock = &rc
	if r.Running == rules.NoColor {
		return evs
	}
	pressed := t.lastRun != rules.NoColor && r.Running != t.lastRun
	side := t.lastRun
	t.lastRun = r.Running
	if !pressed || t.opts.Completion != ClockPress || t.over {
		return evs
	}
	if t.press != nil {
		evs = t.judgePress(at, evs) // a second press before the first was judged
	}
	t.press = &pendingPress{at: at, side: side, clock: r}
	if !t.dirty {
		evs = t.tryPress(evs)
	}
	return evs
}

// lastPlyBy returns the last made, not completed ply by side (0 if none).
func (t *Tracker) lastPlyBy(side rules.Color) int {
	for ply := len(t.hist) - 1; ply > t.done; ply-- {
		if t.hist[ply-1].pos.Turn() == side {
			return ply
		}
	}
	return 0
}

// tryPress judges a pending press when the board already answers it: the
// presser has a made move, or an illegal move of his stands on the board.
func (t *Tracker) tryPress(evs []Event) []Event {
	p := t.press
	if p == nil {
		return evs
	}
	if ply := t.lastPlyBy(p.side); ply > 0 {
		t.press = nil
		return t.completeUpTo(p.at, ply, &p.clock, evs)
	}
	if il := t.illegal; il != nil && il.ev.Side == p.side && t.sensed == il.place {
		t.press = nil
		return t.completeIllegal(p, evs)
	}
	return evs
}

// judgePress decides a press once its grace has passed.
func (t *Tracker) judgePress(at time.Time, evs []Event) []Event {
	evs = t.tryPress(evs)
	p := t.press
	if p == nil {
		return evs
	}
	t.press = nil
	if il := t.illegal; il != nil && t.sensed == il.place {
		return t.completeIllegal(p, evs)
	}
	if t.sensed == t.top().place {
		return append(evs, &ClockWithoutMove{Stamp: Stamp{At: p.at}, Side: p.side, Clock: p.clock})
	}
	if t.displacedSent {
		return evs
	}
	t.displacedSent = true
	return append(evs, &DisplacedPieces{Stamp: Stamp{At: p.at}, Squares: t.sensed.Diff(&t.top().place, nil)})
}

// completeIllegal reports the illegal move standing on the board as
// completed by press p (FIDE 2018 7.5.1).
func (t *Tracker) completeIllegal(p *pendingPress, evs []Event) []Event {
	il := t.illegal
	if il.completed {
		return evs
	}
	il.completed = true
	c := p.clock
	il.clock = &c
	ev := il.ev
	ev.Stamp = Stamp{At: p.at}
	ev.Completed = true
	ev.Evidence = append([]Touch(nil), t.turn.touches...)
	return append(evs, &ev)
}
