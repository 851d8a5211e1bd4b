package broadcast

import (
	"testing"
	"time"
)

// TestRefusedSignInLogThrottled: one line per refusedLogEvery, the next
// one counting those left out, so a client trying passwords cannot fill
// the log.
func TestRefusedSignInLogThrottled(t *testing.T) {
	var l logThrottle
	t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	if ok, n := l.allow(t0); !ok || n != 0 {
		t.Fatalf("first: %v %d", ok, n)
	}
	for i := 1; i <= 500; i++ {
		if ok, _ := l.allow(t0.Add(time.Duration(i) * 10 * time.Millisecond)); ok {
			t.Fatalf("attempt %d within %v logged", i, refusedLogEvery)
		}
	}
	if ok, n := l.allow(t0.Add(refusedLogEvery)); !ok || n != 500 {
		t.Errorf("after %v: %v, %d left out, want true, 500", refusedLogEvery, ok, n)
	}
}
