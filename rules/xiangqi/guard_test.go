package xiangqi

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
)

// oracleLegal lists the legal moves of p by brute force, independently of
// the generator and its guard: every pair of points whose move passes the
// piece rule (pieceReason), captures no general and leaves the own general
// neither attacked nor facing the other (reason).
func oracleLegal(p *Position) []string {
	var out []string
	for from := 0; from < nPoints; from++ {
		x := p.board[from]
		if x == 0 || colorOf(x) != int(p.turn) {
			continue
		}
		for to := 0; to < nPoints; to++ {
			m := rules.Move{From: rules.Square(from), To: rules.Square(to)}
			if p.reason(m) == rules.ReasonUnknown {
				out = append(out, p.UCI(m))
			}
		}
	}
	slices.Sort(out)
	return out
}

// randomPlacement returns a position with the two generals somewhere in
// their palaces and n other pieces of random kinds and sides on random
// points (soldiers and elephants anywhere, as after illegal moves that
// stood), the side to move at random. Such positions are full of checks,
// pins by chariots, cannons with one, two or three screens, blocked and
// unblocked horse legs and facing generals.
func randomPlacement(r *rand.Rand, n int) *Position {
	for {
		var b [nPoints]uint8
		palace := func(c int) int {
			for {
				s := r.IntN(nPoints)
				if inPalace(c, s) {
					return s
				}
			}
		}
		b[palace(0)] = code(0, general)
		b[palace(1)] = code(1, general)
		kinds := []uint8{chariot, cannon, horse, soldier, advisor, elephant, chariot, cannon, horse}
		for i := 0; i < n; i++ {
			s := r.IntN(nPoints)
			if b[s] == 0 {
				b[s] = code(r.IntN(2), kinds[r.IntN(len(kinds))])
			}
		}
		p := &Position{board: b, turn: rules.Color(r.IntN(2)), full: 1}
		for s, x := range b {
			if x == 0 {
				continue
			}
			p.occ[colorOf(x)].set(s)
			if x&kindMask == general {
				p.gen[colorOf(x)] = int8(s)
			}
		}
		p.hash = p.computeHash()
		// The side not to move must not be in check or facing: the side to
		// move would take the general, a position no game reaches.
		them := int(p.turn) ^ 1
		if attacked(&p.board, int(p.gen[them]), them^1) || facing(&p.board, int(p.gen[0]), int(p.gen[1])) {
			continue
		}
		return p
	}
}

// TestGeneratorAgainstOracle: the guarded generator (pins, risky points,
// tested general moves and checks) lists exactly the brute-force legal
// moves, and the leaf count agrees, on random game positions, positions
// after random illegal moves stood, and random placements.
func TestGeneratorAgainstOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(2026, 16))
	var positions []*Position
	games := randomPositions(r, 20, 120)
	for i, p := range games {
		if i%3 == 0 {
			positions = append(positions, p)
		}
	}
	// Illegal moves that stood (RB 4.3): a random piece moved to a random
	// point it may not reach, then play on.
	for i := 0; i < 300; i++ {
		p := games[r.IntN(len(games))]
		from, to := rules.Square(r.IntN(nPoints)), rules.Square(r.IntN(nPoints))
		if q, err := p.PlayIllegalMove(rules.Move{From: from, To: to}); err == nil && !attacked(&q.board, int(q.gen[q.turn^1]), int(q.turn)) {
			positions = append(positions, q)
		}
	}
	placements := 20000
	if testing.Short() {
		placements = 3000
	}
	checks, pins := 0, 0
	for i := 0; i < placements; i++ {
		positions = append(positions, randomPlacement(r, 4+r.IntN(24)))
	}
	for _, p := range positions {
		want := oracleLegal(p)
		got := legalICCS(p, "")
		if !slices.Equal(got, want) {
			t.Fatalf("%s:\n generator %v\n oracle    %v", p.FEN(), got, want)
		}
		if n := p.countLegal(); n != len(want) {
			t.Fatalf("%s: countLegal %d, oracle %d moves", p.FEN(), n, len(want))
		}
		gd := guardOf(&p.board, int(p.turn), p.gen)
		if gd.check {
			checks++
		}
		if gd.pinned != (bitset{}) {
			pins++
		}
	}
	if checks < len(positions)/10 || pins < len(positions)/10 {
		t.Errorf("only %d checks and %d positions with pins among %d: the sample misses the guard's cases", checks, pins, len(positions))
	}
	t.Logf("%d positions (%d in check, %d with pinned pieces) agree with the oracle", len(positions), checks, pins)
}
