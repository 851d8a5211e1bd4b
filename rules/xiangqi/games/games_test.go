package games

import (
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/pgn"
)

// TestGamesReplay: every game reads with rules/pgn, every move is legal
// from the start position and agrees with its [%iccs] command, each game
// names its source, and writing a game again gives the same text.
func TestGamesReplay(t *testing.T) {
	games, errs := pgn.ReadAll(strings.NewReader(CCPD), pgn.ReaderOptions{})
	if len(errs) != 0 {
		t.Fatalf("errors: %v", errs)
	}
	if len(games) != Count {
		t.Fatalf("%d games, want %d", len(games), Count)
	}
	results := map[string]int{}
	plies := 0
	for i, g := range games {
		if g.Start.Variant() != "xiangqi" || !strings.HasPrefix(g.Tag("Source"), "CCPD Dataset/") {
			t.Errorf("game %d: variant %s, source %q", i+1, g.Start.Variant(), g.Tag("Source"))
		}
		ps, err := g.Positions()
		if err != nil {
			t.Fatalf("game %d: %v", i+1, err)
		}
		for j, p := range ps[:len(ps)-1] {
			if err := p.Check(g.Moves[j].Move); err != nil {
				t.Fatalf("game %d ply %d: %v", i+1, j+1, err)
			}
		}
		if final := ps[len(ps)-1]; final.Status() != rules.Ongoing && g.Result == "1/2-1/2" {
			t.Errorf("game %d: a draw ending in %v", i+1, final.Status())
		}
		results[g.Result]++
		plies += len(g.Moves)
		var b strings.Builder
		if err := pgn.Write(&b, g, pgn.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(CCPD, b.String()) {
			t.Errorf("game %d written again is not the embedded text:\n%s", i+1, b.String())
		}
	}
	if results["1-0"] != 4 || results["0-1"] != 2 || results["1/2-1/2"] != 4 {
		t.Errorf("results %v", results)
	}
	t.Logf("%d games, %d plies", len(games), plies)
}
