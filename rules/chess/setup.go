package chess

import (
	"strings"

	"github.com/dgtbridge/dgtbridge/rules"
)

// StartPosition returns the start position of v (Chess960: number 518, the
// standard set-up).
func StartPosition(v Variant) *Position {
	p, err := NewPosition(v, v.StartFEN())
	if err != nil {
		panic(err) // the start FENs are constants
	}
	return p
}

// chess960BackRank returns the white back rank of Chess960 position n
// (Scharnagl numbering, 0 ≤ n < 960) as piece letters, a-file first.
func chess960BackRank(n int) string {
	var r [8]byte
	r[2*(n%4)+1] = 'B' // light-squared bishop: b, d, f, h
	n /= 4
	r[2*(n%4)] = 'B' // dark-squared bishop: a, c, e, g
	n /= 4
	place := func(i int, c byte) { // on the i-th empty file
		for f := 0; f < 8; f++ {
			if r[f] == 0 {
				if i == 0 {
					r[f] = c
					return
				}
				i--
			}
		}
	}
	place(n%6, 'Q')
	n /= 6
	knights := [10][2]int{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}}[n]
	place(knights[1], 'N') // the later one first, so the earlier index stays valid
	place(knights[0], 'N')
	place(0, 'R')
	place(0, 'K')
	place(0, 'R')
	return string(r[:])
}

// Chess960Start returns Chess960 start position n (Scharnagl numbering
// 0…959; 518 is the standard set-up), with all four castling rights. It
// returns nil for n out of range.
func Chess960Start(n int) *Position {
	if n < 0 || n >= 960 {
		return nil
	}
	w := chess960BackRank(n)
	fen := strings.ToLower(w) + "/pppppppp/8/8/8/8/PPPPPPPP/" + w + " w KQkq - 0 1"
	p, err := NewPosition(Chess960, fen)
	if err != nil {
		panic(err)
	}
	return p
}

var chess960Numbers = func() map[string]int {
	m := make(map[string]int, 960)
	for n := 0; n < 960; n++ {
		m[chess960BackRank(n)] = n
	}
	return m
}()

// Chess960Number returns the Scharnagl number of pl when it is a complete
// Chess960 start array: all 32 pieces, pawns on the second and seventh
// ranks, a legal white back rank and black's mirrored. ok is false
// otherwise.
func Chess960Number(pl rules.Placement) (n int, ok bool) {
	if pl.Geo != rules.Chess8x8 {
		return 0, false
	}
	var back [8]byte
	for f := 0; f < 8; f++ {
		w, b := pl.Sq[f], pl.Sq[56+f]
		if w.Color != rules.White || b.Color != rules.Black || w.Kind != b.Kind || w.IsEmpty() || w.Kind == rules.Pawn {
			return 0, false
		}
		if pl.Sq[8+f] != (rules.Piece{Color: rules.White, Kind: rules.Pawn}) || pl.Sq[48+f] != (rules.Piece{Color: rules.Black, Kind: rules.Pawn}) {
			return 0, false
		}
		back[f] = w.Kind.Letter()
	}
	for s := 16; s < 48; s++ {
		if !pl.Sq[s].IsEmpty() {
			return 0, false
		}
	}
	n, ok = chess960Numbers[string(back[:])]
	return n, ok
}

// FromPlacement builds a position of variant v from what a board's sensors
// show and the side to move, for games started from a set-up position and
// for carrying on after an illegal position. Castling rights are inferred:
// a king on its first rank (on the e-file unless v plays by Chess960 rules)
// keeps the right with the outermost rook on each side of it (standard: a
// rook on the a- or h-file). There is no en-passant square, the clocks are
// 0 and 1, and pockets are empty (see WithPocket). Errors are *FENError
// (for instance when a side has no king).
func FromPlacement(v Variant, pl rules.Placement, turn rules.Color) (*Position, error) {
	if pl.Geo != rules.Chess8x8 {
		return nil, &FENError{FEN: pl.String(), Field: "placement", Reason: "not an 8×8 board"}
	}
	opts := v.Options()
	var rights []byte
	for c := rules.White; c <= rules.Black; c++ {
		back, lower := 0, byte(0)
		if c == rules.Black {
			back, lower = 7, 'a'-'A'
		}
		ksq := -1
		for f := 0; f < 8; f++ {
			if pl.Sq[back*8+f] == (rules.Piece{Color: c, Kind: rules.King}) {
				ksq = f
			}
		}
		if ksq < 0 || (!opts.Chess960 && ksq != 4) {
			continue
		}
		isRook := func(f int) bool { return pl.Sq[back*8+f] == (rules.Piece{Color: c, Kind: rules.Rook}) }
		for f := 7; f > ksq; f-- {
			if isRook(f) && (opts.Chess960 || f == 7) {
				rights = append(rights, byte('A'+f)+lower)
				break
			}
		}
		for f := 0; f < ksq; f++ {
			if isRook(f) && (opts.Chess960 || f == 0) {
				rights = append(rights, byte('A'+f)+lower)
				break
			}
		}
	}
	cs := "-"
	if len(rights) > 0 {
		cs = string(rights)
	}
	side := "w"
	if turn == rules.Black {
		side = "b"
	}
	place := pl.String()
	if opts.Drops {
		place += "[]"
	}
	return NewPositionOptions(v, opts, place+" "+side+" "+cs+" - 0 1")
}
