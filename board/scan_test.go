package board

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// TestScanPeriodLearnt: a board scanning its squares at its own period
// and phase reports each square a whole number of periods after its
// previous report; the learnt period is within 0.2 ms of the board's,
// whatever the period, the phase, the order of the squares and a few
// milliseconds of jitter on the line. Reports that come in batches at
// irregular times (a bus line's polls) teach no period.
func TestScanPeriodLearnt(t *testing.T) {
	for _, period := range []time.Duration{200 * time.Millisecond, 213700 * time.Microsecond, 250 * time.Millisecond, 330 * time.Millisecond} {
		r := rand.New(rand.NewPCG(uint64(period), 1))
		var s scanClock
		order := r.Perm(64) // any order of the squares within a scan
		phase := time.Duration(r.Int64N(int64(period)))
		at := t0
		for range 400 {
			at = at.Add(time.Duration(200+r.IntN(3000)) * time.Millisecond) // a hand, now and then
			sq := r.IntN(64)
			scan := (at.Sub(t0) - phase) / period
			visit := t0.Add(phase + scan*period + time.Duration(order[sq])*period/64)
			if visit.Before(at) {
				visit = visit.Add(period)
			}
			jitter := time.Duration(r.IntN(4000)) * time.Microsecond
			s.report(rules.Square(sq), visit.Add(jitter))
		}
		if d := s.period - period; d < -200*time.Microsecond || d > 200*time.Microsecond {
			t.Errorf("scan %v: learnt %v", period, s.period)
		}
	}
	var s scanClock
	r := rand.New(rand.NewPCG(7, 7))
	at := t0
	for range 400 {
		at = at.Add(time.Duration(700+r.IntN(400)) * time.Millisecond) // polls, 0.7–1.1 s apart
		for range 3 {
			s.report(rules.Square(r.IntN(8)), at)
		}
	}
	if s.period != 0 {
		t.Errorf("batched reports: learnt %v", s.period)
	}
}

// bestScanEveryCandidate is bestScan as it was first written: every
// candidate period tries every gap (the nearest multiple).
func bestScanEveryCandidate(gaps []time.Duration) (time.Duration, int, time.Duration) {
	var best time.Duration
	bestN, bestErr := 0, time.Duration(0)
	for c := minScan; c <= maxScan; c += scanStep {
		n, e := 0, time.Duration(0)
		for _, g := range gaps {
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
	return best, bestN, bestErr
}

// TestBestScanAsEveryCandidate: bestScan (each gap adds itself to the
// candidates it fits) chooses exactly as trying every candidate with every
// gap does, with the same count and error: gaps of a true period with
// jitter, mixed with stray ones, random gaps, gaps on the bounds
// (minScan−scanTol, maxScanGap, exact multiples ± scanTol), ties.
func TestBestScanAsEveryCandidate(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 13))
	check := func(what string, gaps []time.Duration) {
		t.Helper()
		wc, wn, we := bestScanEveryCandidate(gaps)
		gc, gn, ge := bestScan(gaps)
		if gn != wn || ge != we || wn > 0 && gc != wc {
			t.Fatalf("%s %v: got %v %d %v, want %v %d %v", what, gaps, gc, gn, ge, wc, wn, we)
		}
	}
	check("none", nil)
	for i := range 3000 {
		n := 1 + r.IntN(scanGaps)
		gaps := make([]time.Duration, n)
		period := minScan + time.Duration(r.Int64N(int64(maxScan-minScan)))
		for j := range gaps {
			switch r.IntN(6) {
			case 0: // anything a report can give
				gaps[j] = minScan - scanTol + time.Duration(r.Int64N(int64(maxScanGap-minScan+scanTol)))
			case 1: // on a bound of the tolerance, or just outside it
				k := 1 + time.Duration(r.IntN(20))
				gaps[j] = k*period + time.Duration(r.IntN(3)-1)*scanTol + time.Duration(r.IntN(3)-1)
			case 2: // the extremes
				gaps[j] = []time.Duration{minScan - scanTol, maxScanGap, minScan, maxScan, 2 * maxScan}[r.IntN(5)]
			default: // the board's period with the line's jitter
				k := 1 + time.Duration(r.IntN(40))
				gaps[j] = k*period + time.Duration(r.Int64N(int64(2*scanTol))) - scanTol
			}
			if i%7 == 0 { // whole milliseconds: ties between candidates
				gaps[j] = gaps[j].Truncate(time.Millisecond)
			}
		}
		check("random", gaps)
	}
}
