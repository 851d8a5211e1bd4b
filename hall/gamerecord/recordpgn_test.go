package gamerecord

import (
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestRecordPGNMoveThatStood: a record holding a move its variant forbids
// (it stood: a team-drop drop giving check, 004's technical error; a
// Chess960 king moving into check) is written as held, without replaying
// it, and keeps its Variant tag (docs/contract.md §6: team-drop games are
// [Variant "Bughouse"]) and its start position; without the tag a reader
// took the team-drop game for standard chess and refused its first drop.
func TestRecordPGNMoveThatStood(t *testing.T) {
	empty := &game.Pockets{}
	team := NewRecord(Info{Game: game.ID{Event: "open2026", Round: 1, Board: 5}, Variant: "team-drop", Ruleset: "bgo2026-team"}, "", recordStart)
	team.Moves = []Ply{{UCI: "e2e4", SAN: "e4", Pockets: empty}, {UCI: "e7e5", SAN: "e5", Pockets: empty},
		{UCI: "N@f6", SAN: "N@f6+", Pockets: empty}, {UCI: "g8f6", SAN: "Nxf6", Pockets: &game.Pockets{Black: "N"}}}
	p := team.PGN()
	for _, want := range []string{`[Variant "Bughouse"]`, "2. N@f6+ { [%emt 0:00:00] [%pocket -/-] } 2... Nxf6"} {
		if !strings.Contains(p, want) {
			t.Errorf("team-drop PGN lacks %q:\n%s", want, p)
		}
	}

	const fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
	c960 := NewRecord(Info{Game: game.ID{Event: "open2026", Round: 1, Board: 6}, Variant: "chess960", Ruleset: "bgo2026-960"}, fen, recordStart)
	c960.Moves = []Ply{{UCI: "g1h2", SAN: "Kh2"}} // h2 holds White's own pawn: cannot replay
	p = c960.PGN()
	for _, want := range []string{`[Variant "Chess960"]`, `[SetUp "1"]`, `[FEN "` + fen + `"]`, "9. Kh2"} {
		if !strings.Contains(p, want) {
			t.Errorf("Chess960 PGN lacks %q:\n%s", want, p)
		}
	}
}

// recordStart is when the records of these tests begin.
var recordStart = time.Date(2026, 2, 8, 8, 0, 0, 0, time.UTC)
