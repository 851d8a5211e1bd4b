package chess

import (
	"github.com/dgtbridge/dgtbridge/rules"
)

// Kind indexes inside the engine match rules.Kind: Pawn = 1 … King = 6.
const (
	pawn   = int(rules.Pawn)
	knight = int(rules.Knight)
	bishop = int(rules.Bishop)
	rook   = int(rules.Rook)
	queen  = int(rules.Queen)
	king   = int(rules.King)
)

const (
	white = 0
	black = 1
)

// Castling sides: index 0 is the h-side (O-O), 1 the a-side (O-O-O).
const (
	hSide = 0
	aSide = 1
)

// Position is a chess position of one [Variant]: standard chess, Chess960,
// crazyhouse or the team drop variant. It implements [rules.Position].
//
// A *Position is never modified after construction by the exported API:
// Play and PlayIllegal return new positions, so values may be shared between
// goroutines. The zero value is not a valid position; use NewPosition,
// StartPosition, Chess960Start or FromPlacement.
type Position struct {
	bb       [2][7]bitboard // [colour][kind]; kind 0 holds all pieces of the colour
	board    [64]uint8      // colour<<3 | kind, 0 = empty
	pocket   [2][7]uint8    // [colour][kind] pieces in hand
	promoted bitboard       // drop variants: pieces that were pawns
	castle   [2][2]int8     // [colour][side] square of the castling rook, -1 none
	ep       int8           // en-passant target square, -1 none
	turn     uint8
	variant  Variant
	opts     Options
	half     int32
	full     int32
}

func pc(c, k int) uint8 { return uint8(c<<3 | k) }

func (p *Position) put(c, k, s int) {
	b := sqBB(s)
	p.bb[c][k] |= b
	p.bb[c][0] |= b
	p.board[s] = pc(c, k)
}

func (p *Position) remove(s int) {
	x := p.board[s]
	if x == 0 {
		return
	}
	c, k := int(x>>3), int(x&7)
	b := sqBB(s)
	p.bb[c][k] &^= b
	p.bb[c][0] &^= b
	p.board[s] = 0
}

func (p *Position) occupied() bitboard { return p.bb[0][0] | p.bb[1][0] }

func (p *Position) kingSq(c int) int { return lsb(p.bb[c][king]) }

// attackersTo returns the pieces of colour by that attack s with occupancy occ.
func (p *Position) attackersTo(s int, by int, occ bitboard) bitboard {
	b := &p.bb[by]
	return (knightAttacks[s] & b[knight]) |
		(kingAttacks[s] & b[king]) |
		(pawnAttacks[by^1][s] & b[pawn]) |
		(rookAttacks(s, occ) & (b[rook] | b[queen])) |
		(bishopAttacks(s, occ) & (b[bishop] | b[queen]))
}

// attacked reports whether colour by attacks s with occupancy occ.
func (p *Position) attacked(s int, by int, occ bitboard) bool {
	b := &p.bb[by]
	if knightAttacks[s]&b[knight] != 0 || kingAttacks[s]&b[king] != 0 || pawnAttacks[by^1][s]&b[pawn] != 0 {
		return true
	}
	if rq := b[rook] | b[queen]; rq != 0 && rookAttacks(s, occ)&rq != 0 {
		return true
	}
	if bq := b[bishop] | b[queen]; bq != 0 && bishopAttacks(s, occ)&bq != 0 {
		return true
	}
	return false
}

// Variant implements rules.Position.
func (p *Position) Variant() string { return p.variant.String() }

// ChessVariant returns the variant of p.
func (p *Position) ChessVariant() Variant { return p.variant }

// Options returns the rule switches of p.
func (p *Position) Options() Options { return p.opts }

// Geometry implements rules.Position: always 8×8.
func (p *Position) Geometry() rules.Geometry { return rules.Chess8x8 }

// Turn implements rules.Position.
func (p *Position) Turn() rules.Color { return rules.Color(p.turn) }

func toPiece(x uint8) rules.Piece {
	if x == 0 {
		return rules.NoPiece
	}
	return rules.Piece{Color: rules.Color(x >> 3), Kind: rules.Kind(x & 7)}
}

// At implements rules.Position.
func (p *Position) At(s rules.Square) rules.Piece {
	if s < 0 || s >= 64 {
		return rules.NoPiece
	}
	return toPiece(p.board[s])
}

// Placement implements rules.Position.
func (p *Position) Placement() rules.Placement {
	pl := rules.NewPlacement(rules.Chess8x8)
	for s := 0; s < 64; s++ {
		pl.Sq[s] = toPiece(p.board[s])
	}
	return pl
}

// Pocket implements rules.Position.
func (p *Position) Pocket(c rules.Color, k rules.Kind) int {
	if c > rules.Black || k < rules.Pawn || k > rules.King {
		return 0
	}
	return int(p.pocket[c][k])
}

// Promoted reports whether the piece on s was promoted from a pawn (tracked
// in drop variants only, where it returns to the pocket as a pawn).
func (p *Position) Promoted(s rules.Square) bool {
	return s >= 0 && s < 64 && p.promoted&sqBB(int(s)) != 0
}

// CastlingRook returns the square of the rook c may still castle with on
// the h-side (long false, O-O) or the a-side (long true), or NoSquare when
// that right is gone.
func (p *Position) CastlingRook(c rules.Color, long bool) rules.Square {
	if c > rules.Black {
		return rules.NoSquare
	}
	side := hSide
	if long {
		side = aSide
	}
	if s := p.castle[c][side]; s >= 0 {
		return rules.Square(s)
	}
	return rules.NoSquare
}

// EnPassant returns the en-passant target square when the last move was a
// double step that an enemy pawn could take (pseudo-legally), else NoSquare.
func (p *Position) EnPassant() rules.Square {
	if p.ep < 0 {
		return rules.NoSquare
	}
	return rules.Square(p.ep)
}

// HalfmoveClock implements rules.Position.
func (p *Position) HalfmoveClock() int { return int(p.half) }

// FullmoveNumber implements rules.Position.
func (p *Position) FullmoveNumber() int { return int(p.full) }

// InCheck implements rules.Position.
func (p *Position) InCheck() bool {
	us := int(p.turn)
	return p.attacked(p.kingSq(us), us^1, p.occupied())
}

// Status implements rules.Position: Checkmate or Stalemate when the side to
// move has no legal move (drops from the current pocket count; the team
// variant's "any possible drop" mate definition is the adjudicator's
// business), else Ongoing.
func (p *Position) Status() rules.Status {
	var ml moveList
	p.genLegal(&ml)
	if ml.n > 0 {
		return rules.Ongoing
	}
	if p.InCheck() {
		return rules.Checkmate
	}
	return rules.Stalemate
}

// WithPocket returns a copy of p in which side c holds n pieces of kind k
// (drop variants: the partner's captures arrive this way). Arguments out of
// range (a colour other than White or Black, a kind other than Pawn…Queen,
// n outside 0…64) return an unchanged copy.
func (p *Position) WithPocket(c rules.Color, k rules.Kind, n int) *Position {
	q := *p
	if c <= rules.Black && k >= rules.Pawn && k <= rules.Queen && n >= 0 && n <= 64 {
		q.pocket[c][k] = uint8(n)
	}
	return &q
}

// String returns the FEN of p.
func (p *Position) String() string { return p.FEN() }
