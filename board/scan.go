package board

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// A board scans its squares one by one, each at its own moment of every
// scan period (a DGT board: 200–250 ms; docs/dgt-boards.md), and
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
//
// The candidates are every scanStep from minScan to maxScan. A gap g fits
// candidate c when some multiple k·c is within scanTol of it (the nearest
// one: scanTol is far below c/2), that is when c lies in
// [(g−scanTol)/k, (g+scanTol)/k]: each gap adds its count and error to the
// few candidates of those intervals, instead of every candidate trying
// every gap (the same counts, errors and choice; a sixth of the work).
func (s *scanClock) fit() {
	best, n, _ := bestScan(s.gaps[:s.n])
	if n >= scanMinFits && n*4 >= s.n*3 {
		s.period = best
	}
}

// bestScan returns the candidate period most gaps fit (the earliest of
// those with the smallest total error), how many fit it and their error.
func bestScan(gaps []time.Duration) (time.Duration, int, time.Duration) {
	const cands = int((maxScan-minScan)/scanStep) + 1
	var n [cands]int32
	var e [cands]time.Duration
	for _, g := range gaps {
		for k := max(1, (g-scanTol+maxScan-1)/maxScan); k*minScan <= g+scanTol; k++ {
			lo := ceilDiv(ceilDiv(g-scanTol, k)-minScan, scanStep)
			hi := floorDiv(floorDiv(g+scanTol, k)-minScan, scanStep)
			for i := max(lo, 0); i <= min(hi, time.Duration(cands-1)); i++ {
				d := g - k*(minScan+i*scanStep)
				if d < 0 {
					d = -d
				}
				n[i]++
				e[i] += d
			}
		}
	}
	best := 0
	for i := 1; i < cands; i++ {
		if n[i] > n[best] || n[i] == n[best] && e[i] < e[best] {
			best = i
		}
	}
	return minScan + time.Duration(best)*scanStep, int(n[best]), e[best]
}

// ceilDiv and floorDiv divide rounding up and down (b > 0).
func ceilDiv(a, b time.Duration) time.Duration {
	q := a / b
	if a%b != 0 && a > 0 {
		q++
	}
	return q
}

func floorDiv(a, b time.Duration) time.Duration {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
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
// before it is judged: TrackerOptions.PressGrace, or two scan periods. On
// a polled board, counted by poll time (polledNow), never less than two
// board scans: a line polling every 40 ms asks the board several times
// before its scan that follows a press has reached every square, and a
// press judged then, on a board not showing the move yet, was a false
// clock_without_move.
func (t *Tracker) pressGrace() time.Duration {
	g := 2 * t.scanPeriod()
	if t.opts.PressGrace > 0 {
		g = t.opts.PressGrace
	}
	if t.opts.Polled {
		g = max(g, 2*t.opts.BoardScan)
	}
	return g
}

// immediateLag is how long a press of a board that reports at once
// waits for the lines sent before it (an OBP board's lines keep their
// order on the link; a little for a wiring that reorders).
const immediateLag = 20 * time.Millisecond

// scanned returns when the scan that follows a press at time at has
// reported every square: one period later, and a little for the reports
// to cross the line. On a polled board the period is the longer of the
// poll cycle and the board's own scan (BoardScan). A board that reports at
// once (Immediate) has no scan to wait for: what its hands did before the
// press was reported before it, and only the line's time is waited for.
func (t *Tracker) scanned(at time.Time) time.Time {
	if t.opts.Immediate {
		return at.Add(immediateLag)
	}
	p := t.scanPeriod()
	if t.opts.Polled {
		p = max(p, t.opts.BoardScan)
	}
	return at.Add(p + max(20*time.Millisecond, p/10))
}
