package bus

import (
	"sync/atomic"
	"time"
)

// Stats are a bus line's counters since [Bus.Run] started.
type Stats struct {
	// Cycles is the number of polling rounds: in a round every board's
	// changes are polled once (boards the schedule polls again soon after
	// a press may be polled twice).
	Cycles int64
	// LastCycle is the length of the last round; MaxCycle the longest
	// steady one (rounds in which a board was found or resynchronised, a
	// log read or a start tag set are left out: they last as long as the
	// log takes).
	LastCycle, MaxCycle time.Duration
	// MaxInterval is the longest steady interval between two polls of one
	// board's changes (intervals that span busy work, as above, are left
	// out): what the schedule keeps under Settings.PollInterval.
	MaxInterval time.Duration
	// BytesIn and BytesOut are the bytes read from and written to the
	// line; ClockReads the clock exchanges.
	BytesIn, BytesOut, ClockReads int64
}

// lineStats are the live counters behind [Stats].
type lineStats struct {
	cycles, last, max, maxInterval atomic.Int64
	bytesIn, bytesOut, clockReads  atomic.Int64
}

// cycle counts a finished round of length d; busy ones do not count for
// the maximum.
func (s *lineStats) cycle(d time.Duration, busy bool) {
	s.cycles.Add(1)
	s.last.Store(int64(d))
	if !busy {
		raise(&s.max, d)
	}
}

// interval counts a steady interval between two polls of a board.
func (s *lineStats) interval(d time.Duration) { raise(&s.maxInterval, d) }

// raise sets m to d when d is larger.
func raise(m *atomic.Int64, d time.Duration) {
	for {
		v := m.Load()
		if int64(d) <= v || m.CompareAndSwap(v, int64(d)) {
			return
		}
	}
}

// Stats returns the line's counters. Safe for concurrent use.
func (b *Bus) Stats() Stats {
	s := &b.stats
	return Stats{Cycles: s.cycles.Load(), LastCycle: time.Duration(s.last.Load()), MaxCycle: time.Duration(s.max.Load()),
		MaxInterval: time.Duration(s.maxInterval.Load()),
		BytesIn:     s.bytesIn.Load(), BytesOut: s.bytesOut.Load(), ClockReads: s.clockReads.Load()}
}
