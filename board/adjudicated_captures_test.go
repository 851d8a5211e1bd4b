package board_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/board"
	"github.com/dgtbridge/dgtbridge/dgt/dgttest"
	"github.com/dgtbridge/dgtbridge/rules/adjudicator"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/clock"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// TestRealCaptures runs real DGT games (board + clock traffic) through the
// board tracker and the adjudicator, with every chess preset. The games are
// legal, so the only crit alerts are what really happened at the clock:
// game 1 has the clock stopped mid-game (6.11.2), johan's game ends with
// Black's flag (6.9) and then the kings-centre gesture, which is a
// proposal of 1-0 and not a result. Flag falls are INFO where the arbiter
// must not call them (2001 B6).
func TestRealCaptures(t *testing.T) {
	for _, c := range []struct {
		in, gesture, crit, flag string
		attempts                int // illegal attempts the tracker sees, never completed
	}{
		{"1.inbytes", "", game.KindClockStopped, "", 0},
		{"2.inbytes", "", "", "", 1}, // e5-f5 at ply 60, corrected before the press
		{"johan.inbytes", "1-0", game.KindFlagFall, "1-0", 0},
	} {
		msgs := dgttest.Messages(t, strings.TrimSuffix(c.in, ".inbytes"))
		for _, name := range ruleset.Names() {
			rs, _ := ruleset.Lookup(name)
			if rs.Variant != "chess" {
				continue
			}
			t.Run(c.in+"/"+name, func(t *testing.T) {
				tr, err := board.New(board.TrackerOptions{Start: chess.StartPosition(chess.Standard), AutoOrientation: true, KingsCentre: true,
					Setup: board.ChessSetup(chess.Standard)})
				if err != nil {
					t.Fatal(err)
				}
				a := adjudicator.New(adjudicator.GameInfo{ID: gid("cap.1.1")}, rs, adjudicator.Options{TimeControl: clock.MustParse("?"), MidGame: true, NoTiming: true})
				at := t0
				var out []game.Verdict
				for _, m := range msgs {
					at = at.Add(700 * time.Millisecond)
					for _, ev := range feedDGT(tr, at, m) {
						out = append(out, a.Handle(ev)...)
					}
				}
				for _, ev := range tr.Finish(at.Add(time.Minute)) {
					out = append(out, a.Handle(ev)...)
				}
				if a.Ply() != tr.Completed() || a.Ply() < 20 {
					t.Errorf("adjudicator has %d plies, tracker %d", a.Ply(), tr.Completed())
				}
				var gestures, flags []string
				attempts := 0
				ids := map[string]bool{}
				for _, al := range alerts(out, "") {
					if ids[al.ID] {
						t.Errorf("duplicate id %s", al.ID)
					}
					ids[al.ID] = true
					if _, err := json.Marshal(al); err != nil {
						t.Error(err)
					}
					switch {
					case al.Kind == game.KindResultGesture:
						gestures = append(gestures, al.Proposal["result"].(string))
					case al.Kind == game.KindFlagFall:
						flags = append(flags, al.Proposal["result"].(string))
						if (al.Severity == game.Crit) != rs.Flags.ArbiterCalls {
							t.Errorf("flag fall %s with arbiter_calls_flag %v", al.Severity, rs.Flags.ArbiterCalls)
						}
					case al.Kind == game.KindIllegalMove && al.Proposal["castling_step"] == true:
						if al.Severity != game.Info {
							t.Errorf("castling step %s", al.Severity)
						}
					case al.Kind == game.KindIllegalMove:
						// 2018: INFO until completed (7.5.1); 2001: counts
						// once made, so a warning for the arbiter (7.4(a)).
						attempts++
						want := game.Info
						if rs.Illegal.Trigger == ruleset.OnMade {
							want = game.Warn
						}
						if al.Severity != want {
							t.Errorf("attempt: %s, want %s", al.Severity, want)
						}
					case al.Kind == game.KindDisplaced && al.Severity == game.Warn:
						// Pieces in the air beyond the hold window: real
						// sensor facts (the capture's timing is synthetic).
					case al.Severity != game.Info && al.Kind != c.crit:
						t.Errorf("%s alert in a clean game: %s %s: %s", al.Severity, al.Kind, al.Article, al.Message)
					}
				}
				if attempts != c.attempts {
					t.Errorf("%d illegal attempts, want %d", attempts, c.attempts)
				}
				if strings.Join(flags, " ") != c.flag {
					t.Errorf("flag falls %v, want %q", flags, c.flag)
				}
				if strings.Join(gestures, " ") != c.gesture {
					t.Errorf("gestures %v, want %q", gestures, c.gesture)
				}
				for _, o := range out {
					if r, ok := o.(game.Result); ok {
						t.Errorf("result %+v", r)
					}
				}
			})
		}
	}
}
