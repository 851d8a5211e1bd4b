package obp

import (
	"testing"
	"time"
)

// TestTimebase: board timestamps keep the spacing of lines read in one
// chunk, never lie after their arrival, and lines without one keep their
// arrival time.
func TestTimebase(t *testing.T) {
	t0 := time.Date(2026, 2, 8, 8, 0, 0, 0, time.UTC)
	var st Timebase
	at := func(ms uint64) Stamp { return At(ms) }
	// Three lines 400 ms apart on the board, the last two read together.
	a := st.Time(t0.Add(1050*time.Millisecond), at(1000))
	b := st.Time(t0.Add(2000*time.Millisecond), at(1400))
	c := st.Time(t0.Add(2000*time.Millisecond), at(1800))
	if !a.Equal(t0.Add(1050*time.Millisecond)) || !b.Equal(t0.Add(1450*time.Millisecond)) || !c.Equal(t0.Add(1850*time.Millisecond)) {
		t.Errorf("times %v %v %v", a.Sub(t0), b.Sub(t0), c.Sub(t0))
	}
	// A line with less delay moves the base: never after arrival.
	if d := st.Time(t0.Add(2210*time.Millisecond), at(2200)); !d.Equal(t0.Add(2210 * time.Millisecond)) {
		t.Errorf("least delay: %v", d.Sub(t0))
	}
	if e := st.Time(t0.Add(3*time.Second), Stamp{}); !e.Equal(t0.Add(3 * time.Second)) {
		t.Errorf("no stamp: %v", e.Sub(t0))
	}
}
