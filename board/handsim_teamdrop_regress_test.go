package board_test

import (
	"testing"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestTeamDropTakenAtOnceKeepsItsKind: a failure the team-drop soak found
// (match 1, blitz). White on board A drops a bishop on c4 (the pocket
// holds a bishop and pawns), presses, and Black takes it 250 ms later
// (d5xc4). The board's scan saw the bishop on c4 for one scan before the
// hand took it; the tracker counted every drop as seen and chose between
// B@c4 and P@c4 at random (P@c4, with an ambiguous_move alert), the pawn
// went to the partner board's pocket instead of the bishop, and on board
// B the same happened again (B@e4 read as P@e4) with nothing to say so.
// A drop is now seen only where the board showed its piece: both records
// are exact, with no ambiguity raised.
func TestTeamDropTakenAtOnceKeepsItsKind(t *testing.T) {
	tm := teamSoakMatch(t, 1)
	if got := tm.Boards[0].Plies[36].UCI; got != "B@c4" {
		t.Fatalf("match 1 board A ply 37 is %s, not the B@c4 of the case (the generator changed)", got)
	}
	out := followTeam(t, tm)
	for b, o := range out.boards {
		if !o.exact() {
			t.Errorf("board %d: %s", b, out.brief())
		}
		for _, a := range o.alerts {
			if a.Kind == game.KindAmbiguous {
				t.Errorf("board %d: %s at ply %d: %s", b, a.Kind, a.Ply, a.Message)
			}
		}
	}
}

// TestTeamDropUnseenStillLost documents a kind of game the tracker still
// gets wrong without an alert at the ply (match 229 of the soak, blitz):
// Black on board A drops a knight on c5 and presses; White takes it
// (b3xc5) before the board's scan saw it. The board shows only a white
// piece arriving on an empty square with White not to move; the tracker
// reads no drop into that, and the record goes wrong from that ply (a
// later crit names a press without a move, not the ply). The soak counts
// such games apart; when the tracker learns to read them, this test fails
// and the allowance (teamOutcome.unseenStuck) goes.
func TestTeamDropUnseenStillLost(t *testing.T) {
	tm := teamSoakMatch(t, 229)
	out := followTeam(t, tm)
	if !out.unseenStuck(0) {
		t.Fatalf("match 229 board A is no longer wrong after the drop no scan saw (%s): remove the allowance for such drops", out.brief())
	}
}
