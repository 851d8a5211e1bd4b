package chess

import (
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
)

func mustPos(t testing.TB, v Variant, fen string) *Position {
	t.Helper()
	p, err := NewPosition(v, fen)
	if err != nil {
		t.Fatalf("NewPosition(%v, %q): %v", v, fen, err)
	}
	return p
}

func mustParse(t testing.TB, p *Position, s string) rules.Move {
	t.Helper()
	m, err := p.ParseMove(s)
	if err != nil {
		t.Fatalf("%s: ParseMove(%q): %v", p.FEN(), s, err)
	}
	return m
}

// playAll plays the moves (any notation) from p.
func playAll(t testing.TB, p *Position, moves ...string) *Position {
	t.Helper()
	for _, s := range moves {
		m := mustParse(t, p, s)
		q, err := p.PlayMove(m)
		if err != nil {
			t.Fatalf("%s: play %q: %v", p.FEN(), s, err)
		}
		p = q
	}
	return p
}

func uciList(p *Position) map[string]bool {
	out := map[string]bool{}
	for _, m := range p.LegalMoves(nil) {
		out[p.UCI(m)] = true
	}
	return out
}
