package chess

// doMove plays the legal (or physically possible) move m on p in place.
// Castling rights die when the king moves or anything moves from or to a
// castling rook's square, so a rook that was dropped or came back never
// castles (team variant A8).
func (p *Position) doMove(m move) {
	us := int(p.turn)
	them := us ^ 1
	from, to := m.from(), m.to()
	p.ep = -1
	p.half++
	switch m.typ() {
	case mDrop:
		k := m.kind()
		p.pocket[us][k]--
		p.put(us, k, to)
		if k == pawn {
			p.half = 0
		}
	case mCastle:
		kdst, rdst := castleTargets(us, castleSide(from, to))
		p.remove(from)
		p.remove(to)
		p.put(us, king, kdst)
		p.put(us, rook, rdst)
		p.castle[us] = [2]int8{-1, -1}
	case mRemove:
		// Lifting the pawn counts as a capture (A4, A6).
		p.half = 0
		p.remove(from)
		p.promoted &^= sqBB(from)
		p.clearRookRight(them, from)
	default:
		x := p.board[from]
		k := int(x & 7)
		capSq := to
		if m.typ() == mEnPassant {
			if us == white {
				capSq = to - 8
			} else {
				capSq = to + 8
			}
		}
		if y := p.board[capSq]; y != 0 {
			p.capture(us, y, capSq)
		}
		p.remove(from)
		if p.promoted&sqBB(from) != 0 {
			p.promoted ^= sqBB(from) | sqBB(to)
		}
		if m.typ() == mPromo {
			p.put(us, m.kind(), to)
			if p.opts.Drops {
				p.promoted |= sqBB(to)
			}
		} else {
			p.put(us, k, to)
		}
		switch k {
		case pawn:
			p.half = 0
			if m.typ() == mDouble {
				ep := (from + to) / 2
				if pawnAttacks[us][ep]&p.bb[them][pawn] != 0 {
					p.ep = int8(ep)
				}
			}
		case king:
			p.castle[us] = [2]int8{-1, -1}
		}
		p.clearRookRight(us, from)
		p.clearRookRight(them, to)
	}
	if us == black {
		p.full++
	}
	p.turn = uint8(them)
}

// castleSide tells from the king's and the rook's squares which side
// castling is on: the rook on a higher file is the h-side.
func castleSide(ksq, rsq int) int {
	if rsq > ksq {
		return hSide
	}
	return aSide
}

func (p *Position) clearRookRight(c, s int) {
	for side := 0; side < 2; side++ {
		if int(p.castle[c][side]) == s {
			p.castle[c][side] = -1
		}
	}
}

// capture takes piece y (of the side not to move) off sq: the half-move
// count restarts, a drop variant's captor pockets it (a promoted piece as
// a pawn), and a rook's castling right goes with it.
func (p *Position) capture(us int, y uint8, sq int) {
	p.half = 0
	if p.opts.CapturesToPocket {
		ck := int(y & 7)
		if p.promoted&sqBB(sq) != 0 {
			ck = pawn
		}
		if ck != king && p.pocket[us][ck] < 255 {
			p.pocket[us][ck]++
		}
	}
	p.remove(sq)
	p.promoted &^= sqBB(sq)
	p.clearRookRight(us^1, sq)
}
