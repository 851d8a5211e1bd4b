package board

import (
	"github.com/dgtbridge/dgtbridge/rules"
)

// node is a position with its placement and, once expanded, its legal
// moves and the placements they lead to (the tracker's cache: a record
// position is expanded once, however often the board is judged).
type node struct {
	pos      rules.Position
	place    rules.Placement
	kids     []kid
	expanded bool
}

// kid is one legal move out of a node.
type kid struct {
	m     rules.Move
	place rules.Placement
	next  *node // the position after m, made on demand
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
	turn := n.pos.Turn()
	for i, m := range *scratch {
		n.kids[i] = kid{m: m, place: applyPlacement(&n.place, turn, m)}
	}
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
	case m.Flags&rules.FlagRemove != 0:
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

// maxChange is the most squares one move changes (castling: 4).
const maxChange = 4

// path is a sequence of legal moves with the nodes they pass through.
type path struct {
	moves []rules.Move
	nodes []*node // nodes[i] is the position after moves[i]
}

// find searches for the shortest legal sequences (1…depth plies) from n to
// target. It returns the first one found and whether another sequence of
// the same length also fits (an ambiguity the arbiter should hear of).
func (t *Tracker) find(n *node, target *rules.Placement, depth int) (best path, ambiguous bool) {
	for d := 1; d <= depth; d++ {
		var found []path
		t.walk(n, target, d, path{}, &found)
		if len(found) > 0 {
			return found[0], len(found) > 1
		}
	}
	return path{}, false
}

// walk collects (up to two) sequences of exactly d plies from n to target.
func (t *Tracker) walk(n *node, target *rules.Placement, d int, pre path, found *[]path) {
	n.expand(&t.scratch)
	for i := range n.kids {
		if len(*found) >= 2 {
			return
		}
		k := &n.kids[i]
		if d == 1 {
			if k.place != *target {
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
		if !diffAtMost(&k.place, target, maxChange*(d-1)) {
			continue
		}
		c := n.child(i)
		if c == nil {
			continue
		}
		t.walk(c, target, d-1, path{moves: append(pre.moves, k.m), nodes: append(pre.nodes, c)}, found)
	}
}
