package dgt

import (
	"fmt"

	"github.com/dgtbridge/dgtbridge/rules"
)

// PieceCode is a DGT piece code: 0 empty, 1–6 white P R N B K Q,
// 7–12 black p r n b k q, 13–15 the "magic pieces". Note the order R, N,
// B, K, Q.
type PieceCode uint8

// The piece codes (0 empty, then white and black pieces).
const (
	Empty PieceCode = iota
	WhitePawn
	WhiteRook
	WhiteKnight
	WhiteBishop
	WhiteKing
	WhiteQueen
	BlackPawn
	BlackRook
	BlackKnight
	BlackBishop
	BlackKing
	BlackQueen
	MagicDraw     // PIECE1: the players signal a draw
	MagicWhiteWin // PIECE2: the players signal 1-0
	MagicBlackWin // PIECE3: the players signal 0-1
)

// codeLetters are the letters of the codes: FEN letters for chess pieces,
// '.' for empty, X/Y/Z for the magic pieces as DGT's own DLL names them.
const codeLetters = ".PRNBKQprnbkqXYZ"

var codeKinds = [...]rules.Kind{rules.NoKind, rules.Pawn, rules.Rook, rules.Knight, rules.Bishop, rules.King, rules.Queen}

// Valid reports whether c is one of the 16 codes.
func (c PieceCode) Valid() bool { return c < 16 }

// IsMagic reports whether c is one of the magic pieces 13–15.
func (c PieceCode) IsMagic() bool { return c >= MagicDraw && c <= MagicBlackWin }

// Letter returns the FEN letter of a chess piece, '.' for empty, 'X', 'Y',
// 'Z' for the magic pieces, '?' for an invalid code.
func (c PieceCode) Letter() byte {
	if c < 16 {
		return codeLetters[c]
	}
	return '?'
}

// String returns the letter as a string.
func (c PieceCode) String() string {
	if c < 16 {
		return codeLetters[c : c+1]
	}
	return fmt.Sprintf("PieceCode(%d)", uint8(c))
}

// Piece returns the chess piece of c; ok is false for empty squares, magic
// pieces and invalid codes (the piece is then rules.NoPiece).
func (c PieceCode) Piece() (p rules.Piece, ok bool) {
	switch {
	case c >= WhitePawn && c <= WhiteQueen:
		return rules.Piece{Color: rules.White, Kind: codeKinds[c]}, true
	case c >= BlackPawn && c <= BlackQueen:
		return rules.Piece{Color: rules.Black, Kind: codeKinds[c-6]}, true
	}
	return rules.NoPiece, false
}

// PieceCodeOf returns the code of a chess piece; the empty square gives
// Empty. ok is false for kinds a DGT board cannot report (xiangqi pieces).
func PieceCodeOf(p rules.Piece) (c PieceCode, ok bool) {
	if p.IsEmpty() {
		return Empty, true
	}
	for i := 1; i < len(codeKinds); i++ {
		if codeKinds[i] == p.Kind {
			switch p.Color {
			case rules.White:
				return PieceCode(i), true
			case rules.Black:
				return PieceCode(i + 6), true
			}
		}
	}
	return Empty, false
}

// PieceCodeFromLetter parses a letter as returned by [PieceCode.Letter].
func PieceCodeFromLetter(b byte) (PieceCode, bool) {
	for i := 0; i < len(codeLetters); i++ {
		if codeLetters[i] == b {
			return PieceCode(i), true
		}
	}
	return 0, false
}
