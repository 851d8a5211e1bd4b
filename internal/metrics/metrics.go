// Package metrics writes the daemon's metrics in the Prometheus text
// exposition format (version 0.0.4): counters, gauges and histograms of
// durations, and the process's own figures. It has no dependencies and no
// registry: each part of the daemon writes its own metrics when asked.
package metrics

import (
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	rtmetrics "runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Source is something that writes metrics.
type Source interface {
	WriteMetrics(w io.Writer)
}

// ContentType is the media type of the text format.
const ContentType = "text/plain; version=0.0.4; charset=utf-8"

// Header writes the HELP and TYPE lines of a metric whose samples (with
// labels) the caller writes.
func Header(w io.Writer, name, help, typ string) { header(w, name, help, typ) }

func header(w io.Writer, name, help, typ string) {
	fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, typ)
}

func num(v float64) string {
	if math.IsInf(v, 1) {
		return "+Inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// Gauge writes one gauge.
func Gauge(w io.Writer, name, help string, v float64) {
	header(w, name, help, "gauge")
	fmt.Fprintf(w, "%s %s\n", name, num(v))
}

// Counter writes one counter.
func Counter(w io.Writer, name, help string, v float64) {
	header(w, name, help, "counter")
	fmt.Fprintf(w, "%s %s\n", name, num(v))
}

// buckets are the upper bounds (seconds) of every duration histogram: from
// 1 ms (a move handled at once) to 30 s (a daemon far behind).
var buckets = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30}

// Histogram counts durations in fixed buckets. Safe for concurrent use.
type Histogram struct {
	name, help string
	mu         sync.Mutex
	counts     []uint64 // per bucket, the last one +Inf
	sum        float64
	n          uint64
}

// NewHistogram returns an empty histogram of durations, in seconds.
func NewHistogram(name, help string) *Histogram {
	return &Histogram{name: name, help: help, counts: make([]uint64, len(buckets)+1)}
}

// Observe counts d.
func (h *Histogram) Observe(d time.Duration) {
	s := d.Seconds()
	i := 0
	for i < len(buckets) && s > buckets[i] {
		i++
	}
	h.mu.Lock()
	h.counts[i]++
	h.sum += s
	h.n++
	h.mu.Unlock()
}

// Quantile returns an upper bound of the q-quantile (0 < q <= 1): the
// bound of the bucket that holds it (+Inf beyond the last). Zero when
// nothing was observed.
func (h *Histogram) Quantile(q float64) float64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.n == 0 {
		return 0
	}
	want := uint64(math.Ceil(q * float64(h.n)))
	var acc uint64
	for i, c := range h.counts {
		acc += c
		if acc >= want {
			if i < len(buckets) {
				return buckets[i]
			}
			return math.Inf(1)
		}
	}
	return math.Inf(1)
}

// Write writes the histogram.
func (h *Histogram) Write(w io.Writer) {
	h.mu.Lock()
	counts := append([]uint64(nil), h.counts...)
	sum, n := h.sum, h.n
	h.mu.Unlock()
	header(w, h.name, h.help, "histogram")
	var acc uint64
	for i, c := range counts {
		acc += c
		le := math.Inf(1)
		if i < len(buckets) {
			le = buckets[i]
		}
		fmt.Fprintf(w, "%s_bucket{le=\"%s\"} %d\n", h.name, num(le), acc)
	}
	fmt.Fprintf(w, "%s_sum %s\n%s_count %d\n", h.name, num(sum), h.name, n)
}

// Process writes the process's figures: resident memory, CPU time, Go heap
// and goroutines.
func Process(w io.Writer) {
	if rss, ok := residentBytes(); ok {
		Gauge(w, "process_resident_memory_bytes", "Resident memory size in bytes.", rss)
	}
	if cpu, ok := cpuSeconds(); ok {
		Counter(w, "process_cpu_seconds_total", "User and system CPU time spent in seconds.", cpu)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	Gauge(w, "go_memstats_heap_inuse_bytes", "Go heap bytes in use.", float64(ms.HeapInuse))
	Gauge(w, "go_goroutines", "Goroutines that currently exist.", float64(runtime.NumGoroutine()))
	gc := []rtmetrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/gomemlimit:bytes"},
		{Name: "/gc/cycles/total:gc-cycles"}, {Name: "/cpu/classes/gc/total:cpu-seconds"}}
	rtmetrics.Read(gc)
	value := func(s rtmetrics.Sample) float64 {
		switch s.Value.Kind() {
		case rtmetrics.KindUint64:
			return float64(s.Value.Uint64())
		case rtmetrics.KindFloat64:
			return s.Value.Float64()
		}
		return math.NaN() // not in this Go version
	}
	Gauge(w, "go_gc_heap_live_bytes", "Heap bytes marked live by the last garbage collection.", value(gc[0]))
	Gauge(w, "go_gc_memory_limit_bytes", "The Go runtime's soft memory limit (daemon.memory_limit or GOMEMLIMIT).", value(gc[1]))
	Counter(w, "go_gc_cycles_total", "Garbage collections completed.", value(gc[2]))
	Counter(w, "go_gc_cpu_seconds_total", "CPU time the garbage collector took (an estimate of the Go runtime).", value(gc[3]))
}

// residentBytes reads VmRSS from /proc/self/status (Linux).
func residentBytes() (float64, bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb * 1024, err == nil
		}
	}
	return 0, false
}

// cpuSeconds reads utime and stime from /proc/self/stat (Linux, USER_HZ
// 100).
func cpuSeconds() (float64, bool) {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 > len(s) {
		return 0, false
	}
	f := strings.Fields(s[i+2:])
	if len(f) < 13 {
		return 0, false
	}
	ut, err1 := strconv.ParseFloat(f[11], 64)
	st, err2 := strconv.ParseFloat(f[12], 64)
	return (ut + st) / 100, err1 == nil && err2 == nil
}
