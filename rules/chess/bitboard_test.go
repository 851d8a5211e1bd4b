package chess

import (
	"math/rand/v2"
	"testing"
)

// TestSliderAttacks checks the magic lookups against a square-by-square
// walk on random occupancies, and the line tables on a few known cases.
func TestSliderAttacks(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		s := r.IntN(64)
		occ := r.Uint64() & r.Uint64()
		if got, want := rookAttacks(s, occ), slowRookAttacks(s, occ); got != want {
			t.Fatalf("rook %s occ %#x: %#x, want %#x", sqName(s), occ, got, want)
		}
		if got, want := bishopAttacks(s, occ), slowBishopAttacks(s, occ); got != want {
			t.Fatalf("bishop %s occ %#x: %#x, want %#x", sqName(s), occ, got, want)
		}
	}
	tests := []struct {
		a, b          string
		between, line int // popcounts
	}{
		{"a1", "h8", 6, 8},
		{"a1", "a8", 6, 8},
		{"e1", "g1", 1, 8},
		{"b1", "c3", 0, 0},
		{"d4", "e5", 0, 8},
	}
	for _, tc := range tests {
		a, b := int(sq(tc.a)), int(sq(tc.b))
		if got := popcount(betweenBB[a][b]); got != tc.between {
			t.Errorf("between %s %s has %d squares, want %d", tc.a, tc.b, got, tc.between)
		}
		if got := popcount(lineBB[a][b]); got != tc.line {
			t.Errorf("line %s %s has %d squares, want %d", tc.a, tc.b, got, tc.line)
		}
	}
}
