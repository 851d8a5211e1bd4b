package emu_test

import (
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
)

// TestClockCable: pulling the clock's cable in UPDATE_NICE gives one
// "no clock" reading (status bit 5) and then silence, though the clock
// keeps running; clock commands go unanswered; putting it back sends the
// clock's current reading at once and readings resume.
func TestClockCable(t *testing.T) {
	e := emu.New(emu.Setup{}, t0)
	now := t0
	e.Input(now, []byte{0x4B}) // SEND_UPDATE_NICE
	e.Do(now, emu.Action{Kind: emu.Press, Side: emu.Left})
	clocks := func(b []byte) []dgt.ClockTimes {
		var out []dgt.ClockTimes
		for _, m := range decode(t, dgt.SingleBoard, b) {
			if c, ok := m.(dgt.ClockTimes); ok {
				out = append(out, c)
			}
		}
		return out
	}
	if cs := clocks(step(e, &now, 3*time.Second)); len(cs) < 2 || cs[len(cs)-1].Status.NoClock() {
		t.Fatalf("readings of a running clock: %v", cs)
	}
	e.UnplugClock(now)
	cs := clocks(step(e, &now, 5*time.Second))
	if len(cs) != 1 || !cs[0].Status.NoClock() {
		t.Fatalf("after the cable is pulled: %v, want one no-clock reading", cs)
	}
	e.Input(now, []byte{0x2B, 0x03, 0x03, 0x09, 0x00}) // clock version
	for _, m := range decode(t, dgt.SingleBoard, step(e, &now, 2*time.Second)) {
		if _, ok := m.(dgt.ClockAck); ok {
			t.Errorf("a clock without its cable acknowledged %v", m)
		}
	}
	if c := e.Clock(now); c.Running != emu.Right || c.Right > 90*time.Minute+30*time.Second-9*time.Second {
		t.Errorf("the clock stopped counting while unplugged: %+v", c)
	}
	e.PlugClock(now)
	cs = clocks(step(e, &now, 2*time.Second))
	if len(cs) < 2 || cs[0].Status.NoClock() || cs[0].RunningSide() != dgt.RightSide {
		t.Errorf("after the cable is back: %v", cs)
	}
}
