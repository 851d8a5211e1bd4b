package adjudicator

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// summarise writes outputs as "kind/severity/article/key=value,…" with the
// proposal keys that carry the ruling (positions to reinstate left out).
func summarise(out []game.Verdict) []string {
	var s []string
	for _, o := range out {
		switch o := o.(type) {
		case game.Alert:
			var kv []string
			for k, v := range o.Proposal {
				switch k {
				case "reinstate_ply", "reinstate_fen", "plies", "alert", "move":
					continue
				}
				kv = append(kv, fmt.Sprintf("%s=%v", k, v))
			}
			slices.Sort(kv)
			s = append(s, fmt.Sprintf("%s/%s/%s/%s", o.Kind, o.Severity, o.Article, strings.Join(kv, ",")))
		case game.Result:
			s = append(s, fmt.Sprintf("result %s %s provisional=%v", o.Result, o.Article, o.Provisional))
		case game.ClockCommand:
			s = append(s, fmt.Sprintf("clock %v %v", o.White, o.Black))
		}
	}
	return s
}

// TestSideBySide runs the same incidents under every rule set and checks
// the exact outputs: FIDE 2018 and 2001 (and 004's 960 section) side by
// side (the rule-set parameters of docs/configuration.md, "Rule-set overrides").
func TestSideBySide(t *testing.T) {
	const draw = "1/2-1/2"
	incidents := []struct {
		name string
		fen  string
		tc   string
		act  func(g *match) []game.Verdict
		want map[string][]string
	}{
		{
			name: "second completed illegal move (7.5.5; 2001 7.4(b), C3; 004 Reg. §11)",
			act: func(g *match) []game.Verdict {
				g.moves("e4")
				first := one(g.t.(*testing.T), g.illegal("e7e4", true), game.KindIllegalMove)
				g.command(Command{Cmd: "acknowledge", AlertID: first.ID})
				return g.illegal("e7e4", true)
			},
			want: map[string][]string{
				"fide2018-standard": {"illegal_move/crit/7.5.1/result=1-0"},
				"fide2018-rapid":    {"illegal_move/crit/7.5.1/result=1-0"},
				"fide2018-blitz":    {"illegal_move/crit/7.5.1/result=1-0"},
				"fide2001-standard": {"illegal_move/crit/2001 7.4(a)/side=white,time_add_ms=120000"},
				"fide2001-rapid":    {"illegal_move/crit/2001 7.4(a)/side=white,time_add_ms=120000"},
				"fide2001-blitz":    {"illegal_move/crit/2001 C3/on_claim_by=white,result=1-0"},
				"bgo2026-960":       {"illegal_move/crit/7.5.1/technical_error=black"},
			},
		},
		{
			name: "flag fall, the opponent cannot mate (6.9; 2001 6.10, B6)",
			fen:  "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
			tc:   "600",
			act: func(g *match) []game.Verdict {
				g.spend(601 * time.Second)
				return g.reading()
			},
			want: map[string][]string{
				"fide2018-standard": {"insufficient_material/crit/6.9/result=" + draw},
				"fide2018-rapid":    {"insufficient_material/crit/6.9, A.4.5/result=" + draw},
				"fide2018-blitz":    {"insufficient_material/crit/6.9, A.4.5/result=" + draw},
				"fide2001-standard": {"insufficient_material/crit/2001 6.10/result=" + draw},
				"fide2001-rapid":    {"insufficient_material/info/2001 B6, 6.10/result=" + draw},
				"fide2001-blitz":    {"insufficient_material/info/2001 B6, 6.10/result=" + draw},
				"bgo2026-960":       {"insufficient_material/crit/6.9, A.4.5/result=" + draw},
			},
		},
		{
			name: "clock pressed without a move (7.5.3; 2001 13.4)",
			tc:   "600",
			act: func(g *match) []game.Verdict {
				g.spend(3 * time.Second)
				g.press(rules.White)
				g.reading()
				return g.handle(clockWithoutMove(g, rules.White))
			},
			want: map[string][]string{
				"fide2018-standard": {"clock_without_move/crit/7.5.3/side=black,time_add_ms=120000"},
				"fide2018-rapid":    {"clock_without_move/crit/7.5.3/side=black,time_add_ms=120000"},
				"fide2018-blitz":    {"clock_without_move/crit/7.5.3/side=black,time_add_ms=60000"},
				"fide2001-standard": {"clock_without_move/warn/2001 13.4/"},
				"fide2001-rapid":    {"clock_without_move/warn/2001 13.4/"},
				"fide2001-blitz":    {"clock_without_move/warn/2001 13.4/"},
				"bgo2026-960":       {"clock_without_move/crit/7.5.3/technical_error=white"},
			},
		},
		{
			name: "fifth occurrence (9.6.1; none in 2001)",
			act: func(g *match) []game.Verdict {
				g.moves(knightDance + " " + knightDance + " " + knightDance + " Nf3 Nf6 Ng1")
				return g.moves("Ng8")
			},
			want: map[string][]string{
				"fide2018-standard": {"result 1/2-1/2 9.6.1 provisional=true", "fivefold/crit/9.6.1/result=" + draw},
				"fide2018-rapid":    {"result 1/2-1/2 9.6.1 provisional=true", "fivefold/crit/9.6.1/result=" + draw},
				"fide2018-blitz":    {"result 1/2-1/2 9.6.1 provisional=true", "fivefold/crit/9.6.1/result=" + draw},
				"fide2001-standard": {"fivefold/info/2001 9.2/", "threefold_claimable/info/2001 9.2/claim=threefold,side=white"},
				"fide2001-rapid":    {"fivefold/info/2001 9.2/", "threefold_claimable/info/2001 9.2/claim=threefold,side=white"},
				"fide2001-blitz":    {"fivefold/info/2001 9.2/", "threefold_claimable/info/2001 9.2/claim=threefold,side=white"},
				"bgo2026-960":       {"result 1/2-1/2 9.6.1 provisional=true", "fivefold/crit/9.6.1/result=" + draw},
			},
		},
		{
			name: "touch-move evidence TM-1 (4.3.1; 2001 4.3, B5(a))",
			act: func(g *match) []game.Verdict {
				return g.handle(touchEvidence(g, "TM-1", "4.3.1"))
			},
			want: map[string][]string{
				"fide2018-standard": {"touch_move/warn/4.3.1/made_from=e2,touched=[g1]"},
				"fide2018-rapid":    {"touch_move/warn/4.3.1/made_from=e2,touched=[g1]"},
				"fide2018-blitz":    {"touch_move/warn/4.3.1/made_from=e2,touched=[g1]"},
				"fide2001-standard": {"touch_move/warn/2001 4.3/made_from=e2,touched=[g1]"},
				"fide2001-rapid":    {"touch_move/info/2001 B5(a)/made_from=e2,touched=[g1]"},
				"fide2001-blitz":    {"touch_move/info/2001 B5(a)/made_from=e2,touched=[g1]"},
				"bgo2026-960":       {"touch_move/warn/4.3.1/made_from=e2,touched=[g1]"},
			},
		},
	}
	for _, inc := range incidents {
		for _, rs := range []string{"fide2018-standard", "fide2018-rapid", "fide2018-blitz", "fide2001-standard", "fide2001-rapid", "fide2001-blitz", "bgo2026-960"} {
			t.Run(inc.name+"/"+rs, func(t *testing.T) {
				g := newGame(t, rs, inc.fen, inc.tc, Options{})
				got := summarise(inc.act(g))
				if !slices.Equal(got, inc.want[rs]) {
					t.Errorf("outputs\n got %q\nwant %q", got, inc.want[rs])
				}
			})
		}
	}
}
