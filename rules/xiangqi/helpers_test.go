package xiangqi

import (
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
)

func mustPos(t testing.TB, fen string) *Position {
	t.Helper()
	p, err := NewPosition(fen)
	if err != nil {
		t.Fatalf("NewPosition(%q): %v", fen, err)
	}
	return p
}

// iccs parses "h2e2" into a move (no flags), failing the test on bad text.
func iccs(t testing.TB, s string) rules.Move {
	t.Helper()
	m, ok := parseICCS(s)
	if !ok {
		t.Fatalf("bad ICCS %q", s)
	}
	return m
}

// legalICCS returns the sorted ICCS texts of p's legal moves, those from
// the point from only when from is not empty.
func legalICCS(p *Position, from string) []string {
	var out []string
	for _, m := range p.LegalMoves(nil) {
		u := p.UCI(m)
		if from == "" || u[:2] == from {
			out = append(out, u)
		}
	}
	sort.Strings(out)
	return out
}

// randomPositions plays seeded random games from the start and returns
// every position met (captures preferred half of the time, so that the
// games reach sparse, tactical positions).
func randomPositions(r *rand.Rand, games, plies int) []*Position {
	var out []*Position
	buf := make([]rules.Move, 0, maxMoves)
	for g := 0; g < games; g++ {
		p := StartPosition()
		for ply := 0; ply < plies; ply++ {
			out = append(out, p)
			ms := p.LegalMoves(buf[:0])
			if len(ms) == 0 {
				break
			}
			m := ms[r.IntN(len(ms))]
			if r.IntN(2) == 0 {
				for _, c := range ms {
					if c.IsCapture() {
						m = c
						break
					}
				}
			}
			q, err := p.PlayMove(m)
			if err != nil {
				panic(err)
			}
			p = q
		}
	}
	return out
}
