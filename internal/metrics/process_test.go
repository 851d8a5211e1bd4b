package metrics

import (
	"bytes"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// TestProcessGC: the process figures include the collector's: the soft
// memory limit in force, the live heap, the collections and their CPU.
func TestProcessGC(t *testing.T) {
	old := debug.SetMemoryLimit(300 << 20)
	defer debug.SetMemoryLimit(old)
	runtime.GC()
	var b bytes.Buffer
	Process(&b)
	out := b.String()
	for _, want := range []string{
		"go_gc_memory_limit_bytes " + num(300<<20) + "\n",
		"go_gc_heap_live_bytes ",
		"go_gc_cycles_total ",
		"go_gc_cpu_seconds_total ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "NaN") {
		t.Errorf("a figure is missing (NaN):\n%s", out)
	}
	if strings.Contains(out, "go_gc_cycles_total 0\n") {
		t.Errorf("no collection counted after runtime.GC:\n%s", out)
	}
}
