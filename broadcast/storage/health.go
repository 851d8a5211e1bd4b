package storage

import (
	"fmt"
	"sync"
	"time"
)

// HealthWindow is how long a failed write keeps a writer unhealthy after
// the last failure: /healthz says 503 unless every write of the last
// minute succeeded (docs/contract.md §5).
const HealthWindow = time.Minute

// Health records a writer's failures for its health check. The zero value
// is healthy; safe for concurrent use.
type Health struct {
	mu     sync.Mutex
	last   error     // latest failure
	lastAt time.Time // when
	since  time.Time // start of the current run of failures (zero: the last write succeeded)
	fails  int       // failures in the current run
}

// Fail records a failed write at now.
func (h *Health) Fail(now time.Time, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.last, h.lastAt = err, now
	if h.since.IsZero() {
		h.since = now
	}
	h.fails++
}

// OK records a successful write.
func (h *Health) OK() {
	h.mu.Lock()
	h.since, h.fails = time.Time{}, 0
	h.mu.Unlock()
}

// Failing reports whether the latest write failed.
func (h *Health) Failing() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return !h.since.IsZero()
}

// Err returns nil when no write failed within HealthWindow before now;
// otherwise the latest failure, and whether writes still fail.
func (h *Health) Err(now time.Time) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.last == nil || now.Sub(h.lastAt) >= HealthWindow {
		return nil
	}
	if !h.since.IsZero() {
		return fmt.Errorf("writes failing since %s (%d failures): %w", h.since.UTC().Format(time.RFC3339), h.fails, h.last)
	}
	return fmt.Errorf("a write failed at %s (writes succeed again): %w", h.lastAt.UTC().Format(time.RFC3339), h.last)
}
