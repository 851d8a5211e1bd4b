package daemon

import (
	"log/slog"
	"math"
	"runtime/debug"
	"testing"

	"github.com/dgtbridge/dgtbridge/config"
)

// TestApplyMemoryLimit: daemon.memory_limit sets the runtime's soft limit
// (auto from the number of boards, a size, off), and a GOMEMLIMIT in the
// environment wins over it (the runtime's limit is left as GOMEMLIMIT made
// it).
func TestApplyMemoryLimit(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	t.Setenv("GOMEMLIMIT", "")
	log := slog.New(slog.DiscardHandler)
	for _, tc := range []struct {
		limit  string
		boards int
		want   int64
	}{
		{"auto", 2000, config.AutoMemoryLimit(2000)},
		{"auto", 50, 256 << 20},
		{"500MiB", 2000, 500 << 20},
		{"off", 2000, math.MaxInt64},
	} {
		got := ApplyMemoryLimit(config.Daemon{MemoryLimit: tc.limit}, tc.boards, log)
		if rt := debug.SetMemoryLimit(-1); got != tc.want || rt != tc.want {
			t.Errorf("memory_limit %s, %d boards: returned %d, runtime's %d, want %d", tc.limit, tc.boards, got, rt, tc.want)
		}
	}
	debug.SetMemoryLimit(300 << 20) // as GOMEMLIMIT=300MiB does at start
	t.Setenv("GOMEMLIMIT", "300MiB")
	if got := ApplyMemoryLimit(config.Daemon{MemoryLimit: "auto"}, 2000, log); got != 300<<20 || debug.SetMemoryLimit(-1) != 300<<20 {
		t.Errorf("with GOMEMLIMIT=300MiB the limit became %d, want GOMEMLIMIT's", got)
	}
}
