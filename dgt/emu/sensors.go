package emu

import (
	"math/rand/v2"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
)

// Default timings of the sensor scan.
const (
	// DefaultScanPeriod is the time one full scan of the 64 squares takes.
	DefaultScanPeriod = 220 * time.Millisecond
)

// sensors is the physical board: what stands on each field, and what the
// scanner last saw there. The scanner visits the fields as [Scan] says, so
// a change is only noticed when its field is visited, and the changes of
// one move come out in field order, not in the order the hand made them.
// Pure: time is passed in.
type sensors struct {
	phys   [dgt.NumFields]dgt.PieceCode // what stands on the board
	seen   [dgt.NumFields]dgt.PieceCode // what the scanner last reported
	period time.Duration
	epoch  time.Time // start of scan number 0 (power-up + phase)
	next   int64     // index of the next visit: scan next/64, field next%64

	flicker     float64 // probability per scan of one flickering field
	rng         *rand.Rand
	flickerSq   int // field reported empty in the current scan, -1 none
	flickerScan int64
}

// change is one field whose reported content changed at a scan visit.
type change struct {
	at    time.Time
	field dgt.Field
	code  dgt.PieceCode
}

func newSensors(start time.Time, sc Scan, flicker float64, seed uint64) *sensors {
	period := sc.Period
	if period <= 0 {
		period = DefaultScanPeriod
	}
	return &sensors{
		period:    period,
		epoch:     start.Add(sc.Phase % period),
		flicker:   flicker,
		rng:       rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		flickerSq: -1,
	}
}

// visitTime returns the time of visit number n (the same arithmetic as
// [Scan.Visit]).
func (s *sensors) visitTime(n int64) time.Time {
	scan := n / dgt.NumFields
	f := n % dgt.NumFields
	return s.epoch.Add(time.Duration(scan)*s.period + time.Duration(f)*s.period/dgt.NumFields)
}

// set sets the physical content of field f (the truth, not yet seen).
func (s *sensors) set(f dgt.Field, c dgt.PieceCode) { s.phys[f] = c }

// settle makes the scanner's view equal the physical board without
// reporting anything (power-up: the board reads itself before it talks).
func (s *sensors) settle() { s.seen = s.phys }

// advance runs every scan visit up to and including now and appends the
// changes it reports to dst.
func (s *sensors) advance(now time.Time, dst []change) []change {
	for {
		at := s.visitTime(s.next)
		if at.After(now) {
			return dst
		}
		f := int(s.next % dgt.NumFields)
		scan := s.next / dgt.NumFields
		if f == 0 && s.flicker > 0 && scan != s.flickerScan {
			s.flickerScan = scan
			s.flickerSq = -1
			if s.rng.Float64() < s.flicker {
				s.flickerSq = s.rng.IntN(dgt.NumFields)
			}
		}
		want := s.phys[f]
		if f == s.flickerSq && scan == s.flickerScan {
			want = dgt.Empty // a sensor misread: seen empty for one scan
		}
		if s.seen[f] != want {
			s.seen[f] = want
			dst = append(dst, change{at: at, field: dgt.Field(f), code: want})
		}
		s.next++
	}
}

// nextChange returns the time of the next visit that will report a
// change, looking at most one full scan ahead; ok is false when the board
// is quiet (the scanner sees what stands there and no flicker is due).
func (s *sensors) nextChange() (t time.Time, ok bool) {
	if s.flicker > 0 {
		// A flicker may start at the next scan: wake at its start.
		n := (s.next/dgt.NumFields + 1) * dgt.NumFields
		t, ok = s.visitTime(n), true
		if s.flickerSq >= 0 {
			// the flickering field must be reported back.
			return s.visitTime(s.next), true
		}
	}
	for i := int64(0); i < dgt.NumFields; i++ {
		n := s.next + i
		f := n % dgt.NumFields
		if s.seen[f] != s.phys[f] {
			vt := s.visitTime(n)
			if !ok || vt.Before(t) {
				return vt, true
			}
			return t, ok
		}
	}
	return t, ok
}
