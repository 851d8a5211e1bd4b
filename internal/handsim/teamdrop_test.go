package handsim

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
	"github.com/dgtbridge/dgtbridge/rules/teamdrop"
)

// newMatch starts a match under the regulation's rule set.
func newMatch(t *testing.T) *teamdrop.Match {
	t.Helper()
	rs, err := ruleset.Lookup(ruleset.BGO2026Team)
	if err != nil {
		t.Fatal(err)
	}
	m, err := teamdrop.New(rs, "", "", t0)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestPlayTeamReachesTheMatch: each board's reports end in the match's
// position of that board, the plies are the match's, every one legal
// when its press came, the lever 0–400 ms after the release and each
// board's hands one move at a time; drops (some of a piece handed over
// just before) and removals are played.
func TestPlayTeamReachesTheMatch(t *testing.T) {
	drops, handed, removals, plies := 0, 0, 0, 0
	for seed := range uint64(40) {
		r := rand.New(rand.NewPCG(seed, 3))
		m := newMatch(t)
		o := TeamOptions{Start: t0, Plies: 50, Pace: Pace(seed % 3), Noise: seed%2 == 0, Bursts: seed%4 == 1}
		tm := PlayTeam(r, m, o)
		drops, handed, removals = drops+tm.Drops, handed+tm.Handed, removals+tm.Removals
		for i, g := range tm.Boards {
			b := teamdrop.Board(i)
			want := m.Plies(b)
			if len(g.Plies) != len(want) {
				t.Fatalf("seed %d board %s: %d plies played, the match recorded %d", seed, b, len(g.Plies), len(want))
			}
			plies += len(want)
			var last time.Time
			for j, p := range g.Plies {
				if p.UCI != want[j].UCI || !p.Press.Equal(want[j].At) || want[j].Illegal {
					t.Fatalf("seed %d board %s ply %d: played %s at %v, the match has %s at %v (illegal %v)", seed, b, j+1, p.UCI, p.Press, want[j].UCI, want[j].At, want[j].Illegal)
				}
				if d := p.Press.Sub(p.Release); d < 0 || d > 400*time.Millisecond {
					t.Fatalf("seed %d board %s ply %d: pressed %v after the release", seed, b, j+1, d)
				}
				if d := p.Release.Sub(last); j > 0 && d < 100*time.Millisecond {
					t.Fatalf("seed %d board %s ply %d: released %v after the previous press", seed, b, j+1, d)
				}
				last = p.Press
			}
			if got, want := final(g), m.Position(b).Placement(); got != want {
				t.Fatalf("seed %d board %s: the reports end in\n%s\nnot\n%s", seed, b, got.String(), want.String())
			}
			for k := 1; k < len(g.Inputs); k++ {
				if g.Inputs[k].At.Before(g.Inputs[k-1].At) {
					t.Fatalf("seed %d board %s: input %d before input %d", seed, b, k, k-1)
				}
			}
			faces := 0
			for _, in := range g.Inputs {
				if f, ok := in.Sensed.(game.ClockFace); ok {
					faces++
					if f.Left > (5*time.Minute) || f.Right > (5*time.Minute) {
						t.Fatalf("seed %d board %s: a clock shows %v / %v, more than %v", seed, b, f.Left, f.Right, (5 * time.Minute))
					}
				}
			}
			if faces == 0 {
				t.Fatalf("seed %d board %s: no clock face", seed, b)
			}
		}
	}
	if drops < 100 || handed == 0 || removals == 0 {
		t.Fatalf("%d drops (%d of a piece handed over less than 1.5 s before), %d removals in 40 matches: want drops of both kinds and removals", drops, handed, removals)
	}
	t.Logf("40 matches, %d plies: %d drops (%d of a piece just handed over), %d removals", plies, drops, handed, removals)
}
