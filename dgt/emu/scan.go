package emu

import (
	"math/rand/v2"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
)

// Scan is the timing of a board's sensor scan: the scanner visits
// the 64 fields one by one in field order (0 = a8 … 63 = h1 in the board's
// own numbering), one full scan every Period, field f at f/64 of the scan.
// The first scan starts Phase after the board is powered up, so two boards
// switched on at the same moment still scan at their own phase.
//
// A change on the board is reported when its field is next visited: a
// piece lifted and put back between two visits of its field is never
// reported, and the changes of one move come out in field order, not in
// the order the hand made them.
type Scan struct {
	Period time.Duration
	Phase  time.Duration
}

// Scan timing limits of real boards (a full scan takes 200–250 ms).
const (
	MinScanPeriod = 200 * time.Millisecond
	MaxScanPeriod = 250 * time.Millisecond
)

// DrawScan returns a scan as a real board might have it, drawn from seed:
// a period uniform in [MinScanPeriod, MaxScanPeriod] and a phase uniform
// in [0, period). The same seed gives the same scan.
func DrawScan(seed uint64) Scan {
	r := rand.New(rand.NewPCG(seed, 0x5ca9))
	p := MinScanPeriod + time.Duration(r.Int64N(int64(MaxScanPeriod-MinScanPeriod)+1))
	p = p.Round(time.Millisecond)
	return Scan{Period: p, Phase: time.Duration(r.Int64N(int64(p)))}
}

// offset returns the time of field f within a scan.
func (s Scan) offset(f dgt.Field) time.Duration {
	return time.Duration(f) * s.Period / dgt.NumFields
}

// Visit returns the time, relative to power-up, of the n-th visit (n ≥ 0)
// of field f.
func (s Scan) Visit(f dgt.Field, n int64) time.Duration {
	return s.Phase + time.Duration(n)*s.Period + s.offset(f)
}

// Next returns the time, relative to power-up, of the first visit of
// field f at or after at: the moment a change made on f at at is reported
// (a visit at the very moment of a change sees it).
func (s Scan) Next(f dgt.Field, at time.Duration) time.Duration {
	base := s.Phase + s.offset(f)
	if at <= base {
		return base
	}
	n := (at - base + s.Period - 1) / s.Period
	return base + n*s.Period
}

// Last returns the time, relative to power-up, of the last visit of field
// f strictly before at; ok is false when f has not been visited yet.
func (s Scan) Last(f dgt.Field, at time.Duration) (time.Duration, bool) {
	base := s.Phase + s.offset(f)
	if at <= base {
		return 0, false
	}
	return base + (at-base-1)/s.Period*s.Period, true
}
