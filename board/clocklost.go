package board

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// ClockLost tells the tracker that the game's clock is no longer heard (its
// cable pulled, the board reporting no clock). Under [ClockPress]
// completion the lever presses are missed from now on, so made moves are
// completed as on a board without a clock ([StableWindow]: when the
// opponent starts their turn, or once the placement has been stable for
// [Options.CompleteAfter]); their [MoveCompleted] has ClockLost set and no
// Clock reading. The board is still read: no move is lost. Presses
// pending when the clock went away are still judged. Other completion
// modes are unaffected. It returns the events of windows that expired
// before at.
func (t *Tracker) ClockLost(at time.Time) []game.Event {
	evs := t.advance(at, nil)
	t.clockLost = true
	t.clockBack = false
	t.readSinceBack = false
	t.lastRun = rules.NoColor // a press cannot be read across the gap
	t.stableSince = maxTime(t.stableSince, at)
	return evs
}

// ClockBack tells the tracker that the clock is heard again: completion by
// press resumes. The first reading after it is the new reference for the
// running side (presses missed during the gap are not read as one); if it
// shows the clock of the side to move running, the last mover has pressed
// and the moves made but not completed are completed with that reading;
// otherwise they wait for the mover's press as usual. Moves a full read
// ([Tracker.Dump]) catches up after that reading are completed the same
// way. Nothing completed during the gap is completed again.
//
// A board that was away (its port lost) is a gap for the clock too: call
// ClockLost when the board is lost and ClockBack when it answers again,
// so the presses made meanwhile are neither misread as one press (a false
// ClockWithoutMove) nor missing.
func (t *Tracker) ClockBack(at time.Time) []game.Event {
	evs := t.advance(at, nil)
	if !t.clockLost {
		return evs
	}
	t.clockLost = false
	t.clockBack = true
	t.readSinceBack = false
	t.lastRun = rules.NoColor
	return evs
}

// afterCatchUp completes the moves a full read caught up when a running
// reading heard since [Tracker.ClockBack] shows the side to move's clock
// running (the last mover pressed while the board or clock was not
// heard). Without such a reading they wait for the first one
// (clockReturned) or for the mover's press.
func (t *Tracker) afterCatchUp(at time.Time, evs []game.Event) []game.Event {
	if !t.readSinceBack || t.clock == nil || t.opts.Completion != ClockPress || t.clockLost || t.over ||
		t.done >= len(t.moves) || t.dirty || t.sensed != t.top().place || t.clock.Running != t.top().pos.Turn() {
		return evs
	}
	t.readSinceBack = false
	rc := *t.clock
	t.unpressed = 0
	return t.completeUpTo(at, len(t.moves), &rc, evs)
}

// ClockIsLost reports whether the tracker completes moves without the
// clock ([Tracker.ClockLost] without [Tracker.ClockBack] since).
func (t *Tracker) ClockIsLost() bool { return t.clockLost }

// completion returns the completion rule in force: StableWindow while the
// clock is lost under ClockPress.
func (t *Tracker) completion() Completion {
	if t.clockLost && t.opts.Completion == ClockPress {
		return StableWindow
	}
	return t.opts.Completion
}

// clockReturned handles the first running reading r after ClockBack: the
// running side becomes the reference, and moves made but not completed
// are completed with r when the side to move's clock runs (the last
// mover pressed during the gap or as the clock came back).
func (t *Tracker) clockReturned(at time.Time, r game.ClockReading, evs []game.Event) []game.Event {
	t.clockBack = false
	t.readSinceBack = true
	t.lastRun = r.Running
	if t.opts.Completion != ClockPress || t.over || t.done >= len(t.moves) || t.dirty {
		return evs
	}
	if t.top().pos.Turn() == r.Running && t.sensed == t.top().place {
		rc := r
		t.unpressed = 0
		evs = t.completeUpTo(at, len(t.moves), &rc, evs)
	}
	return evs
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
