package board

import (
	"github.com/dgtbridge/dgtbridge/rules"
)

// trail is the positions the board showed for a moment since the last
// judgement, each one legal move after the one before, starting at the
// record's last position: the trail of a burst of fast moves (nodes[i] is
// the position after moves[i]).
type trail struct {
	nodes []*node
	moves []rules.Move
}

// clear forgets the trail (the record changed).
func (tr *trail) clear() { tr.nodes, tr.moves = tr.nodes[:0], tr.moves[:0] }

// maxTrail bounds the trail of fast moves followed between judgements.
const maxTrail = 12

// follow notes the sensed placement when it is exactly one legal move
// after the trail's tip (or back on a position of the trail). It costs a
// comparison per legal move; the placements are cached per position.
func (t *Tracker) follow() {
	p := &t.board.sensed
	tip := t.line.top()
	if len(t.trail.nodes) > 0 {
		tip = t.trail.nodes[len(t.trail.nodes)-1]
	}
	// One more legal move from the tip (first: moves that go round in a
	// circle come back to earlier placements).
	if len(t.trail.nodes) < maxTrail {
		tip.expand(&t.srch.scratch)
		for i := range tip.kids {
			if !tip.leadsTo(i, p) {
				continue
			}
			if c := tip.child(i); c != nil {
				t.trail.nodes = append(t.trail.nodes, c)
				t.trail.moves = append(t.trail.moves, tip.kids[i].m)
				t.trailExplains()
			}
			return
		}
	}
	if *p == t.line.top().place {
		t.trail.clear() // everything taken back
		return
	}
	for j := len(t.trail.nodes) - 1; j >= 0; j-- {
		if t.trail.nodes[j].place == *p {
			t.trail.nodes, t.trail.moves = t.trail.nodes[:j+1], t.trail.moves[:j+1]
			return
		}
	}
	// The last move of the trail replaced by another one of the same side
	// (a slide that went on from a square it touched; a full trail too:
	// the replacement does not lengthen it).
	if len(t.trail.nodes) > 0 {
		parent := t.line.top()
		if len(t.trail.nodes) > 1 {
			parent = t.trail.nodes[len(t.trail.nodes)-2]
		}
		parent.expand(&t.srch.scratch)
		for i := range parent.kids {
			if !parent.leadsTo(i, p) {
				continue
			}
			if c := parent.child(i); c != nil {
				t.trail.nodes[len(t.trail.nodes)-1] = c
				t.trail.moves[len(t.trail.moves)-1] = parent.kids[i].m
			}
			return
		}
	}
	if len(t.trail.nodes) >= maxTrail {
		return
	}
	// Two or three plies at once (the scan saw the next hand before the
	// last move's last square): at least three squares differ.
	if diffAtMost(&tip.place, p, 2) {
		return
	}
	pth, amb := t.find(tip, p, 3)
	keep := len(t.trail.nodes) // the trail's moves kept before pth
	if k := keep; k > 0 && len(pth.moves) >= 2 && !amb {
		// The trail's last move may have been a rest of a slide that went
		// on, the next hand with it: from the position before it, fewer
		// plies (Rh8–h2 Rxh2 b5 for Rh6 Rxh6 b5 Rh2) may lead there.
		parent := t.line.top()
		if k > 1 {
			parent = t.trail.nodes[k-2]
		}
		if alt, altAmb := t.find(parent, p, 3); len(alt.moves) >= 2 && !altAmb && len(alt.moves) <= len(pth.moves) {
			pth, keep = alt, k-1
		}
	}
	if len(pth.moves) >= 2 && !amb && t.trailRoom(keep-len(t.trail.nodes)+len(pth.moves)) {
		t.trail.nodes = append(t.trail.nodes[:keep], pth.nodes...)
		t.trail.moves = append(t.trail.moves[:keep], pth.moves...)
	}
}

// trailRoom reports whether the trail may take n plies more at once: on
// a board whose clock presses complete the moves, the plies made since
// the record's last completed one stay within the presses heard and one
// (the last move, its press to come). A reply is made after its
// opponent's press: plies beyond that are a hand's rests read as moves (a
// rook resting on h3 on its way to take a queen on h4, lifted first, read
// as the queen moving to h3 and taken there). The board is judged when it
// settles instead.
func (t *Tracker) trailRoom(n int) bool {
	if !t.pressed() {
		return true
	}
	plies := len(t.line.hist) - 1 - t.line.done + len(t.trail.moves) + n
	return plies <= len(t.lever.presses)+1
}

// trailExplains notes that a legal move of the trail explains the board
// now: an unexplained episode not yet reported (pieces were in the air a
// moment, e.g. a piece held longer than the settle window) counts its
// HoldAfter from here, so a burst of fast replies, each explained as it
// lands, is not reported as an unexplained board.
func (t *Tracker) trailExplains() {
	if t.state.phase == unexplained {
		t.state.since = t.board.lastChange
	}
}

// findViaTrail explains the sensed placement from the trail of fast
// moves: the deepest trail position from which it is reached (exactly, or
// by up to depth more plies) wins.
func (t *Tracker) findViaTrail(depth int) (path, bool) {
	p := &t.board.sensed
	for j := len(t.trail.nodes) - 1; j >= 0; j-- {
		pre := path{moves: append([]rules.Move(nil), t.trail.moves[:j+1]...), nodes: append([]*node(nil), t.trail.nodes[:j+1]...)}
		if t.trail.nodes[j].place == *p {
			return pre, false
		}
		if rest, amb := t.find(t.trail.nodes[j], p, depth); len(rest.moves) > 0 {
			pre.moves = append(pre.moves, rest.moves...)
			pre.nodes = append(pre.nodes, rest.nodes...)
			return pre, amb
		}
	}
	return path{}, false
}
