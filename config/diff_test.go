package config

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// loadIn writes body as dir/dgtbridge.yaml and loads it.
func loadIn(t *testing.T, dir, body string) Config {
	t.Helper()
	writeIn(t, dir, map[string]string{"dgtbridge.yaml": body})
	c, err := Load(LoadOptions{File: filepath.Join(dir, "dgtbridge.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestDiffMatchesBoards: a new round with the boards listed in another
// order and on port auto continues every running board, matched by port
// and bus address (auto boards in order), and needs no restart.
func TestDiffMatchesBoards(t *testing.T) {
	dir := t.TempDir()
	old := loadIn(t, dir, "event: {id: open, round: 1}\nboards:\n  - {port: /dev/a, board: 1}\n  - {port: /dev/b, board: 2, bus_address: 7}\n  - {port: auto, board: 3}\n  - {port: auto, board: 4}\n")
	next := loadIn(t, dir, "event: {id: open, round: 2, public_delay: 15m}\nboards:\n  - {port: auto, board: 1}\n  - {port: /dev/b, board: 2, bus_address: 7}\n  - {port: /dev/a, board: 3}\n  - {port: auto, board: 4}\n")
	ch := Diff(&old, &next)
	if len(ch.Restart) != 0 {
		t.Fatalf("restart needed: %v", ch.Restart)
	}
	want := []Continued{{Old: 2, Index: 0}, {Old: 1, Index: 1}, {Old: 0, Index: 2}, {Old: 3, Index: 3}}
	if len(ch.Boards) != len(want) {
		t.Fatalf("%d boards continued, want %d", len(ch.Boards), len(want))
	}
	for i, w := range want {
		c := ch.Boards[i]
		if c.Old != w.Old || c.Index != w.Index || c.Board.Board != i+1 || c.Board.Round != 2 {
			t.Errorf("board %d: %+v, want old %d index %d board %d of round 2", i, c, w.Old, w.Index, i+1)
		}
	}
}

// TestDiffRestart: every change a reload cannot make is named by its key,
// in order, each wrapping ErrRestart; the boards that still match are
// continued all the same.
func TestDiffRestart(t *testing.T) {
	dir := t.TempDir()
	base := "event: {id: open, round: 1}\nboards:\n  - {port: /dev/a, board: 1}\n  - {port: /dev/b, board: 2}\n"
	old := loadIn(t, dir, base)
	for _, c := range []struct {
		name, yaml string
		keys       []string
		continued  int
	}{
		{"nothing", base, nil, 2},
		{"restart keys", "data_dir: elsewhere\nhttp: {listen: '127.0.0.1:9999'}\nnats: {prefix: other}\nevent: {id: open, round: 2, public_delay: 1m}\nboards:\n  - {port: /dev/a, board: 1}\n  - {port: /dev/b, board: 2}\n",
			[]string{"data_dir", "nats.prefix", "http.listen", "event.public_delay"}, 2},
		{"board added", base + "  - {port: /dev/c, board: 3}\n", []string{"boards[2].port"}, 2},
		{"board removed", "event: {id: open, round: 2}\nboards:\n  - {port: /dev/a, board: 1}\n", []string{"boards"}, 1},
		{"bus address is another board", "event: {id: open, round: 2}\nboards:\n  - {port: /dev/a, board: 1, bus_address: 3}\n  - {port: /dev/b, board: 2}\n", []string{"boards[0].port", "boards"}, 1},
		{"variant", "event: {id: open, round: 2}\nboards:\n  - {port: /dev/a, board: 1, variant: chess960}\n  - {port: /dev/b, board: 2}\n", []string{"boards[0].variant"}, 2},
		{"blind", "event: {id: open, round: 2}\nboards:\n  - {port: /dev/a, board: 1, blind: {side: black, port: /dev/c, lang: en}}\n  - {port: /dev/b, board: 2}\n", []string{"boards[0].blind"}, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			next := loadIn(t, t.TempDir(), c.yaml)
			ch := Diff(&old, &next)
			if len(ch.Boards) != c.continued {
				t.Errorf("%d boards continued, want %d", len(ch.Boards), c.continued)
			}
			if len(ch.Restart) != len(c.keys) {
				t.Fatalf("restart problems %v, want keys %v", ch.Restart, c.keys)
			}
			for i, k := range c.keys {
				var ke *KeyError
				if !errors.As(ch.Restart[i], &ke) || ke.Key != k || !errors.Is(ke, ErrRestart) {
					t.Errorf("problem %d: %v, want key %s needing a restart", i, ch.Restart[i], k)
				}
				if k == "data_dir" && !strings.Contains(ke.Error(), "elsewhere") {
					t.Errorf("%v does not say the new value", ke)
				}
			}
		})
	}
}
