package chess

import "github.com/dgtbridge/dgtbridge/rules"

// reason explains why the (normalized) move m is not legal in p.
func (p *Position) reason(m rules.Move) rules.Reason {
	us := int(p.turn)
	them := us ^ 1
	occ := p.occupied()
	ksq := p.kingSq(us)
	inCheck := p.attacked(ksq, them, occ)
	if m.Drop != rules.NoKind {
		return p.dropReason(m, inCheck)
	}
	if m.Flags&rules.FlagRemove != 0 {
		return p.removeReason(m, inCheck)
	}
	if m.From < 0 || m.From >= 64 {
		return rules.ReasonNoPiece
	}
	if m.To < 0 || m.To >= 64 || m.To == m.From {
		return rules.ReasonBadGeometry
	}
	from, to := int(m.From), int(m.To)
	x := p.board[from]
	if x == 0 {
		return rules.ReasonNoPiece
	}
	if int(x>>3) != us {
		return rules.ReasonNotYourTurn
	}
	k := int(x & 7)
	if m.Flags&rules.FlagCastle != 0 && k == king {
		return p.castleReason(from, to, inCheck)
	}
	y := p.board[to]
	if y != 0 && int(y>>3) == us {
		return rules.ReasonOwnPieceOnTarget
	}
	if y != 0 && int(y&7) == king {
		return rules.ReasonCapturesKing
	}
	typ, r, ok := p.shapeReason(m, k, us, from, to, y, occ)
	if !ok {
		return r
	}
	// Geometrically fine: the own king must be the problem.
	q := *p
	q.doMove(mk(from, to, int(m.Promo), typ))
	if q.attacked(q.kingSq(us), them, q.occupied()) {
		switch {
		case k == king:
			return rules.ReasonKingIntoCheck
		case inCheck:
			return rules.ReasonLeavesKingInCheck
		case p.pinnedPieces(us, ksq, occ)&sqBB(from) != 0:
			return rules.ReasonPinned
		}
		return rules.ReasonLeavesKingInCheck
	}
	if p.opts.NoPromotion && p.stuckPawns() != 0 && !inCheck {
		return rules.ReasonMustRemovePawn
	}
	return rules.ReasonUnknown
}

// removeReason says why removing a pawn (team-drop's -e8) is illegal.
func (p *Position) removeReason(m rules.Move, inCheck bool) rules.Reason {
	if m.From < 0 || m.From >= 64 || p.stuckPawns()&sqBB(int(m.From)) == 0 {
		return rules.ReasonBadGeometry
	}
	if inCheck {
		return rules.ReasonLeavesKingInCheck
	}
	return rules.ReasonPinned
}

// shapeReason checks the move's shape for piece kind k: its geometry on an
// empty board, the blockers, a pawn's own rules and promotion. It returns
// the internal move type when the shape is fine (ok), else the reason.
func (p *Position) shapeReason(m rules.Move, k, us, from, to int, y uint8, occ bitboard) (typ uint32, r rules.Reason, ok bool) {
	var geo, reach bitboard // geo: empty-board moves; reach: with blockers
	typ = mNormal
	switch k {
	case knight:
		geo, reach = knightAttacks[from], knightAttacks[from]
	case king:
		geo, reach = kingAttacks[from], kingAttacks[from]
	case bishop:
		geo, reach = bishopRays[from], bishopAttacks(from, occ)
	case rook:
		geo, reach = rookRays[from], rookAttacks(from, occ)
	case queen:
		geo, reach = bishopRays[from]|rookRays[from], queenAttacks(from, occ)
	case pawn:
		if r, ok := p.pawnReason(m, us, from, to, y); !ok {
			return typ, r, false
		}
		geo, reach = sqBB(to), sqBB(to)
		if fileOf(from) != fileOf(to) && y == 0 {
			typ = mEnPassant
		} else if to-from == 16 || from-to == 16 {
			typ = mDouble
		}
		if m.Promo != rules.NoKind {
			typ = mPromo
		}
	}
	switch {
	case k != pawn && m.Promo != rules.NoKind:
		return typ, rules.ReasonBadPromotion, false
	case geo&sqBB(to) == 0:
		return typ, rules.ReasonBadGeometry, false
	case reach&sqBB(to) == 0:
		return typ, rules.ReasonBlocked, false
	}
	return typ, rules.ReasonUnknown, true
}

// pawnReason checks a pawn move's shape; ok means the shape is fine.
func (p *Position) pawnReason(m rules.Move, us, from, to int, y uint8) (rules.Reason, bool) {
	dir := 8
	start, last := 1, 7
	if us == black {
		dir, start, last = -8, 6, 0
	}
	df := fileOf(to) - fileOf(from)
	dr := (to - from - df) / 8 * (dir / 8)
	occ := p.occupied()
	switch {
	case df == 0 && dr == 1:
		if y != 0 {
			return rules.ReasonBlocked, false
		}
	case df == 0 && dr == 2:
		if rankOf(from) != start {
			return rules.ReasonBadGeometry, false
		}
		if occ&(sqBB(from+dir)|sqBB(to)) != 0 {
			return rules.ReasonBlocked, false
		}
	case (df == 1 || df == -1) && dr == 1:
		if y == 0 {
			if int(p.ep) == to {
				break
			}
			epRank := 5
			if us == black {
				epRank = 2
			}
			if rankOf(to) == epRank {
				return rules.ReasonNoEnPassant, false
			}
			return rules.ReasonBadGeometry, false
		}
	default:
		return rules.ReasonBadGeometry, false
	}
	onLast := rankOf(to) == last
	switch {
	case p.opts.NoPromotion && m.Promo != rules.NoKind:
		return rules.ReasonBadPromotion, false
	case p.opts.NoPromotion:
	case onLast && m.Promo == rules.NoKind:
		return rules.ReasonMissingPromotion, false
	case m.Promo != rules.NoKind && (!onLast || m.Promo < rules.Knight || m.Promo > rules.Queen):
		return rules.ReasonBadPromotion, false
	}
	return rules.ReasonUnknown, true
}

func (p *Position) castleReason(ksq, rsq int, inCheck bool) rules.Reason {
	us := int(p.turn)
	if rankOf(rsq) != rankOf(ksq) {
		return rules.ReasonBadGeometry
	}
	side := castleSide(ksq, rsq)
	if int(p.castle[us][side]) != rsq {
		return rules.ReasonCastleRightsGone
	}
	if inCheck {
		return rules.ReasonCastleOutOfCheck
	}
	empty, path := castlePath(us, side, ksq, rsq)
	occ := p.occupied()
	if occ&empty != 0 {
		return rules.ReasonCastleBlocked
	}
	kdst, _ := castleTargets(us, side)
	o := occ ^ sqBB(ksq) ^ sqBB(rsq)
	if p.attacked(kdst, us^1, o) {
		return rules.ReasonCastleIntoCheck
	}
	for ; path != 0; path &= path - 1 {
		if p.attacked(lsb(path), us^1, o) {
			return rules.ReasonCastleThroughCheck
		}
	}
	if p.opts.NoPromotion && p.stuckPawns() != 0 {
		return rules.ReasonMustRemovePawn
	}
	return rules.ReasonUnknown
}

func (p *Position) dropReason(m rules.Move, inCheck bool) rules.Reason {
	us := int(p.turn)
	if !p.opts.Drops || m.Drop < rules.Pawn || m.Drop > rules.Queen || m.To < 0 || m.To >= 64 {
		return rules.ReasonBadDrop
	}
	if p.pocket[us][m.Drop] == 0 {
		return rules.ReasonEmptyPocket
	}
	to := int(m.To)
	occ := p.occupied()
	if occ&sqBB(to) != 0 {
		return rules.ReasonBadDrop
	}
	if p.dropTargets(us, int(m.Drop), occ)&sqBB(to) == 0 {
		// Distinguish the check ban from the rank bans.
		o := p.opts
		o.NoDropCheck = false
		q := *p
		q.opts = o
		if q.dropTargets(us, int(m.Drop), occ)&sqBB(to) != 0 {
			return rules.ReasonDropGivesCheck
		}
		return rules.ReasonBadDrop
	}
	if inCheck {
		return rules.ReasonLeavesKingInCheck
	}
	if p.opts.NoPromotion && p.stuckPawns() != 0 {
		return rules.ReasonMustRemovePawn
	}
	return rules.ReasonUnknown
}
