package clock_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/clock"
)

var start = time.Date(2026, 2, 8, 8, 0, 0, 0, time.UTC)

// rig connects an emulated DGT board + DGT 3000 (dgt/emu) to a clock
// Model through the DGT byte protocol: the emulator's 0x8D clock messages
// are decoded with the dgt codec, mapped to colours (White on the left
// display) and fed to the model with the time they were read, polling
// every 100 ms as a serial reader would.
type rig struct {
	t    *testing.T
	e    *emu.Emulator
	dec  *dgt.Decoder
	m    *clock.Model
	now  time.Time
	last clock.Reading
	evs  []clock.Event
}

func newRig(t *testing.T, tc string, set emu.ClockSetting) *rig {
	r := &rig{t: t, e: emu.New(emu.Setup{Clock: set}, start), dec: dgt.NewDecoder(dgt.SingleBoard), now: start,
		m: clock.NewModel(clock.MustParse(tc), clock.Options{})}
	r.send(dgt.CmdSendUpdateNice)
	return r
}

// send writes a host command to the emulator.
func (r *rig) send(c dgt.Command) {
	b, err := c.AppendBinary(nil)
	if err != nil {
		r.t.Fatal(err)
	}
	r.e.Input(r.now, b)
}

// run advances to now+d, feeding every clock message to the model.
func (r *rig) run(d time.Duration) {
	end := r.now.Add(d)
	for r.now.Before(end) {
		r.now = r.now.Add(100 * time.Millisecond)
		r.e.Advance(r.now)
		r.dec.Feed(r.e.Output())
		for {
			msg, err := r.dec.Next()
			if errors.Is(err, dgt.ErrNeedMore) {
				break
			}
			if err != nil {
				r.t.Fatalf("decode: %v", err)
			}
			ct, ok := msg.(dgt.ClockTimes)
			if !ok || ct.IsZero() {
				continue
			}
			r.last = reading(ct)
			r.evs = append(r.evs, r.m.Observe(r.last, r.now)...)
		}
	}
}

// press: the player on side s (White: left) presses the lever.
func (r *rig) press(c rules.Color) {
	s := emu.Left
	if c == rules.Black {
		s = emu.Right
	}
	r.e.Do(r.now, emu.Action{Kind: emu.Press, Side: s})
}

// reading maps a DGT clock message to colours, White on the left.
func reading(ct dgt.ClockTimes) clock.Reading {
	r := clock.Reading{White: ct.Left.Duration(), Black: ct.Right.Duration(), Running: rules.NoColor,
		WhiteFlag: ct.Left.Flag || ct.Left.FinalFlag, BlackFlag: ct.Right.Flag || ct.Right.FinalFlag}
	switch ct.RunningSide() {
	case dgt.LeftSide:
		r.Running = rules.White
	case dgt.RightSide:
		r.Running = rules.Black
	}
	return r
}

// take returns the events so far, summarised, and clears them.
func (r *rig) take() []string {
	var s []string
	for _, e := range r.evs {
		switch e := e.(type) {
		case clock.FlagFall:
			s = append(s, fmt.Sprintf("flag %s", e.Side))
		case clock.BothFlags:
			s = append(s, fmt.Sprintf("both first=%s", e.First))
		case clock.PeriodChange:
			s = append(s, fmt.Sprintf("period %s", e.Side))
		case clock.Inconsistency:
			s = append(s, fmt.Sprintf("%s %s", e.Kind, e.Side))
		}
	}
	r.evs = nil
	return s
}

// play alternates presses: each side thinks for think, n moves each.
func (r *rig) play(n int, think time.Duration) {
	for i := 0; i < 2*n; i++ {
		r.run(think)
		r.press([2]rules.Color{rules.White, rules.Black}[i%2])
	}
	r.run(200 * time.Millisecond)
}

func TestEmulatedIncrement(t *testing.T) {
	r := newRig(t, "180+2", emu.ClockSetting{Base: 3 * time.Minute, Increment: 2 * time.Second, Mode: emu.Fischer})
	r.run(time.Second)
	r.press(rules.Black) // Black starts White's clock (6.6)
	r.play(10, 7*time.Second)
	if got := r.take(); len(got) != 0 {
		t.Fatalf("a normal 3+2 game gave %q", got)
	}
	// Each side: 182 s at the start, 10 moves of 7 s with +2 s: 132 s.
	if w := r.last.White; w < 131*time.Second || w > 133*time.Second {
		t.Errorf("white %v, want about 2:12", w)
	}
	if r.m.Moves(rules.White) != 10 {
		t.Errorf("moves %d", r.m.Moves(rules.White))
	}
}

func TestEmulatedDelay(t *testing.T) {
	r := newRig(t, "60d5", emu.ClockSetting{Base: time.Minute, Increment: 5 * time.Second, Mode: emu.SimpleDelay})
	r.run(time.Second)
	r.press(rules.Black)
	r.play(3, 4*time.Second) // inside the delay: no main time used
	if got := r.take(); len(got) != 0 {
		t.Fatalf("events %q", got)
	}
	if r.last.White != time.Minute {
		t.Errorf("white %v, want 1:00 (moves within the delay)", r.last.White)
	}
	r.play(1, 15*time.Second)
	if got := r.take(); len(got) != 0 {
		t.Fatalf("events %q", got)
	}
	if r.last.White != 50*time.Second {
		t.Errorf("white %v, want 0:50", r.last.White)
	}
}

func TestEmulatedFlagFall(t *testing.T) {
	r := newRig(t, "60", emu.ClockSetting{Base: time.Minute, Mode: emu.Fischer})
	r.run(time.Second)
	r.press(rules.Black)
	r.play(1, 5*time.Second)
	r.run(70 * time.Second) // White thinks too long
	got := r.take()
	if len(got) != 1 || got[0] != "flag white" {
		t.Fatalf("events %q", got)
	}
}

// A time penalty applied with SetNRun (encoded with the dgt codec, as the
// wiring does for a ClockCommand under penalties: auto): the emulated
// DGT 3000 shows the new times and the model, told with Adjust, accepts
// them without an inconsistency.
func TestEmulatedSetNRunPenalty(t *testing.T) {
	r := newRig(t, "300", emu.ClockSetting{Base: 5 * time.Minute, Mode: emu.Fischer})
	r.run(time.Second)
	r.press(rules.Black)
	r.play(2, 10*time.Second)
	r.take()
	w, b := r.m.Remaining(r.now)
	b += 2 * time.Minute // White's illegal move: Black +2 min (7.5.5)
	cmd := dgt.SetNRun{Left: dgt.SettingOf(w), Right: dgt.SettingOf(b), Flags: dgt.RunLeft | dgt.ToggleOnLever}
	raw, err := cmd.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	r.m.Adjust(w, b, rules.White)
	r.e.Input(r.now, raw)
	r.run(3 * time.Second)
	st := r.e.Clock(r.now)
	if st.Right < b-4*time.Second || st.Right > b {
		t.Errorf("emulated clock shows black %v, want about %v", st.Right, b)
	}
	if r.last.Black != st.Right.Truncate(time.Second) && r.last.Black != st.Right.Round(time.Second) {
		t.Errorf("last reading black %v, clock %v", r.last.Black, st.Right)
	}
	if got := r.take(); len(got) != 0 {
		t.Errorf("penalty reported as %q", got)
	}
	// Another minute for Black without Adjust is unexplained.
	w, b = r.m.Remaining(r.now)
	raw, _ = dgt.SetNRun{Left: dgt.SettingOf(w), Right: dgt.SettingOf(b + time.Minute), Flags: dgt.RunLeft | dgt.ToggleOnLever}.AppendBinary(nil)
	r.e.Input(r.now, raw)
	r.run(3 * time.Second)
	if got := r.take(); len(got) != 1 || got[0] != "time_added black" {
		t.Errorf("unannounced SetNRun: %q", got)
	}
}

// Both flags cannot happen on a DGT 3000 in FIDE mode (it blocks at the
// first flag), so this test encodes the 0x8D messages of a clock that
// kept running with the dgt codec itself and feeds them through the
// decoder: White's flag falls, the lever goes over, Black's falls too.
func TestEncodedBothFlags(t *testing.T) {
	m := clock.NewModel(clock.MustParse("60"), clock.Options{})
	dec := dgt.NewDecoder(dgt.SingleBoard)
	side := func(d time.Duration, flag bool) dgt.ClockSide {
		s := dgt.ClockSide{Hours: uint8(d / time.Hour), Minutes: uint8(d / time.Minute % 60), Seconds: uint8(d / time.Second % 60)}
		s.Flag = flag
		return s
	}
	msgs := []struct {
		at     float64
		wl, br time.Duration
		wf, bf bool
		run    dgt.ClockStatus
	}{
		{0, 60 * time.Second, 60 * time.Second, false, false, 0x01}, // left (White) runs
		{30, 30 * time.Second, 60 * time.Second, false, false, 0x01},
		{60.5, 0, 60 * time.Second, true, false, 0x01}, // White's flag
		{61, 0, 60 * time.Second, true, false, 0x03},   // lever over: right runs
		{121.5, 0, 0, true, true, 0x03},                // Black's flag
	}
	var got []string
	for _, x := range msgs {
		raw, err := dgt.ClockTimes{Left: side(x.wl, x.wf), Right: side(x.br, x.bf), Status: x.run}.AppendBinary(nil)
		if err != nil {
			t.Fatal(err)
		}
		dec.Feed(raw)
		msg, err := dec.Next()
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range m.Observe(reading(msg.(dgt.ClockTimes)), start.Add(time.Duration(x.at*float64(time.Second)))) {
			switch e := e.(type) {
			case clock.FlagFall:
				got = append(got, "flag "+e.Side.String())
			case clock.BothFlags:
				got = append(got, "both first="+e.First.String())
				if !e.WhiteAt.Before(e.BlackAt) || !e.LastPeriod {
					t.Errorf("flag times %v %v last=%v", e.WhiteAt, e.BlackAt, e.LastPeriod)
				}
			}
		}
	}
	want := []string{"flag white", "flag black", "both first=white"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("events %q, want %q", got, want)
	}
}
