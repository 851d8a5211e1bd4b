package xiangqi

import (
	"sort"

	"github.com/dgtbridge/dgtbridge/rules"
)

// Perft returns the number of leaf nodes of the legal move tree of the
// given depth (depth 0 is 1). The last ply is counted in bulk, not played.
func (p *Position) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	stack := make([]Position, depth)
	return p.perft(depth, stack)
}

func (p *Position) perft(depth int, stack []Position) uint64 {
	if depth == 1 {
		return uint64(p.countLegal())
	}
	var l moveList
	p.genLegal(&l)
	var n uint64
	q := &stack[0]
	for i := 0; i < l.n; i++ {
		*q = *p
		q.doMove(l.m[i])
		n += q.perft(depth-1, stack[1:])
	}
	return n
}

// DivideEntry is one root move of Divide with its subtree's leaf count.
type DivideEntry struct {
	Move  rules.Move
	UCI   string // ICCS, ranks 0–9
	Nodes uint64
}

// Divide returns, for every legal move, the perft count of depth-1 below
// it, sorted by ICCS text.
func (p *Position) Divide(depth int) []DivideEntry {
	var l moveList
	p.genLegal(&l)
	out := make([]DivideEntry, 0, l.n)
	for i := 0; i < l.n; i++ {
		m := p.toRules(l.m[i])
		q := *p
		q.doMove(l.m[i])
		out = append(out, DivideEntry{Move: m, UCI: p.UCI(m), Nodes: q.Perft(depth - 1)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].UCI < out[j].UCI })
	return out
}
