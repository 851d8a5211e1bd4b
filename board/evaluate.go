package board

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// maxTakeback bounds how far back a takeback of completed moves is looked
// for (an earlier position further back is more likely a repetition or a
// new game than a takeback).
const maxTakeback = 10

// evaluate judges the settled placement at time at, searching up to depth
// plies for moves.
func (t *Tracker) evaluate(at time.Time, depth int, evs []game.Event) []game.Event {
	if t.afterDump {
		// Catching up after a reconnect: deeper, and pieces that came
		// back to their squares, until the board is explained.
		depth = max(depth, t.opts.CatchUpDepth)
		t.catchUp = true
		evs = t.judge(at, depth, evs)
		t.catchUp = false
		if !t.unexplained && !t.dirty {
			t.afterDump = false
		}
		return evs
	}
	return t.judge(at, depth, evs)
}

// judge is evaluate's body: the settled placement judged at time at,
// searching up to depth plies.
func (t *Tracker) judge(at time.Time, depth int, evs []game.Event) []game.Event {
	t.dirty = false
	t.stableSince = at
	// Each pending press is a ply the hands finished: search that deep.
	if n := len(t.presses) + 1; n > depth {
		depth = min(n, max(t.opts.CatchUpDepth, t.opts.MaxDepth))
	}
	p := &t.sensed
	if t.over {
		return t.evaluateOver(at, evs)
	}
	top := t.top()
	if *p == top.place {
		if n := len(t.chain); n > 0 && t.chain[n-1].place == *p && len(t.presses) >= n-1 {
			// Moves that went round in a circle (a repetition made in a
			// burst), each press one of them.
			pth := path{moves: append([]rules.Move(nil), t.chainMoves...), nodes: append([]*node(nil), t.chain...)}
			evs = t.resolved(at, evs)
			evs = t.appendMoves(len(t.hist)-1, pth, false, false, evs)
			return t.tryPress(evs)
		}
		t.clearChain()
		evs = t.resolved(at, evs)
		return t.tryPress(evs)
	}
	// An illegal move still standing on the board: nothing new.
	if t.illegal != nil && *p == t.illegal.place {
		return t.tryPress(evs)
	}
	// Moves from the last position (fast replies included), following the
	// trail of positions the board showed on the way.
	// The explanation whose length fits the lever presses not yet judged
	// wins (each press is a ply the hands finished), else the shorter one
	// (a slide resting on a legal square leaves a trail one ply longer);
	// on a tie the trail, which the sensors saw, wins.
	chained, chainAmb := t.findViaChain(min(depth, 2))
	if len(chained.moves) == 0 && len(t.chain) > 0 && t.liftedFrom(t.chain[len(t.chain)-1]) {
		// The board showed a position a few moves on and now only has
		// pieces lifted off it: a hand in the air, not a different game.
		if !t.unexplained {
			t.unexplained = true
			t.unexplSince = t.lastChange
			t.unexplReport = false
		}
		return evs
	}
	direct, directAmb := t.find(top, p, depth)
	if len(chained.moves) > 0 && (len(direct.moves) == 0 || t.plyFit(len(chained.moves)) <= t.plyFit(len(direct.moves))) {
		direct, directAmb = chained, chainAmb
	}
	if pth, amb := direct, directAmb; len(pth.moves) > 0 {
		evs = t.resolved(at, evs)
		evs = t.appendMoves(len(t.hist)-1, pth, amb, false, evs)
		return t.tryPress(evs)
	}
	// Moves made but not completed, taken back or replaced.
	for base := len(t.hist) - 2; base >= t.done; base-- {
		n := t.hist[base]
		if *p == n.place {
			evs = t.resolved(at, evs)
			evs = t.retract(at, base, evs)
			return t.tryPress(evs)
		}
		if pth, amb := t.find(n, p, depth); len(pth.moves) > 0 {
			old := t.moves[base]
			rest := t.restTime(base)
			evs = t.resolved(at, evs)
			evs = t.retract(at, base, evs)
			evs = t.appendMoves(base, pth, amb, true, evs)
			if rest >= t.opts.RestFor {
				evs = t.restedElsewhere(base, old, pth.moves[0], evs)
			}
			return t.tryPress(evs)
		}
	}
	// The opponent carries on after a completed illegal move that stands.
	if il := t.illegal; il != nil && il.completed && il.pos != nil && t.opts.IllegalStands {
		n := newNode(il.pos)
		if pth, amb := t.find(n, p, depth); len(pth.moves) > 0 {
			evs = t.standIllegal(at, il, n, evs)
			evs = t.resolved(at, evs)
			evs = t.appendMoves(len(t.hist)-1, pth, amb, false, evs)
			return t.tryPress(evs)
		}
	}
	// A takeback of completed moves.
	for k := t.done - 1; k >= 0 && k >= t.done-maxTakeback; k-- {
		if *p == t.hist[k].place {
			evs = t.resolved(at, evs)
			evs = t.retract(at, k, evs)
			return t.tryPress(evs)
		}
	}
	// A board turned around.
	if t.opts.AutoOrientation {
		if ev, ok := t.tryRotation(at, depth, evs); ok {
			return ev
		}
	}
	if ev, ok := t.trySetup(at, evs); ok {
		return ev
	}
	if ev, ok := t.tryGesture(at, evs); ok {
		return ev
	}
	if il := t.classify(at); il != nil {
		// Reported once completed, or once it has stood Options.HoldAfter
		// (a hand in the middle of en passant or a capture looks the same
		// for a moment).
		t.unexplained = false
		t.illegal = il
		return t.tryPress(evs)
	}
	if !t.unexplained {
		t.unexplained = true
		t.unexplSince = t.lastChange
		t.unexplReport = false
	}
	return evs
}

// liftedFrom reports whether the sensed placement is n's with some pieces
// lifted off (and nothing else changed).
func (t *Tracker) liftedFrom(n *node) bool {
	size := t.geo.Size()
	for i := 0; i < size; i++ {
		if t.sensed.Sq[i] != n.place.Sq[i] && !t.sensed.Sq[i].IsEmpty() {
			return false
		}
	}
	return true
}

// clearChain forgets the trail of fast moves (the record changed).
func (t *Tracker) clearChain() {
	t.chain, t.chainMoves = t.chain[:0], t.chainMoves[:0]
}

// plyFit scores an explanation of n plies: its distance from the number
// of pending presses, or n itself without presses (lower is better).
func (t *Tracker) plyFit(n int) int {
	if p := len(t.presses); p > 0 {
		if n > p {
			return n - p
		}
		return p - n
	}
	return n
}

// resolved is called when the board is explained again: it ends a hold and
// clears an illegal move taken back.
func (t *Tracker) resolved(at time.Time, evs []game.Event) []game.Event {
	if t.unexplained {
		t.unexplained = false
		if t.unexplReport {
			evs = append(evs, game.Explained{Stamp: game.Stamp{At: at}})
		}
		t.unexplReport = false
	}
	t.displacedSent = false
	if il := t.illegal; il != nil {
		t.illegal = nil
		if il.completed {
			evs = append(evs, game.Correction{At: game.T(at), Ply: t.done, Reason: game.Reinstatement, Position: t.hist[t.done].pos})
		}
	}
	return evs
}

// appendMoves makes the moves of pth after ply base (== len(hist)-1).
// replaced says the moves replace moves just retracted.
func (t *Tracker) appendMoves(base int, pth path, amb bool, replaced bool, evs []game.Event) []game.Event {
	t.clearChain()
	made := t.lastChange
	if amb {
		var other path
		// Re-run to report the alternative: find returned the first of two.
		var found []path
		t.searchFrom(t.hist[base], &t.sensed)
		t.walk(t.hist[base], &t.sensed, len(pth.moves), path{}, &found)
		if len(found) > 1 {
			other = found[1]
		}
		evs = append(evs, game.Ambiguous{Stamp: game.Stamp{At: made}, Ply: base + 1, Chosen: pth.moves, Other: other.moves})
	}
	for i, m := range pth.moves {
		prev := t.hist[len(t.hist)-1]
		next := pth.nodes[i]
		ply := len(t.hist)
		if len(pth.moves) == 1 {
			ts, tt := t.turn.touches, t.turn.touched
			if replaced {
				ts, tt = t.turn.merged()
			}
			evs = t.touchMove(tmInput{at: made, ply: ply, x: prev, m: m, touches: ts, touched: tt}, evs)
		}
		t.hist = append(t.hist, next)
		t.moves = append(t.moves, m)
		t.madeAt = append(t.madeAt, made)
		t.illeg = append(t.illeg, false)
		evs = append(evs, game.MoveMade{Stamp: game.Stamp{At: made}, Ply: ply, Side: prev.pos.Turn(), Move: m,
			SAN: prev.pos.SAN(m), UCI: prev.pos.UCI(m), Position: next.pos})
		evs = t.tryPress(evs) // presses made during the burst, in order
		switch {
		case t.opts.Completion == Release || next.pos.Status() != rules.Ongoing:
			evs = t.completeUpTo(made, ply, t.clock, evs)
			t.unpressed = ply
		case ply-2 > t.done:
			// FIDE 2018 6.2.1.2: the player made his next move.
			evs = t.completeUpTo(made, ply-2, nil, evs)
			t.unpressed = ply - 2
		}
		t.turn.reset(next.pos.Turn())
	}
	return evs
}

// completeUpTo completes the made plies up to ply.
func (t *Tracker) completeUpTo(at time.Time, ply int, clk *game.ClockReading, evs []game.Event) []game.Event {
	for t.done < ply && t.done < len(t.moves) {
		i := t.done
		t.done++
		var c *game.ClockReading
		if clk != nil {
			cc := *clk
			c = &cc
		}
		made := t.madeAt[i]
		if made.After(at) {
			made = at // the scan lagged behind the lever
		}
		prev := t.hist[i].pos
		evs = append(evs, game.MoveCompleted{Stamp: game.Stamp{At: at}, Ply: i + 1, Side: prev.Turn(), Move: t.moves[i],
			SAN: t.san(prev, t.moves[i], t.illeg[i]), UCI: prev.UCI(t.moves[i]), Position: t.hist[i+1].pos,
			MadeAt: made, Clock: c, Illegal: t.illeg[i], ClockLost: t.clockLost})
	}
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
	if base >= len(t.hist)-1 {
		return evs
	}
	pos := t.hist[base].pos
	t.clearChain()
	if base < t.done {
		t.done = base
		evs = append(evs, game.Correction{At: game.T(at), Ply: base, Reason: game.Takeback, Position: pos})
	} else {
		evs = append(evs, game.MoveRetracted{Stamp: game.Stamp{At: at}, Ply: base, Position: pos})
	}
	t.hist = t.hist[:base+1]
	t.moves = t.moves[:base]
	t.madeAt = t.madeAt[:base]
	t.illeg = t.illeg[:base]
	return evs
}

// restTime returns how long the board stood still after ply base+1 was
// made: until the first touch that followed.
func (t *Tracker) restTime(base int) time.Duration {
	made := t.madeAt[base]
	for _, tc := range t.turn.touches {
		if tc.At.After(made) {
			return tc.At.Sub(made)
		}
	}
	return t.lastChange.Sub(made)
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
	x := t.hist[base]
	c, msg := game.Likely, "a move was made and released on a legal square, then replaced"
	if old.From == now.From {
		c, msg = game.Possible, "the piece rested on a legal square and moved on (or slid slowly)"
	}
	return append(evs, game.TouchEvidence{
		Stamp: game.Stamp{At: t.lastChange}, Ply: base + 1, Side: x.pos.Turn(), Rule: "TM-8", Article: "4.7",
		Certainty: c, Message: msg + ": " + x.pos.SAN(old) + " then " + x.pos.SAN(now),
		Touched: []rules.Square{old.From}, Made: now, Evidence: append([]game.Touch(nil), t.turn.prev...),
	})
}

// standIllegal enters a completed illegal move into the record (it stands:
// FIDE 2018 A.4.2/B.4, or the arbiter accepted it).
func (t *Tracker) standIllegal(at time.Time, il *pendingIllegal, n *node, evs []game.Event) []game.Event {
	t.illegal = nil
	t.clearChain()
	prev := t.top().pos
	ply := len(t.hist)
	t.hist = append(t.hist, n)
	t.moves = append(t.moves, il.ev.Attempt)
	t.madeAt = append(t.madeAt, il.ev.At)
	t.illeg = append(t.illeg, true)
	_ = prev
	evs = t.completeUpTo(at, ply, il.clock, evs)
	t.turn.reset(n.pos.Turn())
	return evs
}
