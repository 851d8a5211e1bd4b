package chess

import "github.com/dgtbridge/dgtbridge/rules"

// LegalMoves implements rules.Position. With cap(dst)-len(dst) ≥ the
// number of legal moves it does not allocate.
func (p *Position) LegalMoves(dst []rules.Move) []rules.Move {
	var ml moveList
	p.genLegal(&ml)
	for i := 0; i < ml.n; i++ {
		dst = append(dst, p.toRules(ml.m[i]))
	}
	return dst
}

// NumLegalMoves returns the number of legal moves without allocating.
func (p *Position) NumLegalMoves() int {
	var ml moveList
	p.genLegal(&ml)
	return ml.n
}

// normalize rewrites the ways a castling can be written into the
// king-takes-rook form: a king move onto its own rook on the same rank, or
// the king's move to its castling square (g- or c-file of the first rank)
// when that is not a one-square step (e1g1 in standard chess; in Chess960
// a one-square king move stays an ordinary king move, so f1g1 is never
// read as castling). Without the castling right the standard corner rook
// stands in, so e1g1 without the right is reported as "rights gone".
func (p *Position) normalize(m rules.Move) rules.Move {
	if m.Drop != rules.NoKind || m.Flags&rules.FlagRemove != 0 || m.From < 0 || m.From >= 64 || m.To < 0 || m.To >= 64 {
		return m
	}
	us := int(p.turn)
	if p.board[m.From] != pc(us, king) {
		return m
	}
	from, to := int(m.From), int(m.To)
	if p.board[to] == pc(us, rook) && rankOf(to) == rankOf(from) {
		m.Flags |= rules.FlagCastle
		return m
	}
	if rankOf(to) != rankOf(from) || to-from == 1 || from-to == 1 || to == from {
		return m
	}
	side := hSide
	if to < from {
		side = aSide
	}
	kdst, _ := castleTargets(us, side)
	if kdst != to {
		return m
	}
	if r := p.castle[us][side]; r >= 0 {
		m.To = rules.Square(r)
		m.Flags |= rules.FlagCastle
		return m
	}
	if !p.opts.Chess960 && fileOf(from) == 4 {
		corner := from&^7 + 7
		if side == aSide {
			corner = from &^ 7
		}
		if p.board[corner] == pc(us, rook) {
			m.To = rules.Square(corner)
			m.Flags |= rules.FlagCastle
		}
	}
	return m
}

// find returns the legal engine move equal to m.
func (p *Position) find(m rules.Move) (move, bool) {
	m = p.normalize(m)
	var ml moveList
	p.genLegal(&ml)
	for i := 0; i < ml.n; i++ {
		if sameMove(ml.m[i], m) {
			return ml.m[i], true
		}
	}
	return 0, false
}

// Play implements rules.Position. Castling may be given king-takes-rook
// (e1h1) or, outside Chess960, as the king's two-square step (e1g1).
func (p *Position) Play(m rules.Move) (rules.Position, error) {
	q, err := p.PlayMove(m)
	if err != nil {
		return nil, err
	}
	return q, nil
}

// PlayMove is Play returning the concrete type.
func (p *Position) PlayMove(m rules.Move) (*Position, error) {
	em, ok := p.find(m)
	if !ok {
		return nil, p.Check(m)
	}
	q := *p
	q.doMove(em)
	return &q, nil
}

// Check implements rules.Position.
func (p *Position) Check(m rules.Move) error {
	if _, ok := p.find(m); ok {
		return nil
	}
	return &rules.IllegalMoveError{Move: m, Reason: p.reason(p.normalize(m))}
}

// PlayIllegal implements rules.Position. Beyond the interface's contract:
// a move that would take the king is refused (ReasonCapturesKing) because a
// position needs both kings; a pawn reaching the last rank without Promo
// stays a pawn (FIDE 7.5.2 leaves the correction to the arbiter); a king
// moving onto its own castling rook castles even through or into check; a
// pawn moving diagonally onto the empty en-passant square takes en passant.
func (p *Position) PlayIllegal(m rules.Move) (rules.Position, error) {
	q, err := p.PlayIllegalMove(m)
	if err != nil {
		return nil, err
	}
	return q, nil
}

// PlayIllegalMove is PlayIllegal returning the concrete type.
func (p *Position) PlayIllegalMove(m rules.Move) (*Position, error) {
	if em, ok := p.find(m); ok {
		q := *p
		q.doMove(em)
		return &q, nil
	}
	m = p.normalize(m)
	us := int(p.turn)
	fail := func(r rules.Reason) (*Position, error) {
		return nil, &rules.IllegalMoveError{Move: m, Reason: r}
	}
	q := *p
	switch {
	case m.Drop != rules.NoKind:
		if !p.opts.Drops || m.Drop < rules.Pawn || m.Drop > rules.Queen || m.To < 0 || m.To >= 64 {
			return fail(rules.ReasonBadDrop)
		}
		if p.pocket[us][m.Drop] == 0 {
			return fail(rules.ReasonEmptyPocket)
		}
		if p.board[m.To] != 0 {
			return fail(rules.ReasonBadDrop)
		}
		q.doMove(mk(0, int(m.To), int(m.Drop), mDrop))
	case m.Flags&rules.FlagRemove != 0:
		if m.From < 0 || m.From >= 64 || p.board[m.From] == 0 || int(p.board[m.From]>>3) == us || int(p.board[m.From]&7) == king {
			return fail(rules.ReasonNoPiece)
		}
		q.doMove(mk(int(m.From), int(m.From), 0, mRemove))
	default:
		if m.From < 0 || m.From >= 64 || m.To < 0 || m.To >= 64 || m.From == m.To {
			return fail(rules.ReasonBadGeometry)
		}
		x := p.board[m.From]
		switch {
		case x == 0:
			return fail(rules.ReasonNoPiece)
		case int(x>>3) != us:
			return fail(rules.ReasonNotYourTurn)
		}
		if m.Flags&rules.FlagCastle != 0 && int(x&7) == king && p.board[m.To] == pc(us, rook) && rankOf(int(m.To)) == rankOf(int(m.From)) && (rankOf(int(m.From)) == 0 && us == white || rankOf(int(m.From)) == 7 && us == black) {
			q.doMove(mk(int(m.From), int(m.To), 0, mCastle))
			break
		}
		y := p.board[m.To]
		switch {
		case y != 0 && int(y>>3) == us:
			return fail(rules.ReasonOwnPieceOnTarget)
		case y != 0 && int(y&7) == king:
			return fail(rules.ReasonCapturesKing)
		}
		typ := mNormal
		kind := 0
		if m.Promo != rules.NoKind {
			if m.Promo < rules.Knight || m.Promo > rules.Queen || int(x&7) != pawn {
				return fail(rules.ReasonBadPromotion)
			}
			typ, kind = mPromo, int(m.Promo)
		} else if int(x&7) == pawn && y == 0 && fileOf(int(m.From)) != fileOf(int(m.To)) && int(p.ep) == int(m.To) {
			typ = mEnPassant
		}
		q.doMove(mk(int(m.From), int(m.To), kind, typ))
	}
	q.ep = -1
	return &q, nil
}
