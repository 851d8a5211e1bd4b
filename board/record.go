package board

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// The record's changes: moves made, completed, retracted, taken back, an
// illegal move that stands.

// appendMoves makes the moves of pth after ply base (== the last made
// ply), judged at time at. amb says another sequence of the same length
// fits too; replaced says the moves replace moves just retracted.
func (t *Tracker) appendMoves(at time.Time, base int, pth path, amb bool, replaced bool, evs []game.Event) []game.Event {
	t.trail.clear()
	made := t.board.lastChange
	switch {
	case amb:
		evs = append(evs, game.Ambiguous{Stamp: game.Stamp{At: made}, Ply: base + 1, Chosen: pth.moves, Other: t.alternative(base, len(pth.moves)).moves})
	case t.opts.Drops:
		if other, ok := t.unseenDrop(base, pth); ok {
			evs = append(evs, game.Ambiguous{Stamp: game.Stamp{At: made}, Ply: base + 1, Chosen: pth.moves, Other: other})
		}
	}
	for i, m := range pth.moves {
		prev := t.line.top()
		next := pth.nodes[i]
		ply := len(t.line.hist)
		var later []game.Touch // the next turn's hand, at work since the mover's press
		if len(pth.moves) == 1 {
			later = t.nextHand(prev, next)
			ts, tt := t.turn.touches, t.turn.touched
			if replaced {
				ts, tt = t.turn.merged()
			}
			evs = t.touchMove(tmInput{at: made, ply: ply, x: prev, m: m, touches: ts, touched: tt}, evs)
		}
		t.line.push(next, m, made, false)
		evs = append(evs, game.MoveMade{Stamp: game.Stamp{At: made}, Ply: ply, Side: prev.pos.Turn(), Move: m,
			SAN: prev.pos.SAN(m), UCI: prev.pos.UCI(m), Position: next.pos})
		evs = t.tryPress(at, evs) // presses made during the burst, in order
		switch {
		case t.opts.Completion == Release || next.pos.Status() != rules.Ongoing:
			evs = t.completeUpTo(made, ply, t.clk.last, evs)
			t.lever.unpressed = ply
		case ply-2 > t.line.done:
			// FIDE 2018 6.2.1.2: the player made his next move.
			evs = t.completeUpTo(made, ply-2, nil, evs)
			t.lever.unpressed = ply - 2
		}
		t.turn.reset(next.pos.Turn())
		for _, tc := range later {
			evs = t.logTouch(tc, evs)
		}
	}
	return evs
}

// nextHand takes out of this turn's log what the opponent's hand did after
// the mover pressed the clock (a press by the mover is pending): the move
// from prev to next is read only from what the mover did.
func (t *Tracker) nextHand(prev, next *node) []game.Touch {
	mover := prev.pos.Turn()
	for _, p := range t.lever.presses {
		if p.side != mover {
			continue
		}
		mark := len(t.turn.touches) // every touch reported with the press came before it
		if p.stage.recorded() && p.at.Equal(p.answer) {
			mark = p.touches // but a polled board's record says which came after
		}
		return t.turn.cut(p.at, mark, func(sq rules.Square) bool { return prev.place.Sq[sq] != next.place.Sq[sq] })
	}
	return nil
}

// alternative returns the second of the sequences of n plies from ply base
// to the sensed placement (find returned the first of two).
func (t *Tracker) alternative(base, n int) path {
	var found []path
	t.searchFrom(t.line.node(base), &t.board.sensed)
	t.walk(t.line.node(base), &t.board.sensed, n, path{}, &found)
	if len(found) > 1 {
		return found[1]
	}
	return path{}
}

// completeUpTo completes the made plies up to ply.
func (t *Tracker) completeUpTo(at time.Time, ply int, clk *game.ClockReading, evs []game.Event) []game.Event {
	for t.line.done < ply && t.line.done < len(t.line.moves) {
		i := t.line.done
		t.line.done++
		t.heal.presses = 0
		var c *game.ClockReading
		if clk != nil {
			cc := *clk
			c = &cc
		}
		made := t.line.madeAt[i]
		if made.After(at) {
			made = at // the scan lagged behind the lever
		}
		prev := t.line.node(i).pos
		evs = append(evs, game.MoveCompleted{Stamp: game.Stamp{At: at}, Ply: i + 1, Side: prev.Turn(), Move: t.line.moves[i],
			SAN: t.san(prev, t.line.moves[i], t.line.illeg[i]), UCI: prev.UCI(t.line.moves[i]), Position: t.line.node(i + 1).pos,
			MadeAt: made, Clock: c, Illegal: t.line.illeg[i], ClockLost: t.clk.phase == clockLost})
	}
	t.line.prune()
	return evs
}

// san writes m; an illegal move that stood has no SAN, so it is written as
// coordinates.
func (t *Tracker) san(p rules.Position, m rules.Move, illegal bool) string {
	if illegal {
		return attemptText(t.geo, p.Placement(), m)
	}
	return p.SAN(m)
}

// retract takes the board back to ply base: moves made but not completed
// are retracted; completed ones are corrected (takeback).
func (t *Tracker) retract(at time.Time, base int, evs []game.Event) []game.Event {
	if base >= len(t.line.hist)-1 {
		return evs
	}
	pos := t.line.node(base).pos
	t.trail.clear()
	if base < t.line.done {
		evs = append(evs, game.Correction{At: game.T(at), Ply: base, Reason: game.Takeback, Position: pos})
	} else {
		evs = append(evs, game.MoveRetracted{Stamp: game.Stamp{At: at}, Ply: base, Position: pos})
	}
	t.line.cut(base)
	return evs
}

// restTime returns how long the board stood still after ply base+1 was
// made: until the first touch that followed.
func (t *Tracker) restTime(base int) time.Duration {
	made := t.line.madeAt[base]
	for _, tc := range t.turn.touches {
		if tc.At.After(made) {
			return tc.At.Sub(made)
		}
	}
	return t.board.lastChange.Sub(made)
}

// restedElsewhere reports TM-8 (FIDE 4.7): a move was made (the piece
// rested on a legal square) and then replaced before completion. Castling
// made in two steps (a king or rook move first) is not reported: in
// Chess960 that is a normal way to castle, and rook-first castling is
// TM-5's business.
func (t *Tracker) restedElsewhere(base int, old, now rules.Move, evs []game.Event) []game.Event {
	if now.IsCastle() && (old.From == now.From || old.From == now.To) {
		return evs
	}
	x := t.line.node(base)
	c, msg := game.Likely, "a move was made and released on a legal square, then replaced"
	if old.From == now.From {
		c, msg = game.Possible, "the piece rested on a legal square and moved on (or slid slowly)"
	}
	return append(evs, game.TouchEvidence{
		Stamp: game.Stamp{At: t.board.lastChange}, Ply: base + 1, Side: x.pos.Turn(), Rule: "TM-8", Article: "4.7",
		Certainty: c, Message: msg + ": " + x.pos.SAN(old) + " then " + x.pos.SAN(now),
		Touched: []rules.Square{old.From}, Made: now, Evidence: append([]game.Touch(nil), t.turn.prev...),
	})
}

// standIllegal enters a completed illegal move into the record (it stands:
// FIDE 2018 A.4.2/B.4, or the arbiter accepted it).
func (t *Tracker) standIllegal(at time.Time, il *pendingIllegal, n *node, evs []game.Event) []game.Event {
	t.illegal = nil
	t.trail.clear()
	ply := len(t.line.hist)
	t.line.push(n, il.ev.Attempt, il.ev.At, true)
	evs = t.completeUpTo(at, ply, il.clock, evs)
	t.turn.reset(n.pos.Turn())
	return evs
}
