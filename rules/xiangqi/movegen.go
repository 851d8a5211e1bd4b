package xiangqi

import "math/bits"

// mv is the engine's internal move: origin and destination points.
type mv struct{ from, to int8 }

// moveList is a fixed-size move buffer that lives on the stack.
type moveList struct {
	n int
	m [maxMoves]mv
}

func (l *moveList) add(from, to int) {
	l.m[l.n] = mv{int8(from), int8(to)}
	l.n++
}

// attacked reports whether side by attacks point s on board b: whether a
// piece of by could move to s by its movement rule (the flying-general
// rule is separate, see facing).
func attacked(b *[nPoints]uint8, s, by int) bool {
	for d := 0; d < 4; d++ {
		screens := 0
		for _, t := range rays[s][d] {
			x := b[t]
			if x == 0 {
				continue
			}
			if colorOf(x) == by {
				k := x & kindMask
				if screens == 0 && k == chariot || screens == 1 && k == cannon {
					return true
				}
			}
			screens++
			if screens == 2 {
				break
			}
		}
	}
	hs := code(by, horse)
	for _, h := range horseFrom[s] {
		if b[h.to] == hs && b[h.via] == 0 {
			return true
		}
	}
	ps := code(by, soldier)
	for _, h := range soldierFrom[by][s] {
		if b[h.to] == ps {
			return true
		}
	}
	gs := code(by, general)
	for _, h := range generalFrom[by][s] {
		if b[h.to] == gs {
			return true
		}
	}
	as := code(by, advisor)
	for _, h := range advisorFrom[by][s] {
		if b[h.to] == as {
			return true
		}
	}
	es := code(by, elephant)
	for _, h := range elephantFrom[by][s] {
		if b[h.to] == es && b[h.via] == 0 {
			return true
		}
	}
	return false
}

// facing reports whether the generals on g0 and g1 stand on one file with
// no piece between them (the flying-general rule, Art. 4.3).
func facing(b *[nPoints]uint8, g0, g1 int) bool {
	if g0 < 0 || g1 < 0 || fileOf(g0) != fileOf(g1) {
		return false
	}
	lo, hi := g0, g1
	if lo > hi {
		lo, hi = hi, lo
	}
	for t := lo + nFiles; t < hi; t += nFiles {
		if b[t] != 0 {
			return false
		}
	}
	return true
}

// safeAfter plays m on b, reports whether side us is then neither attacked
// nor facing the other general, and takes m back. Captures of a general
// are never safe (the move takes the general, rules.ReasonCapturesKing).
func safeAfter(b *[nPoints]uint8, us int, gen [2]int8, m mv) bool {
	captured := b[m.to]
	if captured&kindMask == general {
		return false
	}
	moved := b[m.from]
	b[m.to] = moved
	b[m.from] = 0
	g := int(gen[us])
	if moved&kindMask == general {
		g = int(m.to)
	}
	ok := !attacked(b, g, us^1) && !facing(b, g, int(gen[us^1]))
	b[m.from] = moved
	b[m.to] = captured
	return ok
}

// bitset is a set of points, one bit each: points 0–63 in the first word,
// 64–89 in the second.
type bitset [2]uint64

func (b *bitset) set(s int)      { b[s>>6] |= 1 << (s & 63) }
func (b *bitset) clear(s int)    { b[s>>6] &^= 1 << (s & 63) }
func (b *bitset) has(s int) bool { return b[s>>6]>>(s&63)&1 != 0 }

// guard is what a position's side to move must watch for, computed once
// per position instead of an attack test per move. Outside check, a move of a piece other than the general is legal
// unless its origin is in pinned or its destination in risky; only those
// moves, the general's moves and every move in check are tested by
// playing them (safeAfter).
//
// Why that suffices: a move changes the occupancy of at most two points,
// it empties its origin and fills its destination (a capture leaves the
// destination filled). The attacks on the own general that an occupancy
// change can open are those of chariots (and the flying general) along a
// line with one piece between, of cannons along a line with two pieces
// between (emptying one) or none between (filling one makes the screen),
// and of horses whose leg is emptied. Soldiers, advisors, elephants and a
// general's step cannot be blocked. So the origins that matter are the
// own pieces standing alone between the general and an enemy chariot or
// general, those among two between it and an enemy cannon, and those on
// the leg of an enemy horse that would attack it; the destinations that
// matter are the empty points between the general and an enemy cannon
// with nothing between them (and the enemy general's point, never a legal
// capture).
type guard struct {
	check  bool   // in check (or the generals face each other after an illegal move stood)
	pinned bitset // own pieces whose moves are tested
	risky  bitset // destinations whose moves are tested
}

// guardOf computes the guard of side us on board b with generals gen.
func guardOf(b *[nPoints]uint8, us int, gen [2]int8) guard {
	var gd guard
	them := us ^ 1
	g := int(gen[us])
	for d := 0; d < 4; d++ {
		var o [3]int
		n := 0
		for _, t := range rays[g][d] {
			if b[t] != 0 {
				o[n] = int(t)
				n++
				if n == 3 {
					break
				}
			}
		}
		if n == 0 {
			continue
		}
		x0 := b[o[0]]
		own0 := colorOf(x0) == us
		if !own0 {
			switch x0 & kindMask {
			case chariot, general:
				gd.check = true
			case cannon:
				for _, t := range rays[g][d] {
					if int(t) == o[0] {
						break
					}
					gd.risky.set(int(t))
				}
			}
		}
		if n < 2 {
			continue
		}
		x1 := b[o[1]]
		own1 := colorOf(x1) == us
		if !own1 {
			switch x1 & kindMask {
			case chariot, general:
				if own0 {
					gd.pinned.set(o[0])
				}
			case cannon:
				gd.check = true
			}
		}
		if n < 3 {
			continue
		}
		if x2 := b[o[2]]; colorOf(x2) == them && x2&kindMask == cannon {
			if own0 {
				gd.pinned.set(o[0])
			}
			if own1 {
				gd.pinned.set(o[1])
			}
		}
	}
	hs := code(them, horse)
	for _, h := range horseFrom[g] {
		if b[h.to] != hs {
			continue
		}
		switch leg := b[h.via]; {
		case leg == 0:
			gd.check = true
		case colorOf(leg) == us:
			gd.pinned.set(int(h.via))
		}
	}
	if !gd.check {
		gd.check = stepAttacked(b, g, them)
	}
	gd.risky.set(int(gen[them]))
	return gd
}

// stepAttacked reports whether a soldier, general, advisor or elephant of
// side by attacks s (the attacks no piece can block but an elephant's eye).
func stepAttacked(b *[nPoints]uint8, s, by int) bool {
	ps := code(by, soldier)
	for _, h := range soldierFrom[by][s] {
		if b[h.to] == ps {
			return true
		}
	}
	gs := code(by, general)
	for _, h := range generalFrom[by][s] {
		if b[h.to] == gs {
			return true
		}
	}
	as := code(by, advisor)
	for _, h := range advisorFrom[by][s] {
		if b[h.to] == as {
			return true
		}
	}
	es := code(by, elephant)
	for _, h := range elephantFrom[by][s] {
		if b[h.to] == es && b[h.via] == 0 {
			return true
		}
	}
	return false
}

// gen is the legal move generator of one position: the board (a copy the
// tests play moves on), the side, its guard and the list being filled.
type gen struct {
	b    [nPoints]uint8
	us   int
	gens [2]int8
	gd   guard
	l    *moveList
}

// piece appends the legal moves of the own piece x on s: its moves by
// the piece rule, then, unless the guard clears them all, the tested ones
// are taken out again.
func (g *gen) piece(s int, x uint8) {
	b, us, l := &g.b, g.us, g.l
	n0 := l.n
	switch x & kindMask {
	case chariot:
		for d := 0; d < 4; d++ {
			for _, t := range rays[s][d] {
				y := b[t]
				if y == 0 {
					l.add(s, int(t))
					continue
				}
				if colorOf(y) != us {
					l.add(s, int(t))
				}
				break
			}
		}
	case cannon:
		for d := 0; d < 4; d++ {
			r := rays[s][d]
			i := 0
			for ; i < len(r) && b[r[i]] == 0; i++ {
				l.add(s, int(r[i]))
			}
			for i++; i < len(r); i++ {
				if y := b[r[i]]; y != 0 {
					if colorOf(y) != us {
						l.add(s, int(r[i]))
					}
					break
				}
			}
		}
	case horse:
		for _, h := range horseTo[s] {
			if b[h.via] == 0 && (b[h.to] == 0 || colorOf(b[h.to]) != us) {
				l.add(s, int(h.to))
			}
		}
	case elephant:
		for _, h := range elephantTo[us][s] {
			if b[h.via] == 0 && (b[h.to] == 0 || colorOf(b[h.to]) != us) {
				l.add(s, int(h.to))
			}
		}
	case advisor:
		g.steps(s, advisorTo[us][s])
	case general:
		g.steps(s, generalTo[us][s])
	case soldier:
		g.steps(s, soldierTo[us][s])
	}
	all := g.gd.check || x&kindMask == general || g.gd.pinned.has(s)
	n := n0
	for i := n0; i < l.n; i++ {
		m := l.m[i]
		if (all || g.gd.risky.has(int(m.to))) && !safeAfter(b, us, g.gens, m) {
			continue
		}
		l.m[n] = m
		n++
	}
	l.n = n
}

func (g *gen) steps(s int, steps []step) {
	for _, h := range steps {
		if y := g.b[h.to]; y == 0 || colorOf(y) != g.us {
			g.l.add(s, int(h.to))
		}
	}
}

// genLegal fills l with the legal moves of the side to move.
func (p *Position) genLegal(l *moveList) {
	us := int(p.turn)
	g := gen{b: p.board, us: us, gens: p.gen, l: l}
	g.gd = guardOf(&g.b, us, p.gen)
	l.n = 0
	for w, word := range p.occ[us] {
		for word != 0 {
			s := w<<6 | bits.TrailingZeros64(word)
			word &= word - 1
			g.piece(s, p.board[s])
		}
	}
}

// hasLegal reports whether the side to move has a legal move.
func (p *Position) hasLegal() bool {
	var l moveList
	p.genLegal(&l)
	return l.n > 0
}

// countLegal returns the number of legal moves of the side to move, as
// genLegal would list them, without listing the moves of pieces the guard
// clears (perft's leaf count).
func (p *Position) countLegal() int {
	us := int(p.turn)
	g := gen{b: p.board, us: us, gens: p.gen}
	g.gd = guardOf(&g.b, us, p.gen)
	var l moveList
	g.l = &l
	if g.gd.check {
		for w, word := range p.occ[us] {
			for word != 0 {
				s := w<<6 | bits.TrailingZeros64(word)
				word &= word - 1
				g.piece(s, p.board[s])
			}
		}
		return l.n
	}
	n := 0
	b := &g.b
	risky := &g.gd.risky
	for w, word := range p.occ[us] {
		for word != 0 {
			s := w<<6 | bits.TrailingZeros64(word)
			word &= word - 1
			x := b[s]
			k := x & kindMask
			if k == general || g.gd.pinned.has(s) {
				l.n = 0
				g.piece(s, x)
				n += l.n
				continue
			}
			switch k {
			case chariot:
				for d := 0; d < 4; d++ {
					for _, t := range rays[s][d] {
						y := b[t]
						if y == 0 || colorOf(y) != us {
							if !risky.has(int(t)) || safeAfter(b, us, p.gen, mv{int8(s), t}) {
								n++
							}
						}
						if y != 0 {
							break
						}
					}
				}
			case cannon:
				for d := 0; d < 4; d++ {
					r := rays[s][d]
					i := 0
					for ; i < len(r) && b[r[i]] == 0; i++ {
						if !risky.has(int(r[i])) || safeAfter(b, us, p.gen, mv{int8(s), r[i]}) {
							n++
						}
					}
					for i++; i < len(r); i++ {
						if y := b[r[i]]; y != 0 {
							if colorOf(y) != us && (!risky.has(int(r[i])) || safeAfter(b, us, p.gen, mv{int8(s), r[i]})) {
								n++
							}
							break
						}
					}
				}
			case horse:
				for _, h := range horseTo[s] {
					if b[h.via] == 0 && (b[h.to] == 0 || colorOf(b[h.to]) != us) && (!risky.has(int(h.to)) || safeAfter(b, us, p.gen, mv{int8(s), h.to})) {
						n++
					}
				}
			case elephant:
				for _, h := range elephantTo[us][s] {
					if b[h.via] == 0 && (b[h.to] == 0 || colorOf(b[h.to]) != us) && (!risky.has(int(h.to)) || safeAfter(b, us, p.gen, mv{int8(s), h.to})) {
						n++
					}
				}
			case advisor:
				n += countSteps(b, us, p.gen, risky, s, advisorTo[us][s])
			case soldier:
				n += countSteps(b, us, p.gen, risky, s, soldierTo[us][s])
			}
		}
	}
	return n
}

func countSteps(b *[nPoints]uint8, us int, gens [2]int8, risky *bitset, s int, steps []step) int {
	n := 0
	for _, h := range steps {
		if y := b[h.to]; (y == 0 || colorOf(y) != us) && (!risky.has(int(h.to)) || safeAfter(b, us, gens, mv{int8(s), h.to})) {
			n++
		}
	}
	return n
}
