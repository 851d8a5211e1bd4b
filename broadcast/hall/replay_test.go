package hall

import (
	"os"
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/dgt/dgttest"
	"github.com/dgtbridge/dgtbridge/dgt/record"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

func replayOptions(t testing.TB, format record.Format) ReplayOptions {
	rs, err := ruleset.Lookup(ruleset.FIDE2018Standard)
	if err != nil {
		t.Fatal(err)
	}
	return ReplayOptions{Format: format, Session: SessionOptions{
		Info:    Info{Game: game.ID{Event: "replay", Round: 1, Board: 1}, Ruleset: rs.Name},
		RuleSet: rs, Tracker: DefaultTrackerOptions(),
	}}
}

func TestReplayRealCaptures(t *testing.T) {
	for _, c := range []struct{ name, result string }{
		{dgttest.Game1, "*"},
		{dgttest.Game2, "*"},
		{dgttest.GameJohan, "1-0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := os.Open(dgttest.Path(t, c.name+".inbytes"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			res, err := Replay(f, replayOptions(t, record.Base64))
			if err != nil {
				t.Fatal(err)
			}
			want := dgttest.Moves(t, c.name)
			var withMoves []*Record
			for _, g := range res.Games {
				if len(g.Moves) > 0 {
					withMoves = append(withMoves, g)
				}
			}
			if len(withMoves) != 1 {
				t.Fatalf("%d games with moves, want 1", len(withMoves))
			}
			g := withMoves[0]
			if got := strings.Join(g.UCIs(), " "); got != strings.Join(want, " ") {
				t.Fatalf("moves\n got %s\nwant %s", got, strings.Join(want, " "))
			}
			if g.Result != c.result {
				t.Errorf("result %q, want %q", g.Result, c.result)
			}
			p := g.PGN()
			if !strings.Contains(p, `[Result "`+c.result+`"]`) || !strings.Contains(p, "[%clk ") {
				t.Errorf("PGN lacks result or clocks:\n%s", p)
			}
			// The recording has no timestamps: the replay's own spacing
			// must not be read as the clock running fast or slow.
			for _, a := range res.Alerts {
				if a.Kind == game.KindClockDefect {
					t.Errorf("clock defect inferred from the synthetic spacing: %s", a.Message)
				}
			}
		})
	}
}
