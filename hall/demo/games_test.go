package demo

import (
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
)

// TestGames: every embedded game replays with the rules engine (Games
// resolves each move), names its players, place and year, and ends as its
// Result tag says: a final '#' is checkmate of the loser, otherwise the game
// was resigned (no mate on the board).
func TestGames(t *testing.T) {
	games, err := Games()
	if err != nil {
		t.Fatal(err)
	}
	if len(games) < 6 {
		t.Fatalf("%d games, want at least 6", len(games))
	}
	for _, g := range games {
		t.Run(g.Tag("White")+" - "+g.Tag("Black"), func(t *testing.T) {
			for _, tag := range []string{"White", "Black", "Site", "Date"} {
				if v := g.Tag(tag); v == "" || v == "?" {
					t.Errorf("tag %s is %q", tag, v)
				}
			}
			if len(g.Tag("Date")) < 4 {
				t.Errorf("Date %q has no year", g.Tag("Date"))
			}
			if g.Result != g.Tag("Result") {
				t.Errorf("result %q, tag %q", g.Result, g.Tag("Result"))
			}
			final, err := g.Final()
			if err != nil {
				t.Fatal(err)
			}
			last := g.Moves[len(g.Moves)-1]
			mate := final.Status() == rules.Checkmate
			if mate != strings.HasSuffix(last.SAN, "#") {
				t.Errorf("last move %s, final status %v", last.SAN, final.Status())
			}
			if mate {
				winner := "1-0"
				if final.Turn() == rules.White {
					winner = "0-1"
				}
				if g.Result != winner {
					t.Errorf("checkmate gives %s, the game says %s", winner, g.Result)
				}
			}
		})
	}
}

// TestGameForAndIncidents: in a round, boards play different games while
// there are enough; round 1 of the default four boards has one touch-move
// and one illegal-move incident.
func TestGameForAndIncidents(t *testing.T) {
	for round := 1; round <= 10; round++ {
		seen := map[int]bool{}
		for b := 1; b <= 7; b++ {
			i := GameFor(7, round, b)
			if i < 0 || i >= 7 || seen[i] {
				t.Fatalf("round %d board %d: game %d (seen %v)", round, b, i, seen)
			}
			seen[i] = true
		}
	}
	got := map[Incident]int{}
	for b := 1; b <= 4; b++ {
		got[IncidentFor(1, b)]++
	}
	if got[TouchMove] != 1 || got[IllegalMove] != 1 {
		t.Errorf("round 1 incidents %v", got)
	}
}
