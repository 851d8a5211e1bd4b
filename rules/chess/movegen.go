package chess

// Legal move generation: check and pin masks, so every generated move is
// legal without making it. Castling follows Chess960 rules (standard chess
// is a special case); en passant is verified by re-testing the king's lines.

// rookRays and bishopRays are slider attacks on an empty board.
var rookRays, bishopRays [64]bitboard

func init() {
	for s := 0; s < 64; s++ {
		rookRays[s] = slowRookAttacks(s, 0)
		bishopRays[s] = slowBishopAttacks(s, 0)
	}
}

// castleTargets returns the king and rook destinations for castling of
// colour c on side.
func castleTargets(c, side int) (kdst, rdst int) {
	base := 0
	if c == black {
		base = 56
	}
	if side == hSide {
		return base + 6, base + 5
	}
	return base + 2, base + 3
}

// pinnedPieces returns the pieces of colour us pinned to their king ksq.
func (p *Position) pinnedPieces(us, ksq int, occ bitboard) bitboard {
	them := us ^ 1
	e := &p.bb[them]
	snipers := (rookRays[ksq] & (e[rook] | e[queen])) | (bishopRays[ksq] & (e[bishop] | e[queen]))
	var pinned bitboard
	for snipers != 0 {
		s := lsb(snipers)
		snipers &= snipers - 1
		b := betweenBB[ksq][s] & occ
		if b != 0 && b&(b-1) == 0 {
			pinned |= b & p.bb[us][0]
		}
	}
	return pinned
}

// genLegal appends the legal moves of p to ml.
func (p *Position) genLegal(ml *moveList) {
	if p.opts.NoPromotion && p.stuckPawns() != 0 {
		p.genWithRemoval(ml)
		return
	}
	p.genPlain(ml)
}

// genPlain appends the legal moves of p to ml, ignoring the team variant's
// removal obligation.
func (p *Position) genPlain(ml *moveList) {
	us := int(p.turn)
	them := us ^ 1
	own := p.bb[us][0]
	enemy := p.bb[them][0]
	occ := own | enemy
	ksq := p.kingSq(us)
	if p.bb[us][king] == 0 {
		return
	}
	checkers := p.attackersTo(ksq, them, occ)
	// Never generate captures of the enemy king (reachable only in
	// positions where the side not to move is in check).
	targets := ^own &^ p.bb[them][king]

	// King steps.
	occNoK := occ ^ sqBB(ksq)
	for t := kingAttacks[ksq] & targets; t != 0; t &= t - 1 {
		to := lsb(t)
		if !p.attacked(to, them, occNoK) {
			ml.add(mk(ksq, to, 0, mNormal))
		}
	}
	if checkers&(checkers-1) != 0 {
		return // double check: only the king moves
	}
	checkMask := ^bitboard(0)
	if checkers != 0 {
		checkMask = betweenBB[ksq][lsb(checkers)] | checkers
	}
	pinned := p.pinnedPieces(us, ksq, occ)
	tm := targets & checkMask
	b := &p.bb[us]

	// Knights (a pinned knight never moves).
	for f := b[knight] &^ pinned; f != 0; f &= f - 1 {
		from := lsb(f)
		p.addAll(ml, from, knightAttacks[from]&tm)
	}
	// Bishops, rooks, queens.
	for f := b[bishop] | b[queen]; f != 0; f &= f - 1 {
		from := lsb(f)
		t := bishopAttacks(from, occ) & tm
		if pinned&sqBB(from) != 0 {
			t &= lineBB[ksq][from]
		}
		p.addAll(ml, from, t)
	}
	for f := b[rook] | b[queen]; f != 0; f &= f - 1 {
		from := lsb(f)
		t := rookAttacks(from, occ) & tm
		if pinned&sqBB(from) != 0 {
			t &= lineBB[ksq][from]
		}
		p.addAll(ml, from, t)
	}
	p.genPawns(ml, us, ksq, occ, enemy&tm, checkMask, pinned)
	if p.ep >= 0 {
		p.genEnPassant(ml, us, ksq, occ, checkers)
	}
	if checkers == 0 {
		p.genCastling(ml, us, ksq, occ)
	}
	if p.opts.Drops {
		p.genDrops(ml, us, occ, checkMask)
	}
}

func (p *Position) addAll(ml *moveList, from int, t bitboard) {
	for ; t != 0; t &= t - 1 {
		ml.add(mk(from, lsb(t), 0, mNormal))
	}
}

// addPawnTargets adds pawn moves (to-delta)→to for every to in t, with promotions
// on the last rank.
func (p *Position) addPawnTargets(ml *moveList, t bitboard, delta int) {
	last := rank8 | rank1
	if p.opts.NoPromotion {
		last = 0
	}
	for x := t &^ last; x != 0; x &= x - 1 {
		to := lsb(x)
		ml.add(mk(to-delta, to, 0, mNormal))
	}
	for x := t & last; x != 0; x &= x - 1 {
		to := lsb(x)
		from := to - delta
		ml.add(mk(from, to, queen, mPromo))
		ml.add(mk(from, to, rook, mPromo))
		ml.add(mk(from, to, bishop, mPromo))
		ml.add(mk(from, to, knight, mPromo))
	}
}

func (p *Position) genPawns(ml *moveList, us, ksq int, occ, capT, checkMask, pinned bitboard) {
	pawns := p.bb[us][pawn]
	free := pawns &^ pinned
	empty := ^occ
	if us == white {
		push := (free << 8) & empty
		dbl := ((push & rank3) << 8) & empty & checkMask
		p.addPawnTargets(ml, push&checkMask, 8)
		for x := dbl; x != 0; x &= x - 1 {
			to := lsb(x)
			ml.add(mk(to-16, to, 0, mDouble))
		}
		p.addPawnTargets(ml, ((free&^fileA)<<7)&capT, 7)
		p.addPawnTargets(ml, ((free&^fileH)<<9)&capT, 9)
	} else {
		push := (free >> 8) & empty
		dbl := ((push & rank6) >> 8) & empty & checkMask
		p.addPawnTargets(ml, push&checkMask, -8)
		for x := dbl; x != 0; x &= x - 1 {
			to := lsb(x)
			ml.add(mk(to+16, to, 0, mDouble))
		}
		p.addPawnTargets(ml, ((free&^fileH)>>7)&capT, -7)
		p.addPawnTargets(ml, ((free&^fileA)>>9)&capT, -9)
	}
	// Pinned pawns move only along the pin line.
	for f := pawns & pinned; f != 0; f &= f - 1 {
		from := lsb(f)
		line := lineBB[ksq][from]
		delta := 8
		if us == black {
			delta = -8
		}
		one := from + delta
		var t bitboard
		if one >= 0 && one < 64 && empty&sqBB(one) != 0 {
			t |= sqBB(one)
			two := one + delta
			if (us == white && rankOf(from) == 1 || us == black && rankOf(from) == 6) && empty&sqBB(two) != 0 && line&checkMask&sqBB(two) != 0 {
				ml.add(mk(from, two, 0, mDouble))
			}
		}
		t = (t & checkMask) | (pawnAttacks[us][from] & capT)
		t &= line
		for ; t != 0; t &= t - 1 {
			to := lsb(t)
			p.addPawnTargets(ml, sqBB(to), to-from)
		}
	}
}

// genEnPassant adds the legal en-passant captures onto p.ep.
func (p *Position) genEnPassant(ml *moveList, us, ksq int, occ, checkers bitboard) {
	them := us ^ 1
	ep := int(p.ep)
	capSq := ep - 8
	if us == black {
		capSq = ep + 8
	}
	if capSq < 0 || capSq >= 64 || p.bb[them][pawn]&sqBB(capSq) == 0 || occ&sqBB(ep) != 0 {
		return
	}
	// Knight or pawn checks other than by the captured pawn remain.
	if checkers&^sqBB(capSq)&(p.bb[them][knight]|p.bb[them][pawn]) != 0 {
		return
	}
	e := &p.bb[them]
	for f := pawnAttacks[them][ep] & p.bb[us][pawn]; f != 0; f &= f - 1 {
		from := lsb(f)
		o := occ ^ sqBB(from) ^ sqBB(capSq) | sqBB(ep)
		if rookAttacks(ksq, o)&(e[rook]|e[queen]) != 0 || bishopAttacks(ksq, o)&(e[bishop]|e[queen]) != 0 {
			continue
		}
		ml.add(mk(from, ep, 0, mEnPassant))
	}
}

// castlePath returns the squares that must be empty (other than the king
// and the rook themselves) and the squares the king passes (destination
// included) for castling of colour c on side with the king on ksq and the
// rook on rsq.
func castlePath(c, side, ksq, rsq int) (empty, kingPath bitboard) {
	kdst, rdst := castleTargets(c, side)
	kingPath = betweenBB[ksq][kdst] | sqBB(kdst)
	empty = (kingPath | betweenBB[rsq][rdst] | sqBB(rdst)) &^ (sqBB(ksq) | sqBB(rsq))
	return empty, kingPath
}

func (p *Position) genCastling(ml *moveList, us, ksq int, occ bitboard) {
	for side := 0; side < 2; side++ {
		rsq := int(p.castle[us][side])
		if rsq < 0 || p.board[rsq] != pc(us, rook) {
			continue
		}
		empty, path := castlePath(us, side, ksq, rsq)
		if occ&empty != 0 {
			continue
		}
		o := occ ^ sqBB(ksq) ^ sqBB(rsq)
		ok := true
		for ; path != 0; path &= path - 1 {
			if p.attacked(lsb(path), us^1, o) {
				ok = false
				break
			}
		}
		if ok {
			ml.add(mk(ksq, rsq, 0, mCastle))
		}
	}
}

// dropTargets returns the squares where colour us may drop kind k, before
// check considerations.
func (p *Position) dropTargets(us, k int, occ bitboard) bitboard {
	t := ^occ
	if k == pawn {
		t &^= rank1 | rank8
		if mask := p.opts.PawnDropRanks; mask != 0 {
			t &= pawnDropSquares(us, mask)
		}
	}
	if p.opts.NoDropOnLastRank {
		if us == white || p.opts.AbsoluteLastRank {
			t &^= rank8
		} else {
			t &^= rank1
		}
	}
	if p.opts.NoDropCheck {
		eks := p.kingSq(us ^ 1)
		var a bitboard
		switch k {
		case pawn:
			a = pawnAttacks[us^1][eks]
		case knight:
			a = knightAttacks[eks]
		case bishop:
			a = bishopAttacks(eks, occ)
		case rook:
			a = rookAttacks(eks, occ)
		case queen:
			a = queenAttacks(eks, occ)
		}
		t &^= a
	}
	return t
}

func (p *Position) genDrops(ml *moveList, us int, occ, checkMask bitboard) {
	for k := pawn; k <= queen; k++ {
		if p.pocket[us][k] == 0 {
			continue
		}
		for t := p.dropTargets(us, k, occ) & checkMask; t != 0; t &= t - 1 {
			ml.add(mk(0, lsb(t), k, mDrop))
		}
	}
}
