package clock

import (
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// FuzzModel: the clock model reads a real clock over a cable, so it must
// take any sequence of readings (times jumping, going up, negative, flags,
// the running side changing at random, time going backwards) and moves
// completed at any moment, under any time control, without panicking.
// Each step is 4 bytes: white and black seconds left (×10 s), the running
// side and flags, and the milliseconds passed since the last step (×100;
// bit 7 of the third byte completes a move of the side that ran).
func FuzzModel(f *testing.F) {
	f.Add("5400+30", []byte{54, 54, 1, 10, 54, 53, 2, 10, 53, 53, 0x81, 30})
	f.Add("40/7200:1800+30", []byte{72, 72, 1, 5, 0, 72, 0x1d, 1})
	f.Add("*60", []byte{6, 6, 2, 255, 6, 0, 1, 0})
	f.Add("?", []byte{1, 2, 3, 4})
	f.Fuzz(func(t *testing.T, control string, steps []byte) {
		tc, err := ParseTimeControl(control)
		if err != nil {
			return
		}
		m := NewModel(tc, Options{})
		at := time.Date(2026, 2, 8, 8, 0, 0, 0, time.UTC)
		for i := 0; i+3 < len(steps); i += 4 {
			w, b, st, dt := steps[i], steps[i+1], steps[i+2], steps[i+3]
			r := Reading{
				White:     time.Duration(int8(w)) * 10 * time.Second,
				Black:     time.Duration(int8(b)) * 10 * time.Second,
				Running:   []rules.Color{rules.NoColor, rules.White, rules.Black, rules.NoColor}[st&3],
				WhiteFlag: st&4 != 0,
				BlackFlag: st&8 != 0,
			}
			at = at.Add(time.Duration(int8(dt)) * 100 * time.Millisecond)
			if st&0x80 != 0 && r.Running != rules.NoColor {
				m.MoveCompleted(r.Running.Other(), at)
			}
			m.Observe(r, at)
			m.Remaining(at)
		}
	})
}
