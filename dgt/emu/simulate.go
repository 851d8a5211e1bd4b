package emu

import "time"

// Timed is what the board sent at one moment.
type Timed struct {
	At    time.Time
	Bytes []byte
}

// Simulate plays a script on e without real time, as fast as the CPU
// allows: at start the host bytes hostInit are fed (e.g. 0x4B 0x42:
// UPDATE_NICE and a board dump, what a host sends on connecting), the
// script runs from start, and the emulator is advanced event by event
// until tail after the script's last action. It returns everything the
// board sent, each chunk with the exact time it was sent. This is how a
// corpus of recorded games is made: the result is what a serial recorder
// would have captured.
func Simulate(e *Emulator, start time.Time, hostInit []byte, s Script, tail time.Duration) []Timed {
	var out []Timed
	take := func() {
		for _, c := range e.outputChunks() {
			if n := len(out); n > 0 && out[n-1].At.Equal(c.at) {
				out[n-1].Bytes = append(out[n-1].Bytes, c.b...)
				continue
			}
			out = append(out, Timed{At: c.at, Bytes: c.b})
		}
	}
	e.Input(start, hostInit)
	take()
	e.Schedule(start, s)
	end := start.Add(s.Duration() + tail)
	for {
		t, ok := e.NextEvent()
		if !ok || t.After(end) {
			break
		}
		e.Advance(t)
		take()
	}
	e.Advance(end)
	take()
	return out
}
