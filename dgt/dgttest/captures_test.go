package dgttest_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/dgttest"
)

// TestMessages decodes every capture: one typed message per line, and
// each capture holds board dumps or field updates and clock readings.
func TestMessages(t *testing.T) {
	for _, name := range dgttest.Names() {
		t.Run(name, func(t *testing.T) {
			lines := dgttest.Lines(t, name)
			msgs := dgttest.Messages(t, name)
			if len(msgs) != len(lines) || len(msgs) < 100 {
				t.Fatalf("%d messages from %d lines, want one per line and at least 100", len(msgs), len(lines))
			}
			kinds := map[string]int{}
			for _, m := range msgs {
				switch m.(type) {
				case dgt.FieldUpdate:
					kinds["field"]++
				case dgt.ClockTimes:
					kinds["clock"]++
				case dgt.BoardDump:
					kinds["board"]++
				}
			}
			if kinds["field"] == 0 || kinds["clock"] == 0 {
				t.Errorf("message kinds %v: want field updates and clock times", kinds)
			}
		})
	}
}

// TestPath names files inside the captures folder, which is the shared
// folder beside the module root.
func TestPath(t *testing.T) {
	p := dgttest.Path(t, "johan.pgn")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("Path: %v", err)
	}
	if got, want := filepath.Base(filepath.Dir(p)), "dgt-captures"; got != want {
		t.Errorf("Path %s: folder %s, want %s", p, got, want)
	}
}

// TestMoves reads the expected game of every capture as UCI: the .uci
// files verbatim, johan.pgn's SAN converted (3. Nxe5 is g1f3's knight
// taking on e5).
func TestMoves(t *testing.T) {
	for _, tc := range []struct {
		name  string
		first []string
	}{
		{dgttest.Game1, []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5"}},
		{dgttest.Game2, nil},
		{dgttest.GameJohan, []string{"e2e4", "e7e5", "g1f3", "f7f5", "f3e5", "d8f6"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := dgttest.Moves(t, tc.name)
			if len(got) < 10 {
				t.Fatalf("%d moves, want a whole game: %v", len(got), got)
			}
			for i, w := range tc.first {
				if got[i] != w {
					t.Fatalf("move %d = %s, want %s (moves %v)", i+1, got[i], w, got[:len(tc.first)])
				}
			}
		})
	}
}
