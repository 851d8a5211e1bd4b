package config

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMemoryLimit: daemon.memory_limit by default sizes the limit from the
// number of boards (never below 256 MiB; 345 MiB at 2,000 boards), off
// sets none, and a size is read as GOMEMLIMIT reads it.
func TestMemoryLimit(t *testing.T) {
	for _, tc := range []struct {
		limit  string
		boards int
		want   int64
		set    bool
	}{
		{"auto", 10, 256 << 20, true},
		{"auto", 1000, 256 << 20, true},
		{"auto", 2000, 64<<20 + 2000*144<<10, true},
		{"auto", 4000, 64<<20 + 4000*144<<10, true},
		{"", 2000, 64<<20 + 2000*144<<10, true},
		{"off", 2000, 0, false},
		{"350MiB", 2000, 350 << 20, true},
		{"1GiB", 10, 1 << 30, true},
		{"104857600", 10, 100 << 20, true},
		{"100000KiB", 10, 100000 << 10, true},
	} {
		got, set := Daemon{MemoryLimit: tc.limit}.MemoryLimitBytes(tc.boards)
		if got != tc.want || set != tc.set {
			t.Errorf("memory_limit %q, %d boards: %d (set %v), want %d (set %v)", tc.limit, tc.boards, got, set, tc.want, tc.set)
		}
	}
	if mib := AutoMemoryLimit(2000) >> 20; mib != 345 {
		t.Errorf("auto at 2,000 boards: %d MiB, want 345", mib)
	}
	c, err := Load(LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Daemon.MemoryLimit != MemoryLimitAuto {
		t.Errorf("default daemon.memory_limit %q, want auto", c.Daemon.MemoryLimit)
	}
	// An unquoted off in the file is the word, not YAML 1.1's false.
	file := filepath.Join(t.TempDir(), "dgtbridge.yaml")
	if err := os.WriteFile(file, []byte("daemon:\n  memory_limit: off\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if c, err = Load(LoadOptions{File: file}); err != nil || c.Daemon.MemoryLimit != MemoryLimitOff {
		t.Errorf("memory_limit: off in the file read as %q (%v)", c.Daemon.MemoryLimit, err)
	}
}
