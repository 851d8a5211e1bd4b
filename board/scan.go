package board

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// A board scans its squares one by one, each at its own moment of every
// scan period (a DGT board: 200–250 ms, dgt-protocol.md §2.11), and
// reports a change when its scan sees one. Two reports of the same square
// are therefore a whole number of periods apart, whatever order the
// squares are scanned in. scanClock learns the period from those gaps,
// so that a lever press is judged once the scan that follows it has
// reported the board (the lever often beats the scan).

// Bounds of the learnt scan period and of the gaps it is learnt from.
const (
	minScan    = 150 * time.Millisecond
	maxScan    = 400 * time.Millisecond
	scanTol    = 6 * time.Millisecond // a report's jitter (line, queueing)
	maxScanGap = 10 * time.Second     // longer gaps need a finer search than they are worth
	// scanStep is fine enough that a gap of maxScanGap still fits the
	// true period within scanTol at the nearest step.
	scanStep    = 100 * time.Microsecond
	scanGaps    = 64 // gaps kept
	scanRefit   = 16 // new gaps between two fits until a period is learnt
	scanRelearn = 64 // and after
	scanMinFits = 8  // gaps that must fit a period before it is trusted
)

// scanClock learns a board's scan period from its reports.
type scanClock struct {
	last   [rules.MaxSquares]time.Time // the last report of each square
	gaps   [scanGaps]time.Duration     // recent gaps between two reports of a square
	n      int                         // gaps held
	next   int                         // where the next gap goes
	fresh  int                         // gaps since the last fit
	period time.Duration               // the learnt period (0: not learnt yet)
}

// report notes a change of square sq reported at time at.
func (s *scanClock) report(sq rules.Square, at time.Time) {
	if prev := s.last[sq]; !prev.IsZero() {
		if g := at.Sub(prev); g >= minScan-scanTol && g <= maxScanGap {
			s.gaps[s.next] = g
			s.next = (s.next + 1) % scanGaps
			s.n = min(s.n+1, scanGaps)
			refit := scanRefit
			if s.period > 0 {
				refit = scanRelearn
			}
			if s.fresh++; s.fresh >= refit {
				s.fresh = 0
				s.fit()
			}
		}
	}
	s.last[sq] = at
}

// fit finds the period of which the most gaps are whole multiples (the
// smallest total error on a tie) and trusts it when enough gaps, and most
// of them, fit it. Reports batched by a bus line's polling fit no period:
// the tracker then keeps its configured one.
func (s *scanClock) fit() {
	var best time.Duration
	bestN, bestErr := 0, time.Duration(0)
	for c := minScan; c <= maxScan; c += scanStep {
		n, e := 0, time.Duration(0)
		for _, g := range s.gaps[:s.n] {
			k := (g + c/2) / c
			if k < 1 {
				continue
			}
			d := g - k*c
			if d < 0 {
				d = -d
			}
			if d <= scanTol {
				n++
				e += d
			}
		}
		if n > bestN || n == bestN && e < bestErr {
			best, bestN, bestErr = c, n, e
		}
	}
	if bestN >= scanMinFits && bestN*4 >= s.n*3 {
		s.period = best
	}
}

// scanPeriod returns the board's scan period: learnt from its reports, or
// TrackerOptions.ScanPeriod until it is.
func (t *Tracker) scanPeriod() time.Duration {
	if t.scan.period > 0 && !t.opts.Polled {
		return t.scan.period
	}
	return t.opts.ScanPeriod
}

// pressGrace returns how long a press waits for the board to show a move
// before it is judged: TrackerOptions.PressGrace, or two scan periods.
func (t *Tracker) pressGrace() time.Duration {
	if t.opts.PressGrace > 0 {
		return t.opts.PressGrace
	}
	return 2 * t.scanPeriod()
}

// scanned returns when the scan that follows a press at time at has
// reported every square: one period later, and a little for the reports
// to cross the line.
func (t *Tracker) scanned(at time.Time) time.Time {
	p := t.scanPeriod()
	return at.Add(p + max(20*time.Millisecond, p/10))
}
