package rules

import "fmt"

// Color is a side. The zero value is White. In xiangqi White stands for Red,
// the side that moves first.
type Color uint8

// The sides, and NoColor for "neither" (an empty square, a stopped clock).
const (
	White Color = iota
	Black
	NoColor
)

// Other returns the opponent of c; NoColor stays NoColor.
func (c Color) Other() Color {
	switch c {
	case White:
		return Black
	case Black:
		return White
	}
	return NoColor
}

// String returns "white", "black" or "none", the spelling of the NATS payloads.
func (c Color) String() string {
	switch c {
	case White:
		return "white"
	case Black:
		return "black"
	}
	return "none"
}

// Kind is a kind of piece. Chess uses Pawn…King; xiangqi reuses Pawn
// (soldier), Knight (horse), Rook (chariot) and King (general) and adds
// Advisor, Elephant and Cannon.
type Kind uint8

// The piece kinds. NoKind marks an empty square or "no promotion".
const (
	NoKind Kind = iota
	Pawn
	Knight
	Bishop
	Rook
	Queen
	King
	Advisor
	Elephant
	Cannon
)

// kindLetters are the upper-case letters of the kinds, as FEN and SAN write
// them (xiangqi FEN uses A, B/E, C as in docs/xiangqi.md, "Board, pieces, FEN").
const kindLetters = " PNBRQKAEC"

// Letter returns the upper-case letter of k ('P', 'N', …), or ' ' for NoKind.
func (k Kind) Letter() byte {
	if int(k) < len(kindLetters) {
		return kindLetters[k]
	}
	return '?'
}

// String returns the kind's English name in lower case.
func (k Kind) String() string {
	names := [...]string{"none", "pawn", "knight", "bishop", "rook", "queen", "king", "advisor", "elephant", "cannon"}
	if int(k) < len(names) {
		return names[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// KindFromLetter parses a piece letter in either case; ok is false for any
// other byte.
func KindFromLetter(b byte) (k Kind, ok bool) {
	if b >= 'a' && b <= 'z' {
		b -= 'a' - 'A'
	}
	for i := 1; i < len(kindLetters); i++ {
		if kindLetters[i] == b {
			return Kind(i), true
		}
	}
	return NoKind, false
}

// Piece is a coloured piece. The zero value is an empty square (Kind NoKind).
// Pieces are comparable.
type Piece struct {
	Color Color
	Kind  Kind
}

// NoPiece is the empty square.
var NoPiece = Piece{}

// IsEmpty reports whether p is the empty square.
func (p Piece) IsEmpty() bool { return p.Kind == NoKind }

// Letter returns the FEN letter of p: upper case for White, lower case for
// Black, '.' for the empty square.
func (p Piece) Letter() byte {
	if p.IsEmpty() {
		return '.'
	}
	l := p.Kind.Letter()
	if p.Color == Black {
		l += 'a' - 'A'
	}
	return l
}

// String returns the FEN letter of p as a string.
func (p Piece) String() string { return string(p.Letter()) }

// PieceFromLetter parses a FEN piece letter: upper case White, lower case
// Black.
func PieceFromLetter(b byte) (Piece, bool) {
	k, ok := KindFromLetter(b)
	if !ok {
		return NoPiece, false
	}
	c := White
	if b >= 'a' && b <= 'z' {
		c = Black
	}
	return Piece{Color: c, Kind: k}, true
}
