package xiangqi

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/dgtbridge/dgtbridge/rules"
)

// ErrFEN is the sentinel every *FENError matches with errors.Is.
var ErrFEN = errors.New("xiangqi: bad FEN")

// FENError says which field of a FEN is wrong and why.
type FENError struct {
	FEN    string // the whole input
	Field  string // "placement", "side", "castling", "en passant", "halfmove", "fullmove", "position"
	Reason string
}

// Error implements error.
func (e *FENError) Error() string {
	return fmt.Sprintf("xiangqi: bad FEN %q: %s: %s", e.FEN, e.Field, e.Reason)
}

// Unwrap returns ErrFEN.
func (e *FENError) Unwrap() error { return ErrFEN }

// NewPosition parses fen with default options. See NewPositionOptions.
func NewPosition(fen string) (*Position, error) {
	return NewPositionOptions(fen, Options{})
}

// NewPositionOptions parses a xiangqi FEN (docs/xiangqi.md, "Board, pieces,
// FEN") and returns the position with options opts. It accepts:
//
//   - 1 to 6 fields; missing ones default to "w - - 0 1";
//   - ten ranks from Black's back rank (rank 9) down to Red's (rank 0);
//   - piece letters K A B/E N/H R C P, upper case Red, lower case Black
//     (the xqbase/Fairy-Stockfish letters and the WXF/CPW ones);
//   - the side as "w" or "r" (Red) or "b" (Black);
//   - "-" for the castling and en-passant fields (anything else is an
//     error: xiangqi has neither);
//   - positions a physical board can show after an illegal move stood
//     (RB 4): the side not to move in check, generals
//     facing, pieces off their usual points, even a general outside its
//     palace (RB 4.3 has it corrected, but until then it is on the board).
//
// It requires exactly one general per side.
// Errors are *FENError.
func NewPositionOptions(fen string, opts Options) (*Position, error) {
	bad := func(field, format string, args ...any) (*Position, error) {
		return nil, &FENError{FEN: fen, Field: field, Reason: fmt.Sprintf(format, args...)}
	}
	f := strings.Fields(fen)
	if len(f) == 0 {
		return bad("placement", "empty")
	}
	if len(f) > 6 {
		return bad("position", "%d fields, want at most 6", len(f))
	}
	def := []string{"", "w", "-", "-", "0", "1"}
	f = append(f, def[len(f):]...)
	p := &Position{opts: opts, gen: [2]int8{-1, -1}}
	ranks := strings.Split(f[0], "/")
	if len(ranks) != nRanks {
		return bad("placement", "%d ranks, want 10", len(ranks))
	}
	for i, row := range ranks {
		if reason := p.placeRank(nRanks-1-i, row); reason != "" {
			return bad("placement", "%s", reason)
		}
	}
	for c := 0; c < 2; c++ {
		if p.gen[c] < 0 {
			return bad("placement", "no %s general", rules.Color(c))
		}
	}
	switch f[1] {
	case "w", "r":
		p.turn = rules.White
	case "b":
		p.turn = rules.Black
	default:
		return bad("side", "%q, want w, r or b", f[1])
	}
	if f[2] != "-" {
		return bad("castling", "%q, xiangqi has no castling: want -", f[2])
	}
	if f[3] != "-" {
		return bad("en passant", "%q, xiangqi has no en passant: want -", f[3])
	}
	half, err := strconv.Atoi(f[4])
	if err != nil || half < 0 || half > 1<<20 {
		return bad("halfmove", "%q is not a count", f[4])
	}
	full, err := strconv.Atoi(f[5])
	if err != nil || full < 0 || full > 1<<20 {
		return bad("fullmove", "%q is not a move number", f[5])
	}
	if full == 0 {
		full = 1
	}
	p.half, p.full = int32(half), int32(full)
	p.hash = p.computeHash()
	return p, nil
}

// placeRank puts the pieces of rank r (0 is Red's back rank) on the board
// and notes the generals; it returns why the rank is wrong, or "".
func (p *Position) placeRank(r int, row string) string {
	file := 0
	for j := 0; j < len(row); j++ {
		c := row[j]
		if c >= '1' && c <= '9' {
			file += int(c - '0')
			if file > nFiles {
				return fmt.Sprintf("rank %d has more than 9 points", r)
			}
			continue
		}
		x, ok := pieceFromLetter(c)
		if !ok {
			return fmt.Sprintf("bad piece letter %q on rank %d", c, r)
		}
		if file >= nFiles {
			return fmt.Sprintf("rank %d has more than 9 points", r)
		}
		s := point(file, r)
		p.board[s] = x
		p.occ[colorOf(x)].set(s)
		if x&kindMask == general {
			c := colorOf(x)
			if p.gen[c] >= 0 {
				return fmt.Sprintf("two %s generals", rules.Color(c))
			}
			p.gen[c] = int8(s)
		}
		file++
	}
	if file != nFiles {
		return fmt.Sprintf("rank %d has %d points, want 9", r, file)
	}
	return ""
}

// pieceFromLetter maps a FEN letter to a piece code: K A B E N H R C P,
// upper case Red.
func pieceFromLetter(c byte) (uint8, bool) {
	side := 0
	if c >= 'a' && c <= 'z' {
		side = 1
		c -= 'a' - 'A'
	}
	var k uint8
	switch c {
	case 'K':
		k = general
	case 'A':
		k = advisor
	case 'B', 'E':
		k = elephant
	case 'N', 'H':
		k = horse
	case 'R':
		k = chariot
	case 'C':
		k = cannon
	case 'P':
		k = soldier
	default:
		return 0, false
	}
	return code(side, k), true
}

// fenLetters are the letters FEN writes, indexed by kind (xqbase and
// Fairy-Stockfish: B for the elephant, N for the horse).
var fenLetters = [...]byte{soldier: 'P', horse: 'N', chariot: 'R', general: 'K', advisor: 'A', elephant: 'B', cannon: 'C'}

// FEN implements rules.Position, in the xqbase/Fairy-Stockfish dialect:
// "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1".
func (p *Position) FEN() string {
	var b strings.Builder
	for r := nRanks - 1; r >= 0; r-- {
		empty := 0
		for f := 0; f < nFiles; f++ {
			x := p.board[point(f, r)]
			if x == 0 {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			l := fenLetters[x&kindMask]
			if colorOf(x) == 1 {
				l += 'a' - 'A'
			}
			b.WriteByte(l)
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	side := "w"
	if p.turn == rules.Black {
		side = "b"
	}
	fmt.Fprintf(&b, " %s - - %d %d", side, p.half, p.full)
	return b.String()
}
