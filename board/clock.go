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
	due   time.Time // the scan that follows the press has reported the board
	// scanned: the board was looked at once the scan had reported it.
	scanned bool
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
	t.lever.presses = append(t.lever.presses, pendingPress{at: at, side: side, clock: r, due: t.scanned(at)})
	return evs
}

// tryPress judges the pending presses whose scan has reported the board
// by at, oldest first, while the board answers them: the presser has a
// made move. A press is never judged earlier: the lever often beats the
// scan, and the board may not show the whole move yet (a slide's last
// square, a captured piece's removal). An illegal move of the presser's
// standing on the board is completed only once the press's grace has
// passed (judgePress): an en passant capture whose captured pawn the scan
// has not reported yet looks like an illegal pawn move for a moment.
func (t *Tracker) tryPress(at time.Time, evs []game.Event) []game.Event {
	for len(t.lever.presses) > 0 {
		p := t.lever.presses[0]
		if at.Before(p.due) {
			return evs
		}
		switch {
		case t.line.firstPlyBy(p.side) > 0:
			t.lever.unpressed = 0
			evs = t.completeUpTo(p.at, t.line.firstPlyBy(p.side), &p.clock, evs)
		case t.lever.unpressed > 0 && t.lever.unpressed <= t.line.done && t.line.node(t.lever.unpressed-1).pos.Turn() == p.side:
			// The press that goes with a move already completed without it
			// (a move that ended the game, or the player's next move came
			// first).
			t.lever.unpressed = 0
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
	if force {
		t.lever.presses[0].due = at
	}
	evs = t.tryPress(at, evs)
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

// pressScanned looks at the board once the scan that followed the oldest
// pending press has reported every square (at, its due time): the
// presser's hand was done before the press, so what the board shows of
// his move is final. When nothing was reported since the press, the board
// is judged as a settled one. Otherwise the opponent may already be
// moving (a fast reply): the presser's move is made, and completed by the
// press, only when exactly one of his legal moves shows on the board with
// nothing else changed but by the opponent's hand; else the board is
// judged when it settles, as any.
func (t *Tracker) pressScanned(at time.Time, evs []game.Event) []game.Event {
	p := &t.lever.presses[0]
	p.scanned = true
	if !t.board.lastChange.After(p.at) {
		evs = t.evaluate(at, t.opts.MaxDepth, evs)
		if len(t.lever.presses) == 0 || t.lever.presses[0].at != p.at {
			return evs // answered
		}
		p = &t.lever.presses[0]
	}
	top := t.line.top()
	if t.line.firstPlyBy(p.side) > 0 || top.pos.Turn() != p.side || t.state.phase == ended {
		return evs
	}
	top.expand(&t.srch.scratch)
	found := -1
	for i := range top.kids {
		if kp := top.kidPlace(i); shownWithReply(&t.board.sensed, &top.place, &kp, top.kids[i].m.To, p.side) {
			if found >= 0 {
				return evs // two moves fit: wait for the board to settle
			}
			found = i
		}
	}
	if found < 0 {
		return evs
	}
	c := top.child(found)
	if c == nil {
		return evs
	}
	evs = t.resolved(at, evs)
	evs = t.appendMoves(at, len(t.line.hist)-1, path{moves: []rules.Move{top.kids[found].m}, nodes: []*node{c}}, false, false, evs)
	evs = t.tryPress(at, evs)
	if t.board.sensed != t.line.top().place {
		evs = t.unexplain(at, evs) // the opponent's hand, at work
	}
	return evs
}

// shownWithReply reports whether placement p shows the move that turned
// before into after (made by mover, to square to), with nothing else
// changed but by the opponent's hand: no piece of the mover's appeared
// elsewhere, and the moved piece may already be gone from to (the
// opponent taking it: his capture, begun with the captured piece, can
// come before any scan saw it land) as long as to shows a change.
func shownWithReply(p, before, after *rules.Placement, to rules.Square, mover rules.Color) bool {
	n := p.Geo.Size()
	for i := 0; i < n; i++ {
		switch {
		case p.Sq[i] == after.Sq[i]:
		case after.Sq[i] != before.Sq[i]:
			taken := rules.Square(i) == to && p.Sq[i] != before.Sq[i] && (p.Sq[i].IsEmpty() || p.Sq[i].Color != mover)
			if !taken {
				return false // a square of the move does not show it
			}
		case !p.Sq[i].IsEmpty() && p.Sq[i].Color == mover:
			return false // a piece of the mover where the move puts none
		}
	}
	return true
}
