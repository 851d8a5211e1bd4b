package bus

import (
	"sync/atomic"
	"time"
)

// Stats are a bus line's counters since [Bus.Run] started.
type Stats struct {
	// Cycles is the number of polling cycles; every board's changes are
	// polled once per cycle, so a cycle's length is the interval between
	// two polls of a board.
	Cycles int64
	// LastCycle is the length of the last cycle; MaxCycle the longest
	// steady one (cycles that found or resynchronised a board, read a log
	// or set a start tag are left out: they last as long as the log takes).
	LastCycle, MaxCycle time.Duration
	// BytesIn and BytesOut are the bytes read from and written to the
	// line; ClockReads the clock exchanges.
	BytesIn, BytesOut, ClockReads int64
}

// lineStats are the live counters behind [Stats].
type lineStats struct {
	cycles, last, max             atomic.Int64
	bytesIn, bytesOut, clockReads atomic.Int64
}

// cycle counts a finished cycle of length d; busy ones do not count for
// the maximum.
func (s *lineStats) cycle(d time.Duration, busy bool) {
	s.cycles.Add(1)
	s.last.Store(int64(d))
	if busy {
		return
	}
	for {
		m := s.max.Load()
		if int64(d) <= m || s.max.CompareAndSwap(m, int64(d)) {
			return
		}
	}
}

// Stats returns the line's counters. Safe for concurrent use.
func (b *Bus) Stats() Stats {
	s := &b.stats
	return Stats{Cycles: s.cycles.Load(), LastCycle: time.Duration(s.last.Load()), MaxCycle: time.Duration(s.max.Load()),
		BytesIn: s.bytesIn.Load(), BytesOut: s.bytesOut.Load(), ClockReads: s.clockReads.Load()}
}
