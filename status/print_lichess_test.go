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

// TestPrintVersion: the daemon's version and commit are named under its
// first line when it wrote them, and no line is printed when it did not.
func TestPrintVersion(t *testing.T) {
	t0 := time.Date(2026, 3, 7, 10, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		version, commit, want string
	}{
		{"v1.2.0", "0123abcd", "dgtbridge v1.2.0, commit 0123abcd\n"},
		{"", "", ""},
	} {
		var out strings.Builder
		d := broadcast.DaemonReport{StartedAt: game.T(t0), UpdatedAt: game.T(t0), Version: c.version, Commit: c.commit}
		if err := Print(&out, d, nil, t0.Add(time.Second)); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(out.String(), "dgtbridge "); got != (c.want != "") || c.want != "" && !strings.Contains(out.String(), c.want) {
			t.Errorf("version %q: status\n%s", c.version, out.String())
		}
	}
}
