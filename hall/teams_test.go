package hall

import (
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/pgn"
)

// TestTeamTags: the teams of a game's Info are the PGN's WhiteTeam and
// BlackTeam tags (contract §6); without teams there are no such tags.
func TestTeamTags(t *testing.T) {
	info := gamerecord.Info{Game: game.ID{Event: "league", Round: 2, Board: 3}, White: "A", Black: "B", WhiteTeam: "Ha Noi", BlackTeam: "Da Nang"}
	var b strings.Builder
	if err := pgn.Write(&b, gamerecord.NewRecord(info, "", time.Now()).PGNGame(), pgn.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `[WhiteTeam "Ha Noi"]`) || !strings.Contains(b.String(), `[BlackTeam "Da Nang"]`) {
		t.Errorf("PGN:\n%s", b.String())
	}
	info.WhiteTeam, info.BlackTeam = "", ""
	b.Reset()
	pgn.Write(&b, gamerecord.NewRecord(info, "", time.Now()).PGNGame(), pgn.WriteOptions{})
	if strings.Contains(b.String(), "Team") {
		t.Errorf("PGN without teams:\n%s", b.String())
	}
}
