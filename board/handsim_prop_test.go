package board_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/dgtbridge/dgtbridge/internal/handsim"
)

// simStart is when every simulated game starts.
var simStart = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

// rapidRand draws the generator's choices from rapid, which shrinks them
// (fewer plies, earlier moves, shorter pauses) when a case fails.
type rapidRand struct{ t *rapid.T }

func (r rapidRand) IntN(n int) int {
	if n <= 1 {
		return 0
	}
	return rapid.IntRange(0, n-1).Draw(r.t, "r")
}

// TestHandsimGuarantee: games of the independent hands, at any pace, with
// noise and bursts: the record equals the game played, or an open alert
// covers the difference; no game is stuck. rapid shrinks a failure to
// its smallest case. go test plays the same 100 cases every run
// (fixedSeed); a long local run explores new ones:
// DGTBRIDGE_SIM_RANDOM=1 go test ./board/ -run Handsim -rapid.checks=5000.
func TestHandsimGuarantee(t *testing.T) {
	fixedSeed(t)
	rapid.Check(t, func(rt *rapid.T) {
		pace := handsim.Pace(rapid.IntRange(0, 2).Draw(rt, "pace"))
		o := handsim.Options{Start: simStart, Plies: rapid.IntRange(1, 50).Draw(rt, "plies"), Pace: pace,
			Noise: rapid.Bool().Draw(rt, "noise"), Bursts: rapid.Bool().Draw(rt, "bursts")}
		g := handsim.Play(rapidRand{rt}, o)
		out := followSim(rt, g, false)
		if out.stuck() {
			rt.Fatalf("%s game stuck: %s", pace, out)
		}
	})
}

// TestHandsimDumpsGuarantee: slow games read by whole-board reads once a
// second, no clock: the same guarantee.
func TestHandsimDumpsGuarantee(t *testing.T) {
	fixedSeed(t)
	rapid.Check(t, func(rt *rapid.T) {
		o := handsim.Options{Start: simStart, Plies: rapid.IntRange(1, 40).Draw(rt, "plies"), Pace: handsim.Slow, DumpsOnly: true}
		g := handsim.Play(rapidRand{rt}, o)
		out := followSim(rt, g, true)
		if out.stuck() {
			rt.Fatalf("dumps-only game stuck: %s", out)
		}
	})
}

// TestHandsimDumpsSoak replays slow games (a move every 3–8 s) as
// whole-board reads once a second without a clock.
func TestHandsimDumpsSoak(t *testing.T) {
	n := soakGames(t)
	var exact, covered, stuck int
	false_ := map[string]int{}
	for i := range n {
		r := rand.New(rand.NewPCG(uint64(i), 11))
		g := handsim.Play(r, handsim.Options{Start: simStart, Plies: 40, Pace: handsim.Slow, DumpsOnly: true})
		out := followSim(t, g, true)
		switch {
		case out.exact():
			exact++
			for k, c := range out.falseAlerts() {
				false_[k] += c
			}
		case out.stuck():
			stuck++
			if stuck <= 3 {
				t.Errorf("dumps-only game %d stuck: %s", i, out.brief())
			}
		default:
			covered++
		}
	}
	t.Logf("dumps only: %d games: %d exact (%s), %d covered by an open alert, %d stuck; false crit/warn alerts %v", n, exact, pct(exact, n), covered, stuck, false_)
	if exact*100 < 95*n {
		t.Errorf("%d of %d dumps-only records exact, want at least 95%%", exact, n)
	}
}

// fixedSeed makes go test play the same cases every run (CI must not
// fail at random on a case a long run has not found yet): rapid's seed
// is fixed unless -rapid.seed or DGTBRIDGE_SIM_RANDOM=1 (a long local
// run explores new cases) says otherwise.
func fixedSeed(t *testing.T) {
	f := flag.Lookup("rapid.seed")
	if f == nil || f.Value.String() != "0" || os.Getenv("DGTBRIDGE_SIM_RANDOM") != "" {
		return
	}
	if err := f.Value.Set("20261207"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Value.Set("0") })
}

// soakGames is the number of games of the soak: DGTBRIDGE_SIM_GAMES, else
// 60 (-short: 15).
func soakGames(t *testing.T) int {
	if s := os.Getenv("DGTBRIDGE_SIM_GAMES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			t.Fatalf("DGTBRIDGE_SIM_GAMES=%q: want a number of games", s)
		}
		return n
	}
	if testing.Short() {
		return 15
	}
	return 60
}

// TestHandsimSoak plays games of 60 plies (a third at blitz pace, where
// recaptures come 100–300 ms after the press) and reports records exact,
// differences covered by an open alert, games stuck (none allowed) and
// crit/warn alerts on games recorded exactly.
func TestHandsimSoak(t *testing.T) {
	n := soakGames(t)
	var exact, covered, stuck, plies, reread int
	false_ := map[string]int{}
	for i := range n {
		g := soakGame(i)
		out := followSim(t, g, false)
		plies += len(g.Plies)
		switch {
		case out.exact() && out.reread():
			exact++
			reread++ // its alerts are true: a move was misread, then corrected
		case out.exact():
			exact++
			for k, c := range out.falseAlerts() {
				false_[k] += c
			}
		case out.stuck():
			stuck++
			t.Errorf("game %d (%s) stuck: %s", i, handsim.Pace(i%3), out.brief())
		default:
			covered++
			t.Logf("game %d (%s): %s", i, handsim.Pace(i%3), out.brief())
		}
	}
	t.Logf("%d games, %d plies, rereading %s: %d exact (%d of them corrected on the way), %d covered by an open alert, %d stuck (silently wrong)", n, plies, rereading(), exact, reread, covered, stuck)
	keys := make([]string, 0, len(false_))
	for k := range false_ {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		t.Logf("  false %s: %d (%.3f per game)", k, false_[k], float64(false_[k])/float64(max(exact, 1)))
	}
}

// rereading says whether the soak's trackers reread the record.
func rereading() string {
	if os.Getenv("DGTBRIDGE_SIM_REREAD") == "off" {
		return "off"
	}
	return "on"
}

func pct(a, b int) string { return fmt.Sprintf("%.1f%%", 100*float64(a)/float64(max(b, 1))) }
