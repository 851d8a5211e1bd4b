package xiangqi

import "github.com/dgtbridge/dgtbridge/rules"

// find returns the internal form of m when m is legal in p.
func (p *Position) find(m rules.Move) (mv, bool) {
	if m.Drop != rules.NoKind || m.Promo != rules.NoKind || m.From < 0 || m.To < 0 || m.From >= nPoints || m.To >= nPoints {
		return mv{}, false
	}
	var l moveList
	p.genLegal(&l)
	for i := 0; i < l.n; i++ {
		if l.m[i].from == int8(m.From) && l.m[i].to == int8(m.To) {
			return l.m[i], true
		}
	}
	return mv{}, false
}

// Play implements rules.Position.
func (p *Position) Play(m rules.Move) (rules.Position, error) {
	q, err := p.PlayMove(m)
	if err != nil {
		return nil, err
	}
	return q, nil
}

// PlayMove is Play returning the concrete type. An illegal move gives a
// *rules.IllegalMoveError whose Reason says why.
func (p *Position) PlayMove(m rules.Move) (*Position, error) {
	em, ok := p.find(m)
	if !ok {
		return nil, &rules.IllegalMoveError{Move: m, Reason: p.reason(m)}
	}
	q := *p
	q.doMove(em)
	return &q, nil
}

// PlayIllegal implements rules.Position: it plays m when a piece of the
// side to move stands on From and To is another point that does not hold a
// piece of its own side, whatever the piece rules say (RB 4.3: an illegal
// move stands once the opponent has moved). Taking the opponent's general
// is refused with rules.ReasonCapturesKing: a position without a general
// is not a xiangqi position.
func (p *Position) PlayIllegal(m rules.Move) (rules.Position, error) {
	q, err := p.PlayIllegalMove(m)
	if err != nil {
		return nil, err
	}
	return q, nil
}

// PlayIllegalMove is PlayIllegal returning the concrete type.
func (p *Position) PlayIllegalMove(m rules.Move) (*Position, error) {
	fail := func(r rules.Reason) (*Position, error) {
		return nil, &rules.IllegalMoveError{Move: m, Reason: r}
	}
	switch {
	case m.Drop != rules.NoKind:
		return fail(rules.ReasonBadDrop)
	case m.From < 0 || m.From >= nPoints || p.board[m.From] == 0:
		return fail(rules.ReasonNoPiece)
	case colorOf(p.board[m.From]) != int(p.turn):
		return fail(rules.ReasonNotYourTurn)
	case m.To < 0 || m.To >= nPoints || m.To == m.From:
		return fail(rules.ReasonBadGeometry)
	}
	if y := p.board[m.To]; y != 0 {
		if colorOf(y) == int(p.turn) {
			return fail(rules.ReasonOwnPieceOnTarget)
		}
		if y&kindMask == general {
			return fail(rules.ReasonCapturesKing)
		}
	}
	q := *p
	q.doMove(mv{int8(m.From), int8(m.To)})
	return &q, nil
}

// Check implements rules.Position: nil when m is legal, else an
// *rules.IllegalMoveError with the reason.
func (p *Position) Check(m rules.Move) error {
	if _, ok := p.find(m); ok {
		return nil
	}
	return &rules.IllegalMoveError{Move: m, Reason: p.reason(m)}
}

// reason explains why m is not legal in p. The checks run in this order,
// the first failing one giving the reason:
//
//   - drops and promotions: ReasonBadDrop, ReasonBadPromotion;
//   - no piece on From: ReasonNoPiece; the opponent's piece: ReasonNotYourTurn;
//   - To off the board or equal to From: ReasonBadGeometry;
//   - an own piece on To: ReasonOwnPieceOnTarget;
//   - the piece rule (Art. 4.3): ReasonBadGeometry for a move
//     the piece never makes from there (a general or advisor leaving the
//     palace, an elephant crossing the river, a soldier moving back or
//     sideways before the river, a cannon capturing with no screen);
//     ReasonBlocked for a blocked path (chariot or non-capturing cannon
//     with pieces between, horse leg, elephant eye, a cannon capturing
//     over two or more screens);
//   - the opponent's general on To: ReasonCapturesKing;
//   - afterwards the generals face each other: ReasonFlyingGeneral;
//   - afterwards the own general is attacked: ReasonKingIntoCheck when the
//     general moved, ReasonLeavesKingInCheck when it was in check before,
//     ReasonPinned otherwise.
func (p *Position) reason(m rules.Move) rules.Reason {
	if m.Drop != rules.NoKind {
		return rules.ReasonBadDrop
	}
	if m.Promo != rules.NoKind {
		return rules.ReasonBadPromotion
	}
	if m.From < 0 || m.From >= nPoints || p.board[m.From] == 0 {
		return rules.ReasonNoPiece
	}
	from := int(m.From)
	x := p.board[from]
	us := colorOf(x)
	if us != int(p.turn) {
		return rules.ReasonNotYourTurn
	}
	if m.To < 0 || m.To >= nPoints || m.To == m.From {
		return rules.ReasonBadGeometry
	}
	to := int(m.To)
	y := p.board[to]
	if y != 0 && colorOf(y) == us {
		return rules.ReasonOwnPieceOnTarget
	}
	if r := p.pieceReason(x&kindMask, us, from, to); r != rules.ReasonUnknown {
		return r
	}
	if y&kindMask == general {
		return rules.ReasonCapturesKing
	}
	b := p.board
	b[to], b[from] = x, 0
	g := int(p.gen[us])
	if x&kindMask == general {
		g = to
	}
	switch {
	case facing(&b, g, int(p.gen[us^1])):
		return rules.ReasonFlyingGeneral
	case attacked(&b, g, us^1):
		if x&kindMask == general {
			return rules.ReasonKingIntoCheck
		}
		if p.InCheck() {
			return rules.ReasonLeavesKingInCheck
		}
		return rules.ReasonPinned
	}
	return rules.ReasonUnknown
}

// pieceReason checks the movement rule of kind k of side us from from to
// to (a different point without an own piece), returning ReasonUnknown
// when the piece may move so.
func (p *Position) pieceReason(k uint8, us, from, to int) rules.Reason {
	df, dr := fileOf(to)-fileOf(from), rankOf(to)-rankOf(from)
	adf, adr := abs(df), abs(dr)
	switch k {
	case general:
		if adf+adr != 1 || !inPalace(us, to) {
			return rules.ReasonBadGeometry
		}
	case advisor:
		if adf != 1 || adr != 1 || !inPalace(us, to) {
			return rules.ReasonBadGeometry
		}
	case elephant:
		if adf != 2 || adr != 2 || !ownHalf(us, to) {
			return rules.ReasonBadGeometry
		}
		if p.board[point(fileOf(from)+df/2, rankOf(from)+dr/2)] != 0 {
			return rules.ReasonBlocked
		}
	case horse:
		if !(adf == 1 && adr == 2 || adf == 2 && adr == 1) {
			return rules.ReasonBadGeometry
		}
		leg := point(fileOf(from)+df/2, rankOf(from)+dr/2) // integer halves: 0 on the short leg
		if p.board[leg] != 0 {
			return rules.ReasonBlocked
		}
	case soldier:
		switch {
		case df == 0 && dr == forward(us):
		case adf == 1 && dr == 0 && !ownHalf(us, from):
		default:
			return rules.ReasonBadGeometry
		}
	case chariot, cannon:
		if df != 0 && dr != 0 {
			return rules.ReasonBadGeometry
		}
		n := p.between(from, to)
		if k == chariot || p.board[to] == 0 {
			if n > 0 {
				return rules.ReasonBlocked
			}
			break
		}
		switch {
		case n == 0:
			return rules.ReasonBadGeometry
		case n > 1:
			return rules.ReasonBlocked
		}
	}
	return rules.ReasonUnknown
}

// between counts the pieces strictly between two points on one line.
func (p *Position) between(a, b int) int {
	df, dr := sign(fileOf(b)-fileOf(a)), sign(rankOf(b)-rankOf(a))
	n := 0
	for s := point(fileOf(a)+df, rankOf(a)+dr); s != b; s = point(fileOf(s)+df, rankOf(s)+dr) {
		if p.board[s] != 0 {
			n++
		}
	}
	return n
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func sign(x int) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}
