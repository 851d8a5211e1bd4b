package hall

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/dgt/record"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// capturesDir holds real DGT traffic (AGPL data: read in place, never copied).
const capturesDir = "../../../shared/data/dgt-captures"

func openCapture(t *testing.T, name string) *os.File {
	t.Helper()
	f, err := os.Open(filepath.Join(capturesDir, name))
	if errors.Is(err, os.ErrNotExist) {
		t.Skipf("captures not present at %s (../shared is absent)", capturesDir)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// expectedUCIs reads 1.uci ("1. e2e4 e7e5") or a PGN's SAN movetext as UCI.
func expectedUCIs(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(capturesDir, name))
	if err != nil {
		t.Fatal(err)
	}
	text := regexp.MustCompile(`(?s)\[[^\]]*\]|\{[^}]*\}`).ReplaceAllString(string(b), " ")
	pos := rules.Position(chess.StartPosition(chess.Standard))
	var out []string
	for _, tok := range strings.Fields(text) {
		if strings.HasSuffix(tok, ".") || tok == "1-0" || tok == "0-1" || tok == "1/2-1/2" || tok == "*" {
			continue
		}
		if i := strings.LastIndexByte(tok, '.'); i >= 0 {
			tok = tok[i+1:]
		}
		m, err := pos.ParseMove(tok)
		if err != nil {
			t.Fatalf("%s: move %q: %v", name, tok, err)
		}
		out = append(out, pos.UCI(m))
		if pos, err = pos.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func replayOptions(t testing.TB, format record.Format) ReplayOptions {
	rs, err := ruleset.Lookup(ruleset.FIDE2018Standard)
	if err != nil {
		t.Fatal(err)
	}
	return ReplayOptions{Format: format, Session: SessionOptions{
		Info:    Info{Game: broadcast.GameID{Event: "replay", Round: 1, Board: 1}, Ruleset: rs.Name},
		RuleSet: rs, Tracker: DefaultTrackerOptions(),
	}}
}

func TestReplayRealCaptures(t *testing.T) {
	for _, c := range []struct{ in, want, result string }{
		{"1.inbytes", "1.uci", "*"},
		{"2.inbytes", "2.uci", "*"},
		{"johan.inbytes", "johan.pgn", "1-0"},
	} {
		t.Run(c.in, func(t *testing.T) {
			f := openCapture(t, c.in)
			res, err := Replay(f, replayOptions(t, record.Base64))
			if err != nil {
				t.Fatal(err)
			}
			want := expectedUCIs(t, c.want)
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
		})
	}
}
