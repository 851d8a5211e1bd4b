package board

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Clock feeds a clock reading. Every changed reading is passed on as
// [ClockChanged]. A lever press is read from the running side changing
// from one side to the other (a pause in between does not hide it); under
// [ClockPress] completion it completes the presser's made move, or is
// judged after [Options.PressGrace] (the board's scan may lag the lever):
// a completed illegal move, a press without a move ([ClockWithoutMove]),
// or a press with pieces out of place ([DisplacedPieces]).
func (t *Tracker) Clock(at time.Time, r game.ClockReading) []game.Event {
	evs := t.advance(at, nil)
	if t.clock == nil || *t.clock != r {
		evs = append(evs, game.ClockChanged{Stamp: game.Stamp{At: at}, Clock: r})
	}
	rc := r
	t.clock = &rc
	if r.Running == rules.NoColor {
		return evs
	}
	if t.clockBack {
		return t.clockReturned(at, r, evs)
	}
	pressed := t.lastRun != rules.NoColor && r.Running != t.lastRun
	side := t.lastRun
	if pressed && len(t.hist) == 1 && len(t.presses) == 0 && side != t.top().pos.Turn() && t.sensed == t.top().place {
		// Before the first move, with the start position on the board
		// and nothing pending, the first mover's opponent starting the
		// first mover's clock is the start of the game, not a press
		// without a move: the clock may still show the previous game's
		// running side after a set-up.
		pressed = false
	}
	t.lastRun = r.Running
	if !pressed || t.completion() != ClockPress || t.over {
		return evs
	}
	t.presses = append(t.presses, pendingPress{at: at, side: side, clock: r})
	if t.dirty && t.settledForPress(at, side) {
		// The hand is done: the press says so, and the board already
		// shows the presser's legal move. Judge now rather than one
		// Settle window after the last change (evaluate answers the
		// press).
		return t.evaluate(at, t.maxDepth, evs)
	}
	if !t.dirty {
		evs = t.tryPress(evs)
	}
	return evs
}

// settledForPress reports whether a press by side at time at may be judged
// before the Settle window has run out: at least [Options.PressSettle]
// (default [Options.ScanPeriod]) has passed since the last square change
// (the scan has seen the whole move), and the sensed placement is exactly
// the tip of the trail of legal moves followed since the last judgement,
// the last of them made by the presser. A board in any other state (pieces
// in the air, an unexplained or illegal placement, a change less than
// PressSettle ago) waits for the Settle window as before.
func (t *Tracker) settledForPress(at time.Time, side rules.Color) bool {
	n := len(t.chain)
	if n == 0 || at.Before(t.lastChange.Add(t.opts.PressSettle)) || t.chain[n-1].place != t.sensed {
		return false
	}
	parent := t.top()
	if n > 1 {
		parent = t.chain[n-2]
	}
	return parent.pos.Turn() == side
}

// firstPlyBy returns the first made, not completed ply by side (0 if
// none): a press completes the presser's oldest pending move.
func (t *Tracker) firstPlyBy(side rules.Color) int {
	for ply := t.done + 1; ply < len(t.hist); ply++ {
		if t.hist[ply-1].pos.Turn() == side {
			return ply
		}
	}
	return 0
}

// tryPress judges pending presses, oldest first, while the board answers
// them: the presser has a made move, or an illegal move of his stands on
// the board.
func (t *Tracker) tryPress(evs []game.Event) []game.Event {
	for len(t.presses) > 0 {
		p := t.presses[0]
		switch {
		case t.firstPlyBy(p.side) > 0:
			t.unpressed = 0
			evs = t.completeUpTo(p.at, t.firstPlyBy(p.side), &p.clock, evs)
		case t.unpressed > 0 && t.unpressed <= t.done && t.hist[t.unpressed-1].pos.Turn() == p.side:
			// The press that goes with a move already completed without it
			// (a move that ended the game, or the player's next move came
			// first).
			t.unpressed = 0
		case t.illegal != nil && t.illegal.ev.Side == p.side && t.sensed == t.illegal.place:
			evs = t.completeIllegal(&p, evs)
		default:
			return evs
		}
		t.presses = t.presses[1:]
	}
	return evs
}

// judgePress decides the oldest pending press once its grace has passed
// (force: at the end of the input, whatever the board shows).
func (t *Tracker) judgePress(at time.Time, force bool, evs []game.Event) []game.Event {
	n := len(t.presses)
	evs = t.tryPress(evs)
	if len(t.presses) < n || len(t.presses) == 0 {
		return evs
	}
	if !force && t.unexplained && at.Before(t.unexplSince.Add(t.opts.HoldAfter)) {
		return evs // pieces in the air: judge once the board is explained or held
	}
	p := t.presses[0]
	t.presses = t.presses[1:]
	if il := t.illegal; il != nil && t.sensed == il.place {
		return t.completeIllegal(&p, evs)
	}
	if t.sensed == t.top().place {
		return append(evs, game.ClockWithoutMove{Stamp: game.Stamp{At: p.at}, Side: p.side, Clock: p.clock})
	}
	if t.displacedSent {
		return evs
	}
	t.displacedSent = true
	return append(evs, game.DisplacedPieces{Stamp: game.Stamp{At: p.at}, Squares: t.sensed.Diff(&t.top().place, nil)})
}

// completeIllegal reports the illegal move standing on the board as
// completed by press p (FIDE 2018 7.5.1).
func (t *Tracker) completeIllegal(p *pendingPress, evs []game.Event) []game.Event {
	il := t.illegal
	if il.completed {
		return evs
	}
	il.completed = true
	c := p.clock
	il.clock = &c
	ev := il.ev
	ev.Stamp = game.Stamp{At: p.at}
	ev.Completed = true
	ev.Evidence = append([]game.Touch(nil), t.turn.touches...)
	return append(evs, ev)
}
