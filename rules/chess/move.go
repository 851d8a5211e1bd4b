package chess

import "github.com/dgtbridge/dgtbridge/rules"

// move is the engine's compact move: from (6 bits), to (6), kind (3: the
// promotion or drop kind), type (3).
type move uint32

// Move types.
const (
	mNormal uint32 = iota
	mPromo
	mEnPassant
	mCastle // from = king, to = castling rook
	mDrop   // from unused, kind = dropped kind
	mDouble
	mRemove // team variant: lift the pawn on from off the board
)

func mk(from, to int, kind int, typ uint32) move {
	return move(uint32(from) | uint32(to)<<6 | uint32(kind)<<12 | typ<<15)
}

func (m move) from() int   { return int(m & 63) }
func (m move) to() int     { return int(m>>6) & 63 }
func (m move) kind() int   { return int(m>>12) & 7 }
func (m move) typ() uint32 { return uint32(m>>15) & 7 }

// maxMoves bounds the legal moves of any reachable chess or drop-chess
// position (218 in chess; drops add at most 5×64).
const maxMoves = 600

// moveList is a fixed-capacity move buffer that lives on the stack.
type moveList struct {
	n int
	m [maxMoves]move
}

func (l *moveList) add(m move) {
	l.m[l.n] = m
	l.n++
}

// toRules converts m, legal in p, into a rules.Move with its flags.
func (p *Position) toRules(m move) rules.Move {
	switch m.typ() {
	case mDrop:
		return rules.Move{From: rules.NoSquare, To: rules.Square(m.to()), Drop: rules.Kind(m.kind()), Flags: rules.FlagDrop}
	case mCastle:
		return rules.Move{From: rules.Square(m.from()), To: rules.Square(m.to()), Flags: rules.FlagCastle}
	case mRemove:
		return rules.Move{From: rules.Square(m.from()), To: rules.NoSquare, Flags: rules.FlagRemove}
	}
	r := rules.Move{From: rules.Square(m.from()), To: rules.Square(m.to())}
	if p.board[m.to()] != 0 {
		r.Flags |= rules.FlagCapture
	}
	switch m.typ() {
	case mPromo:
		r.Promo = rules.Kind(m.kind())
	case mEnPassant:
		r.Flags |= rules.FlagCapture | rules.FlagEnPassant
	case mDouble:
		r.Flags |= rules.FlagDouble
	}
	return r
}

// sameMove reports whether the engine move m is the rules.Move r (flags
// ignored).
func sameMove(m move, r rules.Move) bool {
	switch m.typ() {
	case mDrop:
		return r.Drop == rules.Kind(m.kind()) && r.To == rules.Square(m.to()) && r.Promo == rules.NoKind
	case mRemove:
		return r.Flags&rules.FlagRemove != 0 && r.From == rules.Square(m.from()) && r.Drop == rules.NoKind
	}
	if r.Drop != rules.NoKind || r.From != rules.Square(m.from()) || r.To != rules.Square(m.to()) || r.Flags&rules.FlagRemove != 0 {
		return false
	}
	if m.typ() == mPromo {
		return r.Promo == rules.Kind(m.kind())
	}
	return r.Promo == rules.NoKind
}
