package teamdrop

import (
	"fmt"

	"github.com/dgtbridge/dgtbridge/rules"
)

// Board is one of the two partner boards of a match.
type Board uint8

// The boards: A is board 1, B board 2.
const (
	A Board = iota
	B
)

// Partner returns the other board.
func (b Board) Partner() Board { return b ^ 1 }

// String returns "A" or "B", the BPGN board letter.
func (b Board) String() string {
	if b == B {
		return "B"
	}
	return "A"
}

// Side is one player of the match: a board and a colour.
type Side struct {
	Board Board
	Color rules.Color
}

// Partner returns the side's partner: the other board, the other colour
// (A1).
func (s Side) Partner() Side { return Side{s.Board.Partner(), s.Color.Other()} }

// Opponent returns the side across the same board.
func (s Side) Opponent() Side { return Side{s.Board, s.Color.Other()} }

// Team returns 0 for the team of White on A and Black on B, 1 for the
// other.
func (s Side) Team() int {
	if (s.Board == A) == (s.Color == rules.White) {
		return 0
	}
	return 1
}

// String returns e.g. "White on board A".
func (s Side) String() string {
	c := "White"
	if s.Color == rules.Black {
		c = "Black"
	}
	return fmt.Sprintf("%s on board %s", c, s.Board)
}

// winFor returns the result string of a win by c.
func winFor(c rules.Color) string {
	if c == rules.White {
		return "1-0"
	}
	return "0-1"
}

// Draw is the drawn result.
const Draw = "1/2-1/2"

// flip returns a board result seen from the partner board, whose colours
// are reversed: a team's win on one board is its win on the other.
func flip(result string) string {
	switch result {
	case "1-0":
		return "0-1"
	case "0-1":
		return "1-0"
	}
	return result
}
