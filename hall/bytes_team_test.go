package hall_test

import (
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/hall"
	"github.com/dgtbridge/dgtbridge/hall/demo"
)

// TestTeamStorageGrowsWithTheMove: a team-drop match's moves
// cost the disk at ply 120 about what they cost at ply 10. Before, every
// journal entry of a team-drop game carried the whole match's events, and
// every game state the whole PGN and the BPGN of the match (found by the
// team engineer): the bytes per move grew with the match, its storage
// with the square of its length.
func TestTeamStorageGrowsWithTheMove(t *testing.T) {
	if testing.Short() {
		t.Skip("a long match in simulated time (run without -short)")
	}
	const plies = 124
	hall.TeamStorageCosts(t, func(t *testing.T, now time.Time) (setups [2]emu.Setup, scripts [2]emu.Script) {
		hands := emu.DefaultHands()
		hands.Think = emu.Span{Min: 700 * time.Millisecond, Max: 2 * time.Second}
		for seed := uint64(1); seed < 200; seed++ {
			plan, err := demo.PlanTeamMatch(demo.TeamMatchOptions{Seed: seed, Hands: hands, Plies: plies + 2,
				PowerUp: now, Start: now.Add(2 * time.Second)})
			if err != nil {
				t.Fatal(err)
			}
			if len(plan.Match.Plies(0)) <= plies || len(plan.Match.Plies(1)) <= plies {
				continue
			}
			for b := range setups {
				setups[b], scripts[b] = plan.Boards[b].Game.BoardSetup(), plan.Boards[b].Script
			}
			return setups, scripts
		}
		t.Fatal("no planned match long enough")
		return
	}, plies)
}
