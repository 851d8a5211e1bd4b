package chess

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/dgtbridge/dgtbridge/rules"
)

// ErrFEN is the sentinel every *FENError matches with errors.Is.
var ErrFEN = errors.New("chess: bad FEN")

// FENError says which field of a FEN is wrong and why.
type FENError struct {
	FEN    string // the whole input
	Field  string // "placement", "pocket", "side", "castling", "en passant", "halfmove", "fullmove", "position"
	Reason string
}

// Error implements error.
func (e *FENError) Error() string {
	return fmt.Sprintf("chess: bad FEN %q: %s: %s", e.FEN, e.Field, e.Reason)
}

// Unwrap returns ErrFEN.
func (e *FENError) Unwrap() error { return ErrFEN }

// NewPosition parses fen in the dialect of variant v with v's default
// options. See NewPositionOptions.
func NewPosition(v Variant, fen string) (*Position, error) {
	return NewPositionOptions(v, v.Options(), fen)
}

// NewPositionOptions parses fen as a position of variant v played under
// opts. It accepts:
//
//   - 1 to 6 fields; missing ones default to "w - - 0 1";
//   - castling as KQkq (X-FEN: the outermost rook on that side of the king),
//     Shredder-FEN file letters (HAha) or a mix, in every variant;
//   - pockets as "[QRbp]" after the placement or as a ninth rank
//     ("…/RNBQKBNR/Qn"), with "~" after a piece marking it promoted (drop
//     variants);
//   - positions a physical board can show after an illegal move stood: the
//     side not to move in check, pawns on the first or last rank.
//
// It requires exactly one king per side. An en-passant square is kept only
// when a pawn of the side to move stands next to the pawn that double
// stepped. Errors are *FENError.
func NewPositionOptions(v Variant, opts Options, fen string) (*Position, error) {
	p := &Position{variant: v, opts: opts, ep: -1, full: 1}
	p.castle = [2][2]int8{{-1, -1}, {-1, -1}}
	if fault := p.parseFEN(fen); fault != nil {
		return nil, &FENError{FEN: fen, Field: fault.field, Reason: fault.reason}
	}
	return p, nil
}

// fenFault names the field of a FEN that is wrong and why; the parsing
// steps return it and NewPositionOptions wraps it in a *FENError.
type fenFault struct{ field, reason string }

func faultf(field, format string, args ...any) *fenFault {
	return &fenFault{field: field, reason: fmt.Sprintf(format, args...)}
}

// parseFEN fills p from the fields of fen, in order.
func (p *Position) parseFEN(fen string) *fenFault {
	f := strings.Fields(fen)
	if len(f) == 0 {
		return faultf("placement", "empty")
	}
	if len(f) > 6 {
		return faultf("position", "%d fields, want at most 6", len(f))
	}
	if fault := p.parsePlacement(f[0]); fault != nil {
		return fault
	}
	side := "w"
	if len(f) > 1 {
		side = f[1]
	}
	switch side {
	case "w":
	case "b":
		p.turn = black
	default:
		return faultf("side", "%q, want w or b", side)
	}
	if len(f) > 2 && f[2] != "-" {
		if err := p.parseCastling(f[2]); err != "" {
			return faultf("castling", "%s", err)
		}
	}
	if len(f) > 3 && f[3] != "-" {
		if fault := p.parseEnPassant(f[3]); fault != nil {
			return fault
		}
	}
	if len(f) > 4 {
		n, err := strconv.Atoi(f[4])
		if err != nil || n < 0 || n > 1<<20 {
			return faultf("halfmove", "%q is not a move count", f[4])
		}
		p.half = int32(n)
	}
	if len(f) > 5 {
		n, err := strconv.Atoi(f[5])
		if err != nil || n < 0 || n > 1<<20 {
			return faultf("fullmove", "%q is not a move number", f[5])
		}
		p.full = int32(max(n, 1))
	}
	return nil
}

// parsePlacement reads the placement field with its pocket (in brackets or
// as a ninth rank) and checks that each side has one king.
func (p *Position) parsePlacement(placement string) *fenFault {
	pocket, hasPocket := "", false
	if i := strings.IndexByte(placement, '['); i >= 0 {
		if !strings.HasSuffix(placement, "]") {
			return faultf("pocket", "missing ]")
		}
		placement, pocket, hasPocket = placement[:i], placement[i+1:len(placement)-1], true
	}
	ranks := strings.Split(placement, "/")
	if len(ranks) == 9 && !hasPocket {
		pocket, hasPocket = ranks[8], true
		ranks = ranks[:8]
	}
	if len(ranks) != 8 {
		return faultf("placement", "%d ranks, want 8", len(ranks))
	}
	for i, row := range ranks {
		if fault := p.parseRank(7-i, row); fault != nil {
			return fault
		}
	}
	if hasPocket {
		if fault := p.parsePocket(pocket); fault != nil {
			return fault
		}
	}
	for c := 0; c < 2; c++ {
		if n := popcount(p.bb[c][king]); n != 1 {
			return faultf("placement", "%s has %d kings, want 1", rules.Color(c), n)
		}
	}
	return nil
}

// parseRank puts the pieces of one rank (r counted from 0, White's first)
// on the board; "~" after a piece marks it promoted.
func (p *Position) parseRank(r int, row string) *fenFault {
	file := 0
	for j := 0; j < len(row); j++ {
		ch := row[j]
		switch {
		case ch >= '1' && ch <= '8':
			file += int(ch - '0')
		case ch == '~':
			if file == 0 || p.board[r*8+file-1] == 0 || int(p.board[r*8+file-1]&7) == king {
				return faultf("placement", "rank %d: '~' not after a piece", r+1)
			}
			p.promoted |= sqBB(r*8 + file - 1)
		default:
			pce, ok := rules.PieceFromLetter(ch)
			if !ok || pce.Kind > rules.King {
				return faultf("placement", "rank %d: bad character %q", r+1, ch)
			}
			if file >= 8 {
				return faultf("placement", "rank %d has more than 8 files", r+1)
			}
			p.put(int(pce.Color), int(pce.Kind), r*8+file)
			file++
		}
		if file > 8 {
			return faultf("placement", "rank %d has more than 8 files", r+1)
		}
	}
	if file != 8 {
		return faultf("placement", "rank %d has %d files, want 8", r+1, file)
	}
	return nil
}

// parsePocket reads the pieces in hand (drop variants only).
func (p *Position) parsePocket(pocket string) *fenFault {
	if !p.opts.Drops && pocket != "" {
		return faultf("pocket", "pieces in hand in a variant without drops")
	}
	for j := 0; j < len(pocket); j++ {
		pce, ok := rules.PieceFromLetter(pocket[j])
		if !ok || pce.Kind > rules.Queen {
			return faultf("pocket", "bad piece %q", pocket[j])
		}
		if p.pocket[pce.Color][pce.Kind] == 64 {
			return faultf("pocket", "too many pieces")
		}
		p.pocket[pce.Color][pce.Kind]++
	}
	return nil
}

// parseEnPassant reads the en-passant square (after the side to move is
// known) and keeps it only when it matters: the double-stepped pawn is
// there, the squares it crossed are empty and a pawn may take.
func (p *Position) parseEnPassant(field string) *fenFault {
	s, err := rules.Chess8x8.ParseSquare(field)
	want := 5
	if p.turn == black {
		want = 2
	}
	if err != nil || rankOf(int(s)) != want {
		return faultf("en passant", "%q is not a square on rank %d", field, want+1)
	}
	ep := int(s)
	capSq := ep - 8
	if p.turn == black {
		capSq = ep + 8
	}
	them := int(p.turn) ^ 1
	from := 2*ep - capSq
	if p.bb[them][pawn]&sqBB(capSq) != 0 && p.occupied()&(sqBB(ep)|sqBB(from)) == 0 &&
		pawnAttacks[them][ep]&p.bb[p.turn][pawn] != 0 {
		p.ep = int8(ep)
	}
	return nil
}

// parseCastling reads a KQkq / X-FEN / Shredder-FEN castling field; it
// returns a reason on error.
func (p *Position) parseCastling(s string) string {
	for j := 0; j < len(s); j++ {
		ch := s[j]
		c := white
		if ch >= 'a' && ch <= 'z' {
			c = black
			ch -= 'a' - 'A'
		}
		back := 0
		if c == black {
			back = 56
		}
		ksq := p.kingSq(c)
		if rankOf(ksq) != rankOf(back) {
			return fmt.Sprintf("%q: the %s king is not on its first rank", s[j], rules.Color(c))
		}
		rooks := p.bb[c][rook] & (rank1 << uint(back))
		var rsq int = -1
		switch {
		case ch == 'K':
			for f := 7; f > fileOf(ksq); f-- {
				if rooks&sqBB(back+f) != 0 {
					rsq = back + f
					break
				}
			}
		case ch == 'Q':
			for f := 0; f < fileOf(ksq); f++ {
				if rooks&sqBB(back+f) != 0 {
					rsq = back + f
					break
				}
			}
		case ch >= 'A' && ch <= 'H':
			if rooks&sqBB(back+int(ch-'A')) != 0 {
				rsq = back + int(ch-'A')
			}
		default:
			return fmt.Sprintf("bad character %q", s[j])
		}
		if rsq < 0 || rsq == ksq {
			return fmt.Sprintf("%q: no %s rook to castle with", s[j], rules.Color(c))
		}
		side := castleSide(ksq, rsq)
		if p.castle[c][side] >= 0 && int(p.castle[c][side]) != rsq {
			return fmt.Sprintf("%q: two rights on one side", s[j])
		}
		p.castle[c][side] = int8(rsq)
	}
	return ""
}

// FEN implements rules.Position. Drop variants write the pocket in
// brackets ("[Qn]", White's pieces first) and mark promoted pieces with
// "~"; Chess960 writes X-FEN castling (KQkq for the outermost rook, file
// letters otherwise).
func (p *Position) FEN() string {
	var b strings.Builder
	b.Grow(90)
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := 0; f < 8; f++ {
			s := r*8 + f
			x := p.board[s]
			if x == 0 {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteByte(toPiece(x).Letter())
			if p.promoted&sqBB(s) != 0 {
				b.WriteByte('~')
			}
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	if p.opts.Drops {
		b.WriteByte('[')
		for c := 0; c < 2; c++ {
			for _, k := range []int{queen, rook, bishop, knight, pawn} {
				for n := 0; n < int(p.pocket[c][k]); n++ {
					b.WriteByte(toPiece(pc(c, k)).Letter())
				}
			}
		}
		b.WriteByte(']')
	}
	if p.turn == white {
		b.WriteString(" w ")
	} else {
		b.WriteString(" b ")
	}
	b.WriteString(p.castlingField())
	b.WriteByte(' ')
	b.WriteString(rules.Chess8x8.Name(rules.Square(p.ep)))
	fmt.Fprintf(&b, " %d %d", p.half, p.full)
	return b.String()
}

func (p *Position) castlingField() string {
	var out []byte
	for c := 0; c < 2; c++ {
		for _, side := range [2]int{hSide, aSide} {
			rsq := int(p.castle[c][side])
			if rsq < 0 {
				continue
			}
			letter := byte('K')
			if side == aSide {
				letter = 'Q'
			}
			// Outermost rook on that side? Otherwise name the file.
			back := rsq &^ 7
			ksq := p.kingSq(c)
			var beyond bitboard
			if side == hSide {
				beyond = betweenBB[rsq][back+7] | sqBB(back+7)
			} else {
				beyond = betweenBB[rsq][back] | sqBB(back)
			}
			beyond &^= sqBB(rsq)
			if p.bb[c][rook]&beyond != 0 && rsq != ksq {
				letter = byte('A' + fileOf(rsq))
			}
			if c == black {
				letter += 'a' - 'A'
			}
			out = append(out, letter)
		}
	}
	if len(out) == 0 {
		return "-"
	}
	return string(out)
}
