package dgt

import (
	"fmt"

	"github.com/dgtbridge/dgtbridge/rules"
)

// Field is a square in the board's own numbering: 0 = a8, 7 = h8,
// 56 = a1, 63 = h1 when the board is in its normal orientation (White sits
// with the board's connector on the left).
type Field uint8

// NumFields is the number of squares of a chess e-board.
const NumFields = 64

// Valid reports whether f is a square of the board (0–63).
func (f Field) Valid() bool { return f < NumFields }

// Name returns the algebraic name of f in the normal orientation ("a8" for
// 0), as the captures' JSON files write it; "-" when f is not valid.
func (f Field) Name() string {
	if !f.Valid() {
		return "-"
	}
	return string([]byte{'a' + byte(f%8), '8' - byte(f/8)})
}

// String returns [Field.Name].
func (f Field) String() string { return f.Name() }

// ParseField parses an algebraic name in the normal orientation.
func ParseField(name string) (Field, error) {
	if len(name) != 2 || name[0] < 'a' || name[0] > 'h' || name[1] < '1' || name[1] > '8' {
		return 0, fmt.Errorf("dgt: bad field name %q", name)
	}
	return Field(name[0]-'a') + 8*Field('8'-name[1]), nil
}

// Orientation says how the board is placed relative to the players.
type Orientation uint8

// Orientations. Rotated: the board is turned by 180°, so field i holds the
// square of field 63-i in normal orientation.
const (
	Normal Orientation = iota
	Rotated
)

// String returns "normal" or "rotated".
func (o Orientation) String() string {
	if o == Rotated {
		return "rotated"
	}
	return "normal"
}

// Square returns the chess square ([rules.Chess8x8] numbering: a1 = 0,
// h8 = 63) that field f denotes in orientation o. f must be valid;
// otherwise the result is rules.NoSquare.
func (f Field) Square(o Orientation) rules.Square {
	if !f.Valid() {
		return rules.NoSquare
	}
	if o == Rotated {
		f ^= 63
	}
	return rules.Square(int(f%8) + 8*(7-int(f/8)))
}

// FieldOf is the inverse of [Field.Square]: the field that reports square
// s in orientation o. ok is false when s is not on an 8×8 board.
func FieldOf(s rules.Square, o Orientation) (f Field, ok bool) {
	if s < 0 || s >= 64 {
		return 0, false
	}
	f = Field(int(s)%8 + 8*(7-int(s)/8))
	if o == Rotated {
		f ^= 63
	}
	return f, true
}
