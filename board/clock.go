package board

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// clockState is the game's clock as the tracker hears it.
type clockState struct {
	phase clockPhase         // how the clock is heard (clocklost.go)
	last  *game.ClockReading // the last reading (nil: none yet)
	left  rules.Color        // the colour on the left display (NoColor: not known yet)
	// lastRun: the running side of the last running reading, from which a
	// press is read (NoColor: none since the clock was last heard anew).
	lastRun rules.Color
}

// lever is the presses not judged yet.
type lever struct {
	presses []pendingPress // oldest first
	// unpressed: the last ply completed without a press (0: none); a late
	// press by its mover belongs to it and is no ClockWithoutMove.
	unpressed int
}

// pendingPress is a lever press not judged yet (the scan may lag).
type pendingPress struct {
	at    time.Time
	side  rules.Color
	clock game.ClockReading
}

// Clock feeds a clock reading. Every changed reading is passed on as
// [game.ClockChanged]. A lever press is read from the running side changing
// from one side to the other (a pause in between does not hide it); under
// [ClockPress] completion it completes the presser's made move, or is
// judged after [TrackerOptions.PressGrace] (the board's scan may lag the lever):
// a completed illegal move, a press without a move ([game.ClockWithoutMove]),
// or a press with pieces out of place ([game.DisplacedPieces]).
func (t *Tracker) Clock(at time.Time, r game.ClockReading) []game.Event {
	evs := t.advance(at, nil)
	if t.clk.last == nil || *t.clk.last != r {
		evs = append(evs, game.ClockChanged{Stamp: game.Stamp{At: at}, Clock: r})
	}
	rc := r
	t.clk.last = &rc
	if r.Running == rules.NoColor {
		return evs
	}
	if t.clk.phase == clockReturning {
		return t.clockReturned(at, r, evs)
	}
	pressed := t.clk.lastRun != rules.NoColor && r.Running != t.clk.lastRun
	side := t.clk.lastRun
	if pressed && len(t.line.hist) == 1 && len(t.lever.presses) == 0 && side != t.line.top().pos.Turn() && t.board.sensed == t.line.top().place {
		// Before the first move, with the start position on the board
		// and nothing pending, the first mover's opponent starting the
		// first mover's clock is the start of the game, not a press
		// without a move: the clock may still show the previous game's
		// running side after a set-up.
		pressed = false
	}
	t.clk.lastRun = r.Running
	if !pressed || t.completion() != ClockPress || t.state.phase == ended {
		return evs
	}
	t.lever.presses = append(t.lever.presses, pendingPress{at: at, side: side, clock: r})
	if t.board.dirty && t.settledForPress(at, side) {
		// The hand is done: the press says so, and the board already
		// shows the presser's legal move. Judge now rather than one
		// Settle window after the last change (evaluate answers the
		// press).
		return t.evaluate(at, t.opts.MaxDepth, evs)
	}
	if !t.board.dirty {
		evs = t.tryPress(evs)
	}
	return evs
}

// settledForPress reports whether a press by side at time at may be judged
// before the Settle window has run out: at least [TrackerOptions.PressSettle]
// (default [TrackerOptions.ScanPeriod]) has passed since the last square change
// (the scan has seen the whole move), and the sensed placement is exactly
// the tip of the trail of legal moves followed since the last judgement,
// the last of them made by the presser. A board in any other state (pieces
// in the air, an unexplained or illegal placement, a change less than
// PressSettle ago) waits for the Settle window as before.
func (t *Tracker) settledForPress(at time.Time, side rules.Color) bool {
	n := len(t.trail.nodes)
	if n == 0 || at.Before(t.board.lastChange.Add(t.opts.PressSettle)) || t.trail.nodes[n-1].place != t.board.sensed {
		return false
	}
	parent := t.line.top()
	if n > 1 {
		parent = t.trail.nodes[n-2]
	}
	return parent.pos.Turn() == side
}

// tryPress judges pending presses, oldest first, while the board answers
// them: the presser has a made move, or an illegal move of his stands on
// the board.
func (t *Tracker) tryPress(evs []game.Event) []game.Event {
	for len(t.lever.presses) > 0 {
		p := t.lever.presses[0]
		switch {
		case t.line.firstPlyBy(p.side) > 0:
			t.lever.unpressed = 0
			evs = t.completeUpTo(p.at, t.line.firstPlyBy(p.side), &p.clock, evs)
		case t.lever.unpressed > 0 && t.lever.unpressed <= t.line.done && t.line.hist[t.lever.unpressed-1].pos.Turn() == p.side:
			// The press that goes with a move already completed without it
			// (a move that ended the game, or the player's next move came
			// first).
			t.lever.unpressed = 0
		case t.illegal != nil && t.illegal.ev.Side == p.side && t.board.sensed == t.illegal.place:
			evs = t.completeIllegal(&p, evs)
		default:
			return evs
		}
		t.lever.presses = t.lever.presses[1:]
	}
	return evs
}

// judgePress decides the oldest pending press once its grace has passed
// (force: at the end of the input, whatever the board shows).
func (t *Tracker) judgePress(at time.Time, force bool, evs []game.Event) []game.Event {
	n := len(t.lever.presses)
	evs = t.tryPress(evs)
	if len(t.lever.presses) < n || len(t.lever.presses) == 0 {
		return evs
	}
	if !force && t.inAir(at) {
		return evs // pieces in the air: judge once the board is explained or held
	}
	p := t.lever.presses[0]
	t.lever.presses = t.lever.presses[1:]
	if il := t.illegal; il != nil && t.board.sensed == il.place {
		return t.completeIllegal(&p, evs)
	}
	if t.board.sensed == t.line.top().place {
		return append(evs, game.ClockWithoutMove{Stamp: game.Stamp{At: p.at}, Side: p.side, Clock: p.clock})
	}
	if t.state.displaced {
		return evs
	}
	t.state.displaced = true
	return append(evs, game.DisplacedPieces{Stamp: game.Stamp{At: p.at}, Squares: t.board.sensed.Diff(&t.line.top().place, nil)})
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
