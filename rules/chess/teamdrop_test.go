package chess

import (
	"math/rand/v2"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
)

// TestTeamDropProperties plays seeded random team-drop games, feeding the
// pockets as a partner would, and checks every legal move against the variant's
// rules (A2, A6 of docs/team-drop.md): no drop gives check, no drop on the last
// rank, no pawn drop on the first rank, no promotion, the own king is never
// left in check, the removal obligation is honoured, and SAN/UCI round-trip. No
// independent engine implements this variant, so the rules are checked one by
// one instead.
func TestTeamDropProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 2026))
	kinds := []rules.Kind{rules.Pawn, rules.Knight, rules.Bishop, rules.Rook, rules.Queen}
	positions, moves, drops, removals := 0, 0, 0, 0
	for g := 0; g < 20; g++ {
		p := StartPosition(TeamDrop)
		for ply := 0; ply < 120; ply++ {
			if r.IntN(3) == 0 {
				k := kinds[r.IntN(len(kinds))]
				p = p.WithPocket(p.Turn(), k, p.Pocket(p.Turn(), k)+1)
			}
			positions++
			us := int(p.turn)
			legal := p.LegalMoves(nil)
			stuck := p.stuckPawns()
			obliged := false
			for _, m := range legal {
				if m.Flags&rules.FlagRemove != 0 {
					obliged = true
				}
			}
			for _, m := range legal {
				moves++
				if m.Promo != rules.NoKind {
					t.Fatalf("%s: promotion %s", p.FEN(), p.UCI(m))
				}
				if obliged && m.Flags&rules.FlagRemove == 0 && stuck&sqBB(int(m.To)) == 0 {
					t.Fatalf("%s: %s ignores the removal obligation", p.FEN(), p.UCI(m))
				}
				q, err := p.PlayMove(m)
				if err != nil {
					t.Fatalf("%s: %s: %v", p.FEN(), p.UCI(m), err)
				}
				if q.attacked(q.kingSq(us), us^1, q.occupied()) {
					t.Fatalf("%s: %s leaves the king in check", p.FEN(), p.UCI(m))
				}
				if m.IsDrop() {
					drops++
					rank := rankOf(int(m.To))
					if us == black {
						rank = 7 - rank
					}
					if q.InCheck() || rank == 7 || (m.Drop == rules.Pawn && rank == 0) {
						t.Fatalf("%s: illegal drop %s allowed", p.FEN(), p.UCI(m))
					}
				}
				if m.Flags&rules.FlagRemove != 0 {
					removals++
				}
				if moves%8 != 0 {
					continue // notation round trips on a sample keep -race fast
				}
				for _, s := range []string{p.SAN(m), p.UCI(m)} {
					if back, err := p.ParseMove(s); err != nil || !back.SameAs(m) {
						t.Fatalf("%s: %q parses to %+v, %v", p.FEN(), s, back, err)
					}
				}
			}
			if stuck != 0 && !p.InCheck() {
				// Removal must be offered whenever lifting is legal (R6.5).
				for s := stuck; s != 0; s &= s - 1 {
					sqr := lsb(s)
					if !p.attacked(p.kingSq(us), us^1, p.occupied()^sqBB(sqr)) && !obliged {
						t.Fatalf("%s: removal of %s not offered", p.FEN(), sqName(sqr))
					}
				}
			}
			if len(legal) == 0 {
				break
			}
			// Prefer pawn advances so that pawns reach the last rank.
			m := legal[r.IntN(len(legal))]
			for _, c := range legal {
				if p.At(c.From).Kind == rules.Pawn && r.IntN(4) == 0 {
					m = c
					break
				}
			}
			p, _ = p.PlayMove(m)
		}
	}
	t.Logf("%d positions, %d moves, %d drops, %d removals", positions, moves, drops, removals)
	if drops == 0 || removals == 0 {
		t.Errorf("the random games exercised no drops (%d) or no removals (%d)", drops, removals)
	}
}
