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
