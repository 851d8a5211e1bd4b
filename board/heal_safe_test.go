package board

import (
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestRereadLeavesIllegalMoves: a knight moved diagonally (Nf3-e2) and
// the clock pressed is an illegal move the arbiter must see. A line from
// four plies earlier reaches the same placement legally (Nc3 Bg4 Nge2 g6
// for Nf3 Bg4 Nc3 g6); the rereading must not rewrite the record with it.
// Put back, the game goes on from the record.
func TestRereadLeavesIllegalMoves(t *testing.T) {
	runIncidents(t, []incident{
		{name: "knight moved like a bishop, completed, then put back",
			opts:  TrackerOptions{Reread: true},
			setup: []string{"e2e4", "e7e5", "f1c4", "d7d6", "g1f3", "c8g4", "b1c3", "g7g6"},
			acts:  []string{"-f3", "+e2=N", "press", "wait:3s", "-e2", "+f3=N"},
			want:  []string{"game.IllegalMove", "game.Correction"}, check: func(t *testing.T, s *script) {
				if e := find[game.IllegalMove](s); e.Reason != rules.ReasonBadGeometry || !e.Completed || e.Text != "Nf3-e2" {
					t.Fatalf("illegal move %+v", e)
				}
				if c := find[game.Correction](s); c.Reason != game.Reinstatement || c.Ply != 8 {
					t.Fatalf("correction %+v, want the reinstatement of ply 8\n%s", c, s.dump())
				}
			}},
	})
}
