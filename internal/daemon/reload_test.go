package daemon

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules/game"

	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/hall"
)

// loadConfig writes body as dir/dgtbridge.yaml (with files beside it) and
// loads it.
func loadConfig(t *testing.T, dir, body string, files map[string]string) config.Config {
	t.Helper()
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(dir, "dgtbridge.yaml")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := config.Load(config.LoadOptions{File: p})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const reloadPairings = "round,board,white,black\n1,1,A1,B1\n1,2,A2,B2\n2,1,C1,D1\n2,2,C2,D2\n2,3,C3,D3\n"

// TestPlanReload: a new round (one line, event.round) gives every board
// its next game with the pairing file's players, the boards matched by
// port; what needs a restart is refused, every key named.
func TestPlanReload(t *testing.T) {
	dir := t.TempDir()
	base := "event: {id: open, round: %d, pairings: p.csv}\nboards:\n  - {port: /dev/a, board: 1}\n  - {port: /dev/b, board: 2}\n"
	old := loadConfig(t, dir, strings.Replace(base, "%d", "1", 1), map[string]string{"p.csv": reloadPairings})
	boards, err := HallBoards(&old, func(config.Board) (hall.Board, error) { return hall.Board{}, nil })
	if err != nil {
		t.Fatal(err)
	}
	// Round 2, and the boards listed in the other order.
	next := loadConfig(t, dir, "event: {id: open, round: 2, pairings: p.csv, ruleset: fide2018-rapid}\nboards:\n  - {port: /dev/b, board: 2}\n  - {port: /dev/a, board: 1}\n", nil)
	plan, err := planReload(&old, &next, boards)
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]struct {
		g     game.ID
		white string
	}{"r1-b1": {game.ID{Event: "open", Round: 2, Board: 1}, "C1"}, "r1-b2": {game.ID{Event: "open", Round: 2, Board: 2}, "C2"}} {
		so, ok := plan[id]
		if !ok || so.Info.Game != want.g || so.Info.White != want.white || so.RuleSet.Name != "fide2018-rapid" {
			t.Errorf("%s: %+v", id, so.Info)
		}
	}

	for _, c := range []struct {
		name, yaml string
		keys       []string
	}{
		{"restart keys", "data_dir: elsewhere\nhttp: {listen: '127.0.0.1:9999'}\nevent: {id: open, round: 2, pairings: p.csv, public_delay: 1m}\nboards:\n  - {port: /dev/a, board: 1}\n  - {port: /dev/b, board: 2}\n",
			[]string{"data_dir", "http.listen", "event.public_delay"}},
		{"board added", strings.Replace(base, "%d", "2", 1) + "  - {port: /dev/c, board: 3}\n", []string{"boards[2].port"}},
		{"board removed", "event: {id: open, round: 2, pairings: p.csv}\nboards:\n  - {port: /dev/a, board: 1}\n", []string{"boards"}},
		{"variant", "event: {id: open, round: 2, pairings: p.csv}\nboards:\n  - {port: /dev/a, board: 1, variant: chess960}\n  - {port: /dev/b, board: 2}\n", []string{"boards[0].variant"}},
		{"blind", "event: {id: open, round: 2, pairings: p.csv}\nboards:\n  - {port: /dev/a, board: 1, blind: {side: black, port: /dev/c, lang: en}}\n  - {port: /dev/b, board: 2}\n", []string{"boards[0].blind"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			next := loadConfig(t, dir, c.yaml, nil)
			_, err := planReload(&old, &next, boards)
			if !errors.Is(err, config.ErrRestart) {
				t.Fatalf("err %v, want a restart needed", err)
			}
			var ce *config.Error
			if !errors.As(err, &ce) || len(ce.Problems) != len(c.keys) {
				t.Fatalf("err %v, want %d problems", err, len(c.keys))
			}
			for i, k := range c.keys {
				var ke *config.KeyError
				if !errors.As(ce.Problems[i], &ke) || ke.Key != k {
					t.Errorf("problem %d: %v, want key %s", i, ce.Problems[i], k)
				}
			}
		})
	}
}
