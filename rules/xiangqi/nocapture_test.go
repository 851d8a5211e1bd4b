package xiangqi

import (
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
)

// TestCountNoCapture: Art. 12 — moves without a capture are counted in
// move pairs from the last capture; checking moves count only up to the
// cap (12(c)), per side by default or in total; the claim is upheld from
// the limit on.
func TestCountNoCapture(t *testing.T) {
	// A chariot checks and retreats, the general steps: 12 plies, Red
	// checking on 3 of them (h8h9 three times), no capture.
	p := mustPos(t, "3k5/9/7R1/9/9/9/9/9/9/5K3 w - - 0 1")
	cycle := "h7h9 d9d8 h9h7 d8d9 "
	var moves []rules.Move
	q := p
	for _, u := range strings.Fields(strings.Repeat(cycle, 3)) {
		m, err := q.ParseMove(u)
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, m)
		q, _ = q.PlayMove(m)
	}
	for _, tc := range []struct {
		r       NoCaptureRule
		counted int
		claim   bool
	}{
		{NoCaptureRule{Limit: 6, ChecksCounted: 5}, 12, true},
		{NoCaptureRule{Limit: 6, ChecksCounted: 1}, 10, false},
		{NoCaptureRule{Limit: 5, ChecksCounted: 1}, 10, true},
		{NoCaptureRule{Limit: 6, ChecksCounted: 0, CapTotal: true}, 9, false},
	} {
		n, err := CountNoCapture(p, moves, tc.r)
		if err != nil {
			t.Fatal(err)
		}
		if n.Plies != 12 || n.Checks != [2]int{3, 0} || n.Counted != tc.counted || n.Moves != tc.counted/2 || n.Claimable != tc.claim {
			t.Errorf("%+v: %+v, want %d counted, claimable %v", tc.r, n, tc.counted, tc.claim)
		}
	}
	// A capture starts the count again.
	p = mustPos(t, "3k5/9/9/c8/9/9/9/9/9/R3K4 w - - 0 1")
	var ms []rules.Move
	for _, u := range []string{"e0e1", "d9d8", "a0a6", "d8d9", "e1e0"} {
		m, err := p.ParseMove(u)
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
		p, _ = p.PlayMove(m)
	}
	n, err := CountNoCapture(mustPos(t, "3k5/9/9/c8/9/9/9/9/9/R3K4 w - - 0 1"), ms, NoCaptureRule{ChecksCounted: 5})
	if err != nil || n.Plies != 2 || n.Claimable {
		t.Errorf("after a capture: %+v, %v", n, err)
	}
}
