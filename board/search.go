package board

import (
	"slices"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// searcher is the scratch of the searches over legal sequences.
type searcher struct {
	scratch []rules.Move
	diffBuf []rules.Square
	changed [rules.MaxSquares]bool // squares that differ, during a search
	root    *rules.Placement       // the placement a search starts from
	// deep: the search explains a full read after the board was not heard
	// (deeper sequences, pieces coming back to their squares).
	deep bool
	// fit: the walk keeps only sequences whose lifts fit their order (a
	// drop board looking past a sole line the hands contradict).
	fit bool
	// fed: a search from a position with pockets fed (fedFallback).
	fed bool
}

// node is a position with its placement and, once expanded, its legal
// moves and the placements they lead to (the tracker's cache: a record
// position is expanded once, however often the board is judged).
type node struct {
	pos      rules.Position
	place    rules.Placement
	kids     []kid
	expanded bool
}

// kid is one legal move out of a node. Its placement is not kept (a
// placement is 196 bytes, a node ~30 kids, a tracker ~15 expanded nodes:
// it was 41 % of the daemon's heap at 2,000 boards): node.kidPlace makes
// it from the node's own when asked for.
type kid struct {
	m    rules.Move
	next *node // the position after m, made on demand
}

func newNode(pos rules.Position) *node {
	return &node{pos: pos, place: pos.Placement()}
}

// expand fills the legal moves and their placements once.
func (n *node) expand(scratch *[]rules.Move) {
	if n.expanded {
		return
	}
	n.expanded = true
	*scratch = n.pos.LegalMoves((*scratch)[:0])
	n.kids = make([]kid, len(*scratch))
	for i, m := range *scratch {
		n.kids[i] = kid{m: m}
	}
}

// kidPlace returns the placement after kid i of the expanded node n.
func (n *node) kidPlace(i int) rules.Placement {
	if c := n.kids[i].next; c != nil {
		return c.place
	}
	return applyPlacement(&n.place, n.pos.Turn(), n.kids[i].m)
}

// leadsTo reports whether kid i of the expanded node n leads to
// placement p.
func (n *node) leadsTo(i int, p *rules.Placement) bool {
	if c := n.kids[i].next; c != nil {
		return c.place == *p
	}
	pl := applyPlacement(&n.place, n.pos.Turn(), n.kids[i].m)
	return pl == *p
}

// forget drops the legal moves and the nodes after them; expand makes
// them again when needed.
func (n *node) forget() {
	n.kids, n.expanded = nil, false
}

// child returns the node after kid i.
func (n *node) child(i int) *node {
	k := &n.kids[i]
	if k.next == nil {
		pos, err := n.pos.Play(k.m)
		if err != nil {
			// A legal move the engine refuses to play is an engine bug; the
			// placement is still the best account of the board.
			return nil
		}
		k.next = newNode(pos)
	}
	return k.next
}

// applyPlacement returns the placement after the legal move m by side
// turn, without playing it: ordinary moves, captures, promotions, en
// passant, castling written king-takes-rook (chess and Chess960: king to
// the c- or g-file, rook to the d- or f-file) and drops.
func applyPlacement(p *rules.Placement, turn rules.Color, m rules.Move) rules.Placement {
	q := *p
	switch {
	case m.IsRemove():
		q.Sq[m.From] = rules.Piece{}
	case m.IsDrop():
		q.Sq[m.To] = rules.Piece{Color: turn, Kind: m.Drop}
	case m.IsCastle():
		g := p.Geo
		king, rook := p.Sq[m.From], p.Sq[m.To]
		r := g.Rank(m.From)
		kf, rf := 2, 3
		if g.File(m.To) > g.File(m.From) {
			kf, rf = g.Files-2, g.Files-3
		}
		q.Sq[m.From] = rules.Piece{}
		q.Sq[m.To] = rules.Piece{}
		q.Sq[g.Square(kf, r)] = king
		q.Sq[g.Square(rf, r)] = rook
	default:
		pc := p.Sq[m.From]
		if m.Flags&rules.FlagEnPassant != 0 {
			g := p.Geo
			q.Sq[g.Square(g.File(m.To), g.Rank(m.From))] = rules.Piece{}
		}
		if m.Promo != rules.NoKind {
			pc.Kind = m.Promo
		}
		q.Sq[m.From] = rules.Piece{}
		q.Sq[m.To] = pc
	}
	return q
}

// diffAtMost reports whether p and q differ on at most limit squares.
func diffAtMost(p, q *rules.Placement, limit int) bool {
	n := p.Geo.Size()
	d := 0
	for i := 0; i < n; i++ {
		if p.Sq[i] != q.Sq[i] {
			d++
			if d > limit {
				return false
			}
		}
	}
	return true
}

// maxFound bounds the sequences collected at one depth.
const maxFound = 8

// liftOrderFits reports whether the moves' pieces were first lifted in
// the order of the moves, a drop's piece first put on its square (a move
// whose origin was not seen lifted fits anywhere).
func (t *Tracker) liftOrderFits(moves []rules.Move) bool {
	var last time.Time
	for _, m := range moves {
		at, seen := time.Time{}, false
		for _, tc := range t.turn.touches {
			if tc.Lift && (tc.Square == m.From || (m.IsCastle() && tc.Square == m.To)) ||
				m.IsDrop() && !tc.Lift && tc.Square == m.To && tc.Piece.Kind == m.Drop {
				// A drop's hand shows when its piece is put down.
				at, seen = tc.At, true
				break
			}
		}
		if !seen {
			continue
		}
		if at.Before(last) {
			return false
		}
		last = at
	}
	return true
}

// pathSeen reports whether the sensors saw every move of p: its piece
// put on the move's destination (castling counts as seen; a drop's piece
// must have been seen where it was put, so that a piece taken at once is
// still told from the pocket's other kinds).
func (t *Tracker) pathSeen(p path) bool {
	for i, m := range p.moves {
		if m.IsCastle() {
			continue
		}
		pc := p.nodes[i].place.Sq[m.To]
		ok := false
		for _, tc := range t.turn.touches {
			if !tc.Lift && tc.Square == m.To && tc.Piece == pc {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// pathTouched reports whether the sensors reported a change on every
// move's destination of p this turn (castling and drops count as
// touched).
func (t *Tracker) pathTouched(p path) bool {
	for _, m := range p.moves {
		if m.IsCastle() || m.IsDrop() {
			continue
		}
		ok := false
		for _, tc := range t.turn.touches {
			if tc.Square == m.To {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// maxChange is the most squares one move changes (castling: 4).
const maxChange = 4

// path is a sequence of legal moves with the nodes they pass through.
type path struct {
	moves []rules.Move
	nodes []*node // nodes[i] is the position after moves[i]
	// returned: one move of the path leaves a square that the target
	// shows as it was (the piece, or one like it, comes back later).
	returned bool
}

// find searches for the shortest legal sequences (1…depth plies) from n to
// target. It returns the first one found and whether another sequence of
// the same length also fits (an ambiguity the arbiter should hear of).
//
// On a drop board, a sole sequence whose pieces were lifted in another
// order than its moves, while as many presses wait as it has plies or
// more (the last move's press may not be heard yet), gives
// way to a longer one whose lifts fit (a piece dropped and taken before
// any scan saw it, then another move: the board shows two pieces moved,
// the lifts and presses three plies), one ply deeper than depth if need
// be (such a drop in a burst of moves as deep as depth).
func (t *Tracker) find(n *node, target *rules.Placement, depth int) (best path, ambiguous bool) {
	diff := t.searchFrom(n, target)
	var fallback []path
	defer func() {
		if len(best.moves) == 0 && len(fallback) > 0 {
			best, ambiguous = fallback[0], len(fallback) > 1
			if fp := t.fedFallback(n, target, depth, len(best.moves)); len(fp.moves) > 0 {
				best = fp
			}
		}
	}()
	for d := 1; d <= depth || d == depth+1 && len(fallback) > 0; d++ {
		if d >= 3 && diff < d+1 && !t.srch.deep && !(t.opts.Drops && diff >= d && len(t.lever.presses) >= d-1) {
			// Three plies or more leave at least four squares changed in
			// any real game; fewer is a hand in the middle of a move, and
			// searching deeper for it is expensive and pointless. With
			// drops, one square fewer once the presses say the hands
			// made that many moves: a piece dropped and taken at once,
			// and taken back, changes one square per ply.
			break
		}
		var found []path
		t.srch.fit = len(fallback) > 0
		t.walk(n, target, d, path{}, &found)
		t.srch.fit = false
		if len(fallback) > 0 {
			found = slices.DeleteFunc(found, func(p path) bool { return !t.liftOrderFits(p.moves) })
		}
		switch len(found) {
		case 0:
			continue
		case 1:
			if len(fallback) == 0 && t.opts.Drops && len(t.lever.presses) >= d && !t.liftOrderFits(found[0].moves) {
				fallback = found
				continue
			}
			return found[0], false
		}
		// Several orders of the same moves (transpositions) or different
		// moves: the order of the lifts decides when it can.
		var ok []path
		for _, p := range found {
			if t.liftOrderFits(p.moves) {
				ok = append(ok, p)
			}
		}
		if len(ok) == 0 && len(fallback) == 0 && t.opts.Drops && len(t.lever.presses) >= d {
			// Every line of d plies is one the hands contradict, while the
			// presses say as many moves or more: a longer one may fit.
			fallback = found
			continue
		}
		if t.opts.Drops && len(ok) > 1 {
			ok = t.seenDrops(ok)
		}
		if len(ok) == 1 {
			return ok[0], false
		}
		// Then the squares the sensors saw the pieces pass through.
		var seen []path
		for _, p := range ok {
			if t.pathSeen(p) {
				seen = append(seen, p)
			}
		}
		if len(seen) == 1 {
			return seen[0], false
		}
		// Then the squares the hands touched: a move lands on, or takes
		// on, a square whose change the sensors reported (Qxc6 bxc6 and
		// Qxa6 bxa6 leave the same placement; only c6 was touched).
		pool := seen
		if len(pool) == 0 {
			pool = ok
		}
		var touched []path
		for _, p := range pool {
			if t.pathTouched(p) {
				touched = append(touched, p)
			}
		}
		if len(touched) == 1 {
			return touched[0], false
		}
		switch {
		case len(seen) > 1:
			return seen[0], true
		case len(ok) > 0:
			// None was seen all the way (a drop taken before any scan
			// saw it): the order of the lifts still rules out some.
			return ok[0], true
		}
		return found[0], true
	}
	return path{}, false
}

// searchFrom prepares a walk from n to target (the squares that differ,
// the root placement) and returns how many squares differ.
func (t *Tracker) searchFrom(n *node, target *rules.Placement) int {
	t.srch.diffBuf = target.Diff(&n.place, t.srch.diffBuf[:0])
	t.srch.changed = [rules.MaxSquares]bool{}
	for _, s := range t.srch.diffBuf {
		t.srch.changed[s] = true
	}
	t.srch.root = &n.place
	return len(t.srch.diffBuf)
}

// walk collects (up to two) sequences of exactly d plies from n to target.
func (t *Tracker) walk(n *node, target *rules.Placement, d int, pre path, found *[]path) {
	n.expand(&t.srch.scratch)
	for i := range n.kids {
		if len(*found) >= maxFound {
			return
		}
		k := &n.kids[i]
		if t.srch.fit && !t.liftOrderFits(append(pre.moves[:len(pre.moves):len(pre.moves)], k.m)) {
			// The hands lifted this move's piece before an earlier one's.
			continue
		}
		if d == 1 {
			if !n.leadsTo(i, target) {
				continue
			}
			c := n.child(i)
			if c == nil {
				continue
			}
			*found = append(*found, path{
				moves: append(append([]rules.Move(nil), pre.moves...), k.m),
				nodes: append(append([]*node(nil), pre.nodes...), c),
			})
			continue
		}
		// Every move of a burst starts on a square that changed, or on one
		// an earlier move of the sequence reached (a piece moving twice).
		// A piece leaving a square that something like it comes back to
		// (a queen capturing and going back) needs two more plies at
		// least; it is searched only when catching up after a full read,
		// and once per sequence, which keeps the search small (during
		// play the next settled read shows the trail instead).
		returned := pre.returned
		if k.m.IsDrop() && !t.srch.changed[k.m.To] {
			// A drop before the last ply puts its piece on a square that
			// differs at the end (it stands there, or what took it does).
			continue
		}
		if !k.m.IsDrop() && !t.srch.changed[k.m.From] && !(k.m.IsCastle() && t.srch.changed[k.m.To]) &&
			n.place.Sq[k.m.From] == t.srch.root.Sq[k.m.From] && !(k.m.IsCastle() && n.place.Sq[k.m.To] != t.srch.root.Sq[k.m.To]) {
			if !t.srch.deep || d < 3 || returned {
				continue
			}
			returned = true
		}
		if kp := n.kidPlace(i); !diffAtMost(&kp, target, maxChange*(d-1)) {
			continue
		}
		c := n.child(i)
		if c == nil {
			continue
		}
		t.walk(c, target, d-1, path{moves: append(pre.moves, k.m), nodes: append(pre.nodes, c), returned: returned}, found)
	}
}
