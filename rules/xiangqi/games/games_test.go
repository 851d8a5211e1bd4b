package games

import (
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/pgn"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi"
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
	if results["1-0"] != 4 || results["0-1"] != 4 || results["1/2-1/2"] != 4 {
		t.Errorf("results %v", results)
	}
	t.Logf("%d games, %d plies", len(games), plies)
}

// TestGamesRepetitions: the repetition classifier on real games. Games 11
// and 12 repeat a position a third time: in game 11 Red's cannon chases
// one piece (Red must change; it did at move 23), in game 12 Red's horse
// checks perpetually against Black's chase (the checker must change; it
// did at move 55). No other game repeats a position three times, and no
// game gets a loss proposal: the players changed in time.
func TestGamesRepetitions(t *testing.T) {
	games, _ := pgn.ReadAll(strings.NewReader(CCPD), pgn.ReaderOptions{})
	for i, g := range games {
		start := g.Start.(*xiangqi.Position)
		moves := make([]rules.Move, len(g.Moves))
		for j, m := range g.Moves {
			moves[j] = m.Move
		}
		fs, err := xiangqi.ClassifyRepetitions(start, moves, xiangqi.RepetitionOptions{})
		if err != nil {
			t.Fatalf("game %d: %v", i+1, err)
		}
		want := map[int]struct {
			ply      int
			patterns [2]xiangqi.Pattern
		}{
			11: {44, [2]xiangqi.Pattern{xiangqi.PerpetualChase, xiangqi.NoPattern}},
			12: {107, [2]xiangqi.Pattern{xiangqi.PerpetualCheck, xiangqi.PerpetualChase}},
		}
		w, repeats := want[i+1]
		if repeats != (len(fs) > 0) {
			t.Errorf("game %d: findings %+v", i+1, fs)
		}
		if repeats && (len(fs) != 1 || fs[0].Ply != w.ply || fs[0].Verdict != xiangqi.MustChange || fs[0].Side != rules.White || fs[0].Patterns != w.patterns) {
			t.Errorf("game %d: findings %+v, want Red to change at ply %d with %v", i+1, fs, w.ply, w.patterns)
		}
		for _, f := range fs {
			t.Logf("game %d (%s): ply %d, occurrence %d: %v %v %v", i+1, g.Result, f.Ply, f.Occurrence, f.Verdict, f.Side, f.Patterns)
			if f.Verdict == xiangqi.LossProposed {
				t.Errorf("game %d: loss proposed at ply %d", i+1, f.Ply)
			}
		}
	}
}
