package xiangqi

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
// no piece between them (the flying-general rule, specs/xiangqi.md §4.2).
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

// genPseudo appends the moves of side us that follow the piece rules and
// do not land on an own piece, on board b.
func genPseudo(b *[nPoints]uint8, us int, l *moveList) {
	for s := 0; s < nPoints; s++ {
		x := b[s]
		if x == 0 || colorOf(x) != us {
			continue
		}
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
				screen := false
				for _, t := range rays[s][d] {
					y := b[t]
					if !screen {
						if y == 0 {
							l.add(s, int(t))
						} else {
							screen = true
						}
						continue
					}
					if y != 0 {
						if colorOf(y) != us {
							l.add(s, int(t))
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
			genSteps(b, us, s, advisorTo[us][s], l)
		case general:
			genSteps(b, us, s, generalTo[us][s], l)
		case soldier:
			genSteps(b, us, s, soldierTo[us][s], l)
		}
	}
}

func genSteps(b *[nPoints]uint8, us, s int, steps []step, l *moveList) {
	for _, h := range steps {
		if y := b[h.to]; y == 0 || colorOf(y) != us {
			l.add(s, int(h.to))
		}
	}
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

// genLegal fills l with the legal moves of the side to move.
func (p *Position) genLegal(l *moveList) {
	b := p.board
	us := int(p.turn)
	var pl moveList
	genPseudo(&b, us, &pl)
	l.n = 0
	for i := 0; i < pl.n; i++ {
		if safeAfter(&b, us, p.gen, pl.m[i]) {
			l.m[l.n] = pl.m[i]
			l.n++
		}
	}
}

// hasLegal reports whether the side to move has a legal move.
func (p *Position) hasLegal() bool {
	b := p.board
	us := int(p.turn)
	var pl moveList
	genPseudo(&b, us, &pl)
	for i := 0; i < pl.n; i++ {
		if safeAfter(&b, us, p.gen, pl.m[i]) {
			return true
		}
	}
	return false
}
