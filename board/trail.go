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
	if pth, amb := t.find(tip, p, 3); len(pth.moves) >= 2 && !amb {
		t.trail.nodes = append(t.trail.nodes, pth.nodes...)
		t.trail.moves = append(t.trail.moves, pth.moves...)
	}
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
