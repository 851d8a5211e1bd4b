package board_test

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/dgtbridge/dgtbridge/internal/handsim"
)

// TestHandsimBusGuarantee: games of the independent hands on a board a
// bus line polls (every 40–400 ms, with jitter, answers now and then read
// late, a second look after a press or not), at any pace, with noise or
// not, the tracker's poll cycle the hall's or the line's own: the record
// equals the game played, or an open alert covers the difference; no
// game is stuck. go test plays the same 100 cases every run (fixedSeed);
// DGTBRIDGE_SIM_RANDOM=1 with -rapid.checks=N explores new ones.
func TestHandsimBusGuarantee(t *testing.T) {
	fixedSeed(t)
	rapid.Check(t, func(rt *rapid.T) {
		pace := handsim.Pace(rapid.IntRange(0, 2).Draw(rt, "pace"))
		o := handsim.Options{Start: simStart, Plies: rapid.IntRange(1, 50).Draw(rt, "plies"), Pace: pace,
			Noise: rapid.Bool().Draw(rt, "noise"), Polled: true}
		hall := rapid.Bool().Draw(rt, "hall cycle")
		g := handsim.Play(rapidRand{rt}, o)
		scan := g.Line.Cycle * 11 / 10
		if hall {
			scan = hallBusCycle
		}
		out := followBus(rt, g, scan)
		if out.stuck() {
			rt.Fatalf("%s game stuck on a line %+v (tracker cycle %v, %d answers with 4 presses or more): %s", pace, g.Line, scan, out.crowded, out)
		}
	})
}

// busSoakGame is game i of the bus soak: 60 plies, a third of them at
// blitz pace, noise in one in four; the tracker's poll cycle the hall's
// in even games, the line's own in odd ones.
func busSoakGame(i int) (handsim.Game, time.Duration) {
	r := rand.New(rand.NewPCG(uint64(i), 0xb5))
	g := handsim.Play(r, handsim.Options{Start: simStart, Plies: 60, Pace: handsim.Pace(i % 3), Noise: i%4 == 0, Polled: true})
	if i%2 == 0 {
		return g, hallBusCycle
	}
	return g, g.Line.Cycle * 11 / 10
}

// TestHandsimBusSoak plays polled boards' games (busSoakGame; as many as
// DGTBRIDGE_SIM_GAMES, else soakGames' default) and reports, per pace,
// records exact, differences covered by an open alert, games stuck (none
// allowed), and crit/warn alerts on games recorded exactly.
func TestHandsimBusSoak(t *testing.T) {
	n := soakGames(t)
	type tally struct{ games, plies, exact, covered, stuck, crowded int }
	var per [3]tally
	false_ := map[string]int{}
	for i := range n {
		g, scan := busSoakGame(i)
		out := followBus(t, g, scan)
		k := &per[i%3]
		k.games++
		k.plies += len(g.Plies)
		k.crowded += out.crowded
		switch {
		case out.exact():
			k.exact++
			if !out.reread() {
				for a, c := range out.falseAlerts() {
					false_[a] += c
				}
			}
		case out.stuck():
			k.stuck++
			t.Errorf("game %d (%s, line %+v, cycle %v) stuck: %s", i, handsim.Pace(i%3), g.Line, scan, out.brief())
		default:
			k.covered++
			t.Logf("game %d (%s, line %+v, cycle %v): %s", i, handsim.Pace(i%3), g.Line, scan, out.brief())
		}
	}
	exact := 0
	for p, k := range per {
		exact += k.exact
		t.Logf("%s: %d games, %d plies: %d exact, %d covered by an open alert, %d stuck; %d answers with 4 presses or more",
			handsim.Pace(p), k.games, k.plies, k.exact, k.covered, k.stuck, k.crowded)
	}
	keys := make([]string, 0, len(false_))
	for k := range false_ {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		t.Logf("  false %s: %d (%.3f per exact game)", k, false_[k], float64(false_[k])/float64(max(exact, 1)))
	}
}
