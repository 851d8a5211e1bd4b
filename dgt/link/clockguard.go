package link

import (
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
)

// clockGuard holds back a clock reading that no clock could show: the
// single-board protocol has no checksum, so one flipped bit in a clock
// message's digits is a well-formed message with a wrong time (a side
// that gained four minutes, a stopped side whose time moved). Such a
// reading is not passed on at once: the clock is asked again, and the
// reading goes out only when the next one confirms it (the time really
// was set so); otherwise it is dropped as damage. A reading whose status
// changed (a press, the clock started or stopped) always goes out: the
// guard only judges readings of a clock in the same state.
type clockGuard struct {
	last   dgt.ClockTimes
	lastAt time.Time
	have   bool
	held   *Message // the suspect reading, nil when none
	heldAt time.Time
}

// clockSlack is what a clock's display may differ from the previous
// reading beyond the time elapsed: the display's one-second steps and the
// serial line's delays.
const clockSlack = 2 * time.Second

// plausible reports whether a clock in state prev at t0 can show next at
// t1: the same status (battery aside), the side not running unchanged,
// the running side counting down no faster than time passed (it may stand
// still: a delay mode), a flag only on the running side as its time runs
// out.
func plausible(prev, next dgt.ClockTimes, t0, t1 time.Time) bool {
	const battery = 0x04
	if prev.Status&^battery != next.Status&^battery || prev.Status.NoClock() {
		return false
	}
	dt := max(t1.Sub(t0), 0)
	run := next.RunningSide()
	for _, s := range []struct {
		side       dgt.Side
		prev, next dgt.ClockSide
	}{{dgt.LeftSide, prev.Left, next.Left}, {dgt.RightSide, prev.Right, next.Right}} {
		if s.prev.Flag != s.next.Flag || s.prev.FinalFlag != s.next.FinalFlag {
			// A flag falls on the running side when its time runs out.
			if s.side != run || s.prev.Duration() > dt+clockSlack {
				return false
			}
		}
		d := s.next.Duration() - s.prev.Duration()
		if d > clockSlack/2 {
			return false // no clock gains time without a press
		}
		if s.side != run && d < -clockSlack/2 || s.side == run && d < -(dt+clockSlack) {
			return false
		}
	}
	return true
}

// take judges reading m (of times c) at at and returns the readings to
// pass on, in order; ask is true when the clock should be asked again,
// dropped the suspect reading the new one did not confirm.
func (g *clockGuard) take(at time.Time, m Message, c dgt.ClockTimes) (out []Message, ask bool, dropped *dgt.ClockTimes) {
	if !g.have {
		g.last, g.lastAt, g.have = c, at, true
		return []Message{m}, false, nil
	}
	if g.held != nil {
		held := *g.held
		g.held = nil
		hc := held.Msg.(dgt.ClockTimes)
		if plausible(hc, c, g.heldAt, at) && !plausible(g.last, c, g.lastAt, at) {
			out = append(out, held) // confirmed: the clock really shows it
		} else {
			dropped = &hc
		}
		g.last, g.lastAt = c, at
		return append(out, m), false, dropped
	}
	if c.Status&^0x04 == g.last.Status&^0x04 && !c.Status.NoClock() && !plausible(g.last, c, g.lastAt, at) {
		g.held, g.heldAt = &m, at
		return nil, true, nil
	}
	g.last, g.lastAt = c, at
	return []Message{m}, false, nil
}

// expire passes on a held reading nothing contradicted within wait (the
// clock was asked again and did not answer): it may be true.
func (g *clockGuard) expire(now time.Time, wait time.Duration) (Message, bool) {
	if g.held == nil || now.Sub(g.heldAt) < wait {
		return Message{}, false
	}
	m := *g.held
	g.held = nil
	g.last, g.lastAt = m.Msg.(dgt.ClockTimes), m.At
	return m, true
}

// errUnconfirmed describes a clock reading dropped by the guard.
func errUnconfirmed(c dgt.ClockTimes) error {
	return fmt.Errorf("%w: a clock reading no clock could show (%v), not confirmed by the next one", ErrMismatch, c)
}
