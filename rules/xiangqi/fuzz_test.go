package xiangqi

import (
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
)

// FuzzParseFEN: no input panics; an accepted FEN writes a FEN that parses
// to the same position.
func FuzzParseFEN(f *testing.F) {
	for _, tc := range perftCases {
		f.Add(tc.fen)
	}
	f.Add("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r")
	f.Add("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 0")
	f.Add("9/9/9/9/9/9/9/9/9/9")
	f.Fuzz(func(t *testing.T, fen string) {
		p, err := NewPosition(fen)
		if err != nil {
			return
		}
		q, err := NewPosition(p.FEN())
		if err != nil {
			t.Fatalf("%q → %q does not parse: %v", fen, p.FEN(), err)
		}
		if q.FEN() != p.FEN() || q.RepetitionKey() != p.RepetitionKey() {
			t.Fatalf("%q → %q → %q", fen, p.FEN(), q.FEN())
		}
		p.LegalMoves(nil)
		p.Status()
	})
}

// FuzzParseMove: no move text panics in any dialect; a parsed move is
// legal.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"h2e2", "H2-E2", "P2-5", "M8.7", "Xt.1", "Bg-6", "Tg.1", "Tg5-6", "C2=5", "R+.3", "P3+1", "Ss.5", "", "T", "Tg", "X9", "e0e9"} {
		for d := uint8(0); d < 3; d++ {
			f.Add(s, d)
		}
	}
	positions := []*Position{
		StartPosition(),
		mustPos(f, "3k5/4P4/4P4/4P4/9/9/9/9/9/4K4 w - - 0 1"),
		mustPos(f, "3k5/9/9/9/9/R8/9/R8/9/4K4 w - - 0 1"),
	}
	f.Fuzz(func(t *testing.T, s string, d uint8) {
		for _, p := range positions {
			m, err := p.ParseMoveDialect(s, Dialect(d%4))
			if err != nil {
				continue
			}
			if err := p.Check(m); err != nil {
				t.Fatalf("%q parsed to an illegal move %v: %v", s, m, err)
			}
			_ = p.Notation(m, Dialect(d%4))
		}
		_ = positions[0].Notation(rules.Move{From: rules.Square(len(s)) - 3, To: rules.Square(d) - 10}, Dialect(d))
	})
}
