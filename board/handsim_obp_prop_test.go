package board_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/dgtbridge/dgtbridge/internal/handsim"
)

// TestHandsimOBPGuarantee: xiangqi games of the independent hands on an
// OBP board (lines at each lift and put, the clock's at each press and
// every second), at any pace, naming its pieces or sensing occupancy
// only, with sensor chatter or not: the record equals the game played, or
// an open alert covers the difference; no game is stuck. go test plays
// the same 100 cases every run (fixedSeed).
func TestHandsimOBPGuarantee(t *testing.T) {
	fixedSeed(t)
	rapid.Check(t, func(rt *rapid.T) {
		pace := handsim.Pace(rapid.IntRange(0, 2).Draw(rt, "pace"))
		o := handsim.Options{Start: simStart, Plies: rapid.IntRange(1, 50).Draw(rt, "plies"), Pace: pace, Xiangqi: true,
			Occupancy: rapid.Bool().Draw(rt, "occupancy"), Noise: rapid.Bool().Draw(rt, "noise")}
		g := handsim.Play(rapidRand{rt}, o)
		out := followOBP(rt, g, obpRuleSet(pace))
		if out.stuck() {
			rt.Fatalf("%s xiangqi game stuck (occupancy %v): %s", pace, o.Occupancy, out)
		}
	})
}

// obpSoakGame is game i of the OBP soak: xiangqi, 60 plies, a third at
// blitz pace, half the boards (three games in six, every pace) sensing
// occupancy only, chatter in one in four.
func obpSoakGame(i int) (handsim.Game, handsim.Options) {
	o := handsim.Options{Start: simStart, Plies: 60, Pace: handsim.Pace(i % 3), Xiangqi: true, Occupancy: (i/3)%2 == 1, Noise: i%4 == 0}
	return handsim.Play(rand.New(rand.NewPCG(uint64(i), 0x0b9)), o), o
}

// TestHandsimOBPSoak plays OBP boards' xiangqi games (obpSoakGame; as many
// as DGTBRIDGE_SIM_GAMES, else soakGames' default) and reports, per pace,
// records exact, differences covered by an open alert, games stuck (none
// allowed), and crit/warn alerts on games recorded exactly.
func TestHandsimOBPSoak(t *testing.T) {
	n := soakGames(t)
	type tally struct{ games, plies, exact, covered, stuck, unnamed int }
	var per [3]tally
	false_ := map[string]int{}
	for i := range n {
		g, o := obpSoakGame(i)
		out := followOBP(t, g, obpRuleSet(o.Pace))
		k := &per[i%3]
		k.games++
		k.plies += len(g.Plies)
		k.unnamed += out.unnamed
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
			t.Errorf("game %d (%s, occupancy %v) stuck: %s", i, o.Pace, o.Occupancy, out.brief())
		default:
			k.covered++
			t.Logf("game %d (%s, occupancy %v): %s", i, o.Pace, o.Occupancy, out.brief())
		}
	}
	exact := 0
	for p, k := range per {
		exact += k.exact
		t.Logf("%s: %d games, %d plies: %d exact, %d covered by an open alert, %d stuck; %d lines with a piece not named",
			handsim.Pace(p), k.games, k.plies, k.exact, k.covered, k.stuck, k.unnamed)
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
