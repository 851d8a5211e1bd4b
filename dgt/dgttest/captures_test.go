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
