package board_test

import (
	"flag"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"pgregory.net/rapid"

	"github.com/dgtbridge/dgtbridge/internal/handsim"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// teamChecks is the number of cases the team-drop property test plays in
// go test when -rapid.checks is left at its default: a match is two games
// and costs about ten single-board cases.
const teamChecks = 12

// TestHandsimTeamGuarantee: team-drop matches of the independent hands
// (two boards at once, captures feeding the partner's pockets, drops of
// pieces handed over, removals of a pawn on the last rank), at any pace,
// with noise and bursts, followed by the hall's wiring of a match: on each
// board the record equals the game played, or an open alert covers the
// difference; no game is stuck. go test plays the same cases every run
// (fixedSeed); DGTBRIDGE_SIM_RANDOM=1 with -rapid.checks=N explores new
// ones.
func TestHandsimTeamGuarantee(t *testing.T) {
	fixedSeed(t)
	fewerChecks(t, teamChecks)
	rapid.Check(t, func(rt *rapid.T) {
		pace := handsim.Pace(rapid.IntRange(0, 2).Draw(rt, "pace"))
		o := handsim.TeamOptions{Start: simStart, Plies: rapid.IntRange(1, 50).Draw(rt, "plies"), Pace: pace,
			Noise: rapid.Bool().Draw(rt, "noise"), Bursts: rapid.Bool().Draw(rt, "bursts")}
		tm := playTeam(rt, rapidRand{rt}, o)
		out := followTeam(rt, tm)
		if out.stuck() {
			rt.Fatalf("%s match stuck: %s", pace, out.brief())
		}
	})
}

// fewerChecks sets rapid's number of cases to n for this test when it is
// at its default (100) and DGTBRIDGE_SIM_RANDOM is not set.
func fewerChecks(t *testing.T, n int) {
	f := flag.Lookup("rapid.checks")
	if f == nil || f.Value.String() != "100" || os.Getenv("DGTBRIDGE_SIM_RANDOM") != "" {
		return
	}
	if err := f.Value.Set(strconv.Itoa(n)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Value.Set("100") })
}

// teamSoakMatch is match i of the team-drop soak: 60 plies a board, a
// third of the matches at blitz pace, noise in one in four, bursts in one
// in five.
func teamSoakMatch(t *testing.T, i int) handsim.TeamMatch {
	r := rand.New(rand.NewPCG(uint64(i), 0x7d))
	return playTeam(t, r, handsim.TeamOptions{Start: simStart, Plies: 60, Pace: handsim.Pace(i % 3), Noise: i%4 == 0, Bursts: i%5 == 0})
}

// TestHandsimTeamSoak plays team-drop matches (teamSoakMatch; as many as
// DGTBRIDGE_SIM_GAMES, else soakGames' default, divided by three: a match
// is two games, and slower to follow) and reports, per pace, games (two a match) recorded
// exactly, differences covered by an open alert, games stuck (none
// allowed), and crit/warn alerts the truth's match did not raise on
// games recorded exactly.
func TestHandsimTeamSoak(t *testing.T) {
	n := soakGames(t) / 3
	type tally struct{ games, plies, exact, covered, stuck, unseen, drops, handed, removals int }
	var per [3]tally
	false_, covers := map[string]int{}, map[string]int{}
	for i := range n {
		tm := teamSoakMatch(t, i)
		out := followTeam(t, tm)
		k := &per[i%3]
		k.drops, k.handed, k.removals = k.drops+tm.Drops, k.handed+tm.Handed, k.removals+tm.Removals
		for b, o := range out.boards {
			k.games++
			k.plies += len(o.want)
			switch {
			case o.exact():
				k.exact++
				if !slices.ContainsFunc(o.alerts, func(a game.Alert) bool { return a.Kind == game.KindRecordCorrected }) {
					for _, a := range out.unexpected[b] {
						false_[a.Severity+" "+a.Kind]++
					}
				}
			case out.unseenStuck(b):
				k.unseen++
				k.stuck++
			case o.stuck():
				k.stuck++
			default:
				k.covered++
				covers[o.cover]++
			}
		}
		switch {
		case out.stuck():
			t.Errorf("match %d (%s) stuck: %s", i, handsim.Pace(i%3), out.brief())
		case !out.exact():
			t.Logf("match %d (%s): %s", i, handsim.Pace(i%3), out.brief())
		}
	}
	exact := 0
	for p, k := range per {
		exact += k.exact
		t.Logf("%s: %d games, %d plies (%d drops, %d of a piece handed over less than 1.5 s before; %d removals): %d exact, %d covered by an open alert, %d stuck (%d of them after a drop no scan saw)",
			handsim.Pace(p), k.games, k.plies, k.drops, k.handed, k.removals, k.exact, k.covered, k.stuck, k.unseen)
	}
	t.Logf("differences covered, by the alert that covers them: %v", covers)
	keys := make([]string, 0, len(false_))
	for k := range false_ {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		t.Logf("  false %s: %d (%.3f per exact game)", k, false_[k], float64(false_[k])/float64(max(exact, 1)))
	}
}
