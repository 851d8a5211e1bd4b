package replay

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/dgttest"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/dgt/recording"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

var t0 = time.Date(2026, 2, 8, 8, 0, 0, 0, time.UTC)

func replayOptions(t testing.TB, format recording.Format) Options {
	rs, err := ruleset.Lookup(ruleset.FIDE2018Standard)
	if err != nil {
		t.Fatal(err)
	}
	return Options{Format: format, Session: session.SessionOptions{
		Info:    gamerecord.Info{Game: game.ID{Event: "replay", Round: 1, Board: 1}, Ruleset: rs.Name},
		RuleSet: rs, Tracker: session.DefaultTrackerOptions(),
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
			res, err := DGT(f, replayOptions(t, recording.Base64))
			if err != nil {
				t.Fatal(err)
			}
			want := dgttest.Moves(t, c.name)
			var withMoves []*gamerecord.Record
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

// TestReplayFENSetupMismatch: replay --fen gives the drawn
// Chess960 position; the recording's board was set up from another draw:
// the replay says so (setup_mismatch), and reads the game from the board.
func TestReplayFENSetupMismatch(t *testing.T) {
	drawn, other := chess.Chess960Start(0), chess.Chess960Start(1)
	pl := other.Placement()
	e := emu.New(emu.Setup{Placement: &pl}, t0)
	e.Input(t0, []byte{byte(dgt.CmdSendBoard)})
	raw := e.Output()
	rs, err := ruleset.Lookup("bgo2026-960")
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Format: recording.Raw, Session: session.SessionOptions{
		Info:     gamerecord.Info{Game: game.ID{Event: "replay", Round: 1, Board: 1}, Variant: "chess960", Ruleset: rs.Name},
		StartFEN: drawn.FEN(), RuleSet: rs, Tracker: session.DefaultTrackerOptions(),
	}}
	res, err := DGT(bytes.NewReader(raw), o)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, a := range res.Alerts {
		kinds = append(kinds, a.Kind)
		if a.Kind == game.KindSetupMismatch && a.Proposal["fen"] != drawn.FEN() {
			t.Errorf("proposes %v, want the drawn position", a.Proposal["fen"])
		}
	}
	if !slices.Contains(kinds, game.KindSetupMismatch) {
		t.Fatalf("alerts %v, want setup_mismatch", kinds)
	}
	if len(res.Games) != 1 || res.Games[0].StartFEN != other.FEN() {
		t.Errorf("games %d, start %q", len(res.Games), res.Games[0].StartFEN)
	}
}
