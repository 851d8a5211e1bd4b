package status

import (
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestPrintLichessGameErrors: the games Lichess refused are listed under
// their round, with the players pushed under a placeholder and the moves
// without a clock.
func TestPrintLichessGameErrors(t *testing.T) {
	t0 := time.Date(2026, 3, 7, 10, 0, 0, 0, time.UTC)
	var out strings.Builder
	d := broadcast.DaemonReport{StartedAt: game.T(t0), UpdatedAt: game.T(t0), Lichess: []broadcast.PushReport{{
		Round: 3, ID: "AbCd1234", Pushes: 4, LastPush: game.T(t0), Placeholders: 2, Unclocked: 5,
		GameErrors: []broadcast.PushGameError{{Round: "3.7", White: "Anna", Black: "Bela", Error: "Illegal move 12. Qxh7"}}}}}
	if err := Print(&out, d, nil, t0.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"Lichess round 3 (AbCd1234): 4 pushes", "2 players without a name or FIDE id", "5 moves without a clock reading",
		"  refused by Lichess: board 3.7 (Anna – Bela): Illegal move 12. Qxh7\n"} {
		if !strings.Contains(s, want) {
			t.Errorf("status lacks %q:\n%s", want, s)
		}
	}
}
