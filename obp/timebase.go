package obp

import "time"

// Timebase maps a board's timestamps to wall time for one connection: the
// board's time zero as of the line that arrived with the least delay, so
// lines read in one chunk keep their spacing and none is placed later
// than it arrived. The zero value is ready; Reset starts again when a
// board (re)connects (its counter may have restarted).
type Timebase struct {
	base time.Time
	set  bool
}

// Time returns when a line stamped s that arrived at arrived happened; the
// arrival time when the board sends no timestamps.
func (tb *Timebase) Time(arrived time.Time, s Stamp) time.Time {
	if !s.Set {
		return arrived
	}
	bt := time.Duration(s.MS) * time.Millisecond
	if base := arrived.Add(-bt); !tb.set || base.Before(tb.base) {
		tb.base, tb.set = base, true
	}
	return tb.base.Add(bt)
}

// Reset forgets the time zero: the next stamped line sets it again.
func (tb *Timebase) Reset() { tb.set = false }
