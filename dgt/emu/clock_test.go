package emu_test

import (
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
)

func TestClockTimingModes(t *testing.T) {
	const s = time.Second
	for _, tc := range []struct {
		name string
		set  emu.ClockSetting
		// Right moves first (Left pressed to start): Right thinks 10 s,
		// presses; check Right's time.
		wantRight time.Duration
	}{
		{"fischer", emu.ClockSetting{Base: 60 * s, Increment: 5 * s, Mode: emu.Fischer}, 65*s - 10*s + 5*s},
		{"bronstein", emu.ClockSetting{Base: 60 * s, Increment: 5 * s, Mode: emu.Bronstein}, 60*s - 10*s + 5*s},
		{"bronstein short move", emu.ClockSetting{Base: 60 * s, Increment: 30 * s, Mode: emu.Bronstein}, 60 * s},
		{"simple delay", emu.ClockSetting{Base: 60 * s, Increment: 5 * s, Mode: emu.SimpleDelay}, 60*s - 5*s},
		{"sudden death", emu.ClockSetting{Base: 60 * s, Mode: emu.Fischer}, 50 * s},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := emu.New(emu.Setup{Clock: tc.set}, t0)
			e.Do(t0, emu.Action{Kind: emu.Press, Side: emu.Left})
			if c := e.Clock(t0.Add(time.Second)); c.Running != emu.Right {
				t.Fatalf("after Left's press running %v, want right", c.Running)
			}
			e.Do(t0.Add(10*s), emu.Action{Kind: emu.Press, Side: emu.Right})
			c := e.Clock(t0.Add(12 * s))
			if c.Right != tc.wantRight {
				t.Errorf("right %v, want %v", c.Right, tc.wantRight)
			}
			if c.Running != emu.Left || c.Lever != emu.Right {
				t.Errorf("running %v lever %v, want left/right", c.Running, c.Lever)
			}
		})
	}
}

func TestFlagFallStopsAndIsReported(t *testing.T) {
	e := emu.New(emu.Setup{Clock: emu.ClockSetting{Base: 3 * time.Second}}, t0)
	now := t0
	e.Input(now, []byte{0x4B})
	e.Output()
	e.Do(now, emu.Action{Kind: emu.Press, Side: emu.Right}) // Left's clock runs
	msgs := decode(t, dgt.SingleBoard, step(e, &now, 5*time.Second))
	var last dgt.ClockTimes
	n := 0
	for _, m := range msgs {
		if c, ok := m.(dgt.ClockTimes); ok {
			last = c
			n++
		}
	}
	// 0:03 → 0:02 → 0:01 → 0:00 + flag (+ the press itself)
	if n < 4 {
		t.Fatalf("%d clock messages in UPDATE_NICE over a 3 s countdown, want ≥ 4: %v", n, msgs)
	}
	if !last.Left.FinalFlag || last.Left.Duration() != 0 || last.Status.Running() {
		t.Fatalf("last clock message %v, want left flag at 0:00, stopped", last)
	}
	if c := e.Clock(now); !c.LeftFlag || c.Running != emu.NoSide {
		t.Fatalf("clock %+v, want left flag, stopped", c)
	}
	// A press after the flag changes nothing.
	e.Do(now, emu.Action{Kind: emu.Press, Side: emu.Left})
	if c := e.Clock(now.Add(time.Second)); c.Running != emu.NoSide || c.Right != 3*time.Second {
		t.Fatalf("after flag, press restarted the clock: %+v", c)
	}
}

func TestClockMessagesFollowCaptureConventions(t *testing.T) {
	// capture 1: a 3+2 game starts at 3:02 both sides.
	e := emu.New(emu.Setup{Clock: emu.ClockSetting{Base: 3 * time.Minute, Increment: 2 * time.Second}}, t0)
	e.Input(t0, []byte{0x41})
	c := decode(t, dgt.SingleBoard, e.Output())[0].(dgt.ClockTimes)
	if c.Left.Duration() != 182*time.Second || c.Right.Duration() != 182*time.Second || !c.Left.TimePerMove {
		t.Fatalf("start reading %v, want 3:02 both, time-per-move", c)
	}
	e.Do(t0, emu.Action{Kind: emu.Press, Side: emu.Left})
	e.Input(t0.Add(1500*time.Millisecond), []byte{0x41})
	c = decode(t, dgt.SingleBoard, e.Output())[0].(dgt.ClockTimes)
	if c.RunningSide() != dgt.RightSide || c.Right.Duration() != 181*time.Second || c.Left.Duration() != 182*time.Second {
		t.Fatalf("reading %v, want right running at 3:01", c)
	}
}

func TestClockCommandsAcknowledged(t *testing.T) {
	version := []byte{0x2B, 0x03, 0x03, 0x09, 0x00}
	setNRun := []byte{0x2B, 0x0A, 0x03, 0x0A, 0, 5, 0, 0, 4, 30, 0x01, 0x00}
	for _, tc := range []struct {
		name    string
		mode    byte
		cmd     []byte
		wantAck bool
		check   func(t *testing.T, a dgt.ClockAck)
	}{
		{"version in update nice", 0x4B, version, true, func(t *testing.T, a dgt.ClockAck) {
			if maj, min, ok := a.Version(); !ok || maj != 2 || min != 0 {
				t.Errorf("version ack %v, want 2.0", a)
			}
		}},
		{"setnrun in update", 0x43, setNRun, true, func(t *testing.T, a dgt.ClockAck) {
			if c, ok := a.Command(); !ok || c != dgt.ClockCmdSetNRun || !a.OK() {
				t.Errorf("ack %v, want OK for SetNRun", a)
			}
		}},
		{"no ack in update board", 0x44, version, false, nil},
		{"no ack in idle", 0x40, version, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := emu.New(emu.Setup{}, t0)
			now := t0
			e.Input(now, []byte{tc.mode})
			e.Output()
			e.Input(now, tc.cmd)
			var acks []dgt.ClockAck
			for _, m := range decode(t, dgt.SingleBoard, step(e, &now, time.Second)) {
				if a, ok := m.(dgt.ClockAck); ok {
					acks = append(acks, a)
				}
			}
			if tc.wantAck != (len(acks) == 1) {
				t.Fatalf("acks %v, want one: %v", acks, tc.wantAck)
			}
			if tc.check != nil {
				tc.check(t, acks[0])
			}
		})
	}
	t.Run("setnrun sets the times", func(t *testing.T) {
		e := emu.New(emu.Setup{}, t0)
		e.Input(t0, []byte{0x4B})
		e.Input(t0, setNRun)
		c := e.Clock(t0.Add(2 * time.Second))
		if !c.HostControl || c.Running != emu.Left || c.Left != 5*time.Minute-2*time.Second || c.Right != 4*time.Minute+30*time.Second {
			t.Fatalf("clock %+v after SetNRun 0:05:00/0:04:30 left running", c)
		}
	})
	t.Run("dropped ack", func(t *testing.T) {
		e := emu.New(emu.Setup{}, t0)
		now := t0
		e.Input(now, []byte{0x4B})
		e.DropAcks(1)
		e.Input(now, version)
		e.Input(now, version)
		n := 0
		for _, m := range decode(t, dgt.SingleBoard, step(e, &now, time.Second)) {
			if _, ok := m.(dgt.ClockAck); ok {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("%d acks for two commands with one dropped", n)
		}
	})
}

func TestDisplayAndBeepAreRecorded(t *testing.T) {
	e := emu.New(emu.Setup{}, t0)
	e.Input(t0, []byte{0x4B})
	text := append([]byte{0x2B, 0x0C, 0x03, 0x0C}, "HELLO   "...)
	text = append(text, 0x01, 0x00)
	e.Input(t0, text)
	if c := e.Clock(t0); c.Text != "HELLO   " || c.Beeps != 1 {
		t.Fatalf("clock %+v after ASCII with beep", c)
	}
	e.Input(t0, []byte{0x2B, 0x03, 0x03, 0x03, 0x00})
	if c := e.Clock(t0); c.Text != "" {
		t.Fatalf("END left text %q", c.Text)
	}
}
