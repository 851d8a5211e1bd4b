package board

import (
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// clockPhase is how the game's clock is heard. Every change goes through
// [Tracker.toClock], checked against clockTransitions.
type clockPhase uint8

const (
	// clockHeard: presses complete moves.
	clockHeard clockPhase = iota
	// clockLost: the clock is not heard (its cable pulled, the board's
	// port away); moves complete as on a board without a clock.
	clockLost
	// clockReturning: heard again; the next running reading is the new
	// reference for presses (clockReturned).
	clockReturning
	// clockReturned: the first running reading since the return came; a
	// full read's catch-up completes the moves it finds with it
	// (afterCatchUp).
	clockReturned
)

func (p clockPhase) String() string {
	return [...]string{"heard", "lost", "returning", "returned"}[p]
}

// clockTransitions lists, per clock phase, the phases it may change to.
var clockTransitions = [...][]clockPhase{
	clockHeard:     {clockLost},
	clockLost:      {clockReturning},
	clockReturning: {clockLost, clockReturned},
	clockReturned:  {clockLost, clockHeard},
}

// toClock moves the clock to phase p. A change clockTransitions does not
// list is a bug of the tracker.
func (t *Tracker) toClock(p clockPhase) {
	from := t.clk.phase
	if p == from {
		return
	}
	allowed := false
	for _, q := range clockTransitions[from] {
		allowed = allowed || q == p
	}
	if !allowed {
		panic(fmt.Sprintf("board: clock phase %s cannot change to %s", from, p))
	}
	if p == clockLost || p == clockReturning {
		t.clk.lastRun = rules.NoColor // a press cannot be read across the gap
	}
	t.clk.phase = p
}

// ClockLost tells the tracker that the game's clock is no longer heard (its
// cable pulled, the board reporting no clock). Under [ClockPress]
// completion the lever presses are missed from now on, so made moves are
// completed as on a board without a clock ([StableWindow]: when the
// opponent starts their turn, or once the placement has been stable for
// [TrackerOptions.CompleteAfter]); their [game.MoveCompleted] has
// ClockLost set and no Clock reading. The board is still read: no move is
// lost. Presses pending when the clock went away are still judged. Other
// completion modes are unaffected. It returns the events of windows that
// expired before at.
func (t *Tracker) ClockLost(at time.Time) []game.Event {
	evs := t.advance(at, nil)
	t.toClock(clockLost)
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
	if t.clk.phase == clockLost {
		t.toClock(clockReturning)
	}
	return evs
}

// completion returns the completion rule in force: StableWindow while the
// clock is lost under ClockPress.
func (t *Tracker) completion() Completion {
	if t.clk.phase == clockLost && t.opts.Completion == ClockPress {
		return StableWindow
	}
	return t.opts.Completion
}

// clockReturned handles the first running reading r after ClockBack: the
// running side becomes the reference, and moves made but not completed
// are completed with r when the side to move's clock runs (the last
// mover pressed during the gap or as the clock came back; a polled
// board's record of that press, if it comes next, is his: pressHeard),
// unless a polled board's press records are pending: they came first,
// and they complete the moves (completed here, the moves would leave them
// without one: false clock_without_move).
func (t *Tracker) clockReturned(at time.Time, r game.ClockReading, evs []game.Event) []game.Event {
	t.toClock(clockReturned)
	t.clk.lastRun, t.clk.fresh = r.Running, true
	if t.opts.Completion != ClockPress || t.state.phase == ended || t.line.done >= len(t.line.moves) || t.board.dirty {
		return evs
	}
	if t.line.top().pos.Turn() == r.Running && t.board.sensed == t.line.top().place && (!t.opts.Polled || len(t.lever.presses) == 0) {
		rc := r
		t.lever.unpressed = 0
		evs = t.completeUpTo(at, len(t.line.moves), &rc, evs)
		t.pressHeard(at, r)
	}
	return evs
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// pressHeard notes, on a polled board, that a reading showed the last
// mover's press before the board's record of it: the record, when it
// comes in the board's next answer, is that press's (leverPress), not one
// to credit by the turn (the ply is completed already: it would be read as
// the opponent's press without a move).
func (t *Tracker) pressHeard(at time.Time, r game.ClockReading) {
	if t.opts.Polled {
		t.lever.heard = append(t.lever.heard, heardFrom(at, r))
	}
}
