package emu

import (
	"time"
)

// Side is a side of the clock as the players see it: the clock does not
// know colours. Left and Right are the two displays and levers.
type Side uint8

// Clock sides. NoSide: the clock is stopped / no lever pressed yet.
const (
	NoSide Side = iota
	Left
	Right
)

// Other returns the opposite side; NoSide stays NoSide.
func (s Side) Other() Side {
	switch s {
	case Left:
		return Right
	case Right:
		return Left
	}
	return NoSide
}

// String returns "left", "right" or "none".
func (s Side) String() string {
	switch s {
	case Left:
		return "left"
	case Right:
		return "right"
	}
	return "none"
}

// TimingMode is how the clock adds time per move.
type TimingMode uint8

// Timing modes of a DGT 3000.
const (
	// Fischer adds the increment to the mover's time at each lever press
	// (and once at set-up, as DGT clocks do: a 3+2 game starts at 3:02
	// in the real captures).
	Fischer TimingMode = iota
	// Bronstein gives back the time used on the move, at most the delay.
	Bronstein
	// SimpleDelay (US delay) waits the delay before the main time starts
	// counting down on each move.
	SimpleDelay
)

// ClockSetting is the time control the emulated clock is set to.
type ClockSetting struct {
	Base      time.Duration // main time per player
	Increment time.Duration // Fischer increment, or the delay of Bronstein / SimpleDelay
	Mode      TimingMode
}

// clock models a DGT 3000: two countdowns, a lever, flags. The
// hardware is in charge of time; the host only reads it or, with SetNRun,
// overrides it. Pure: time is passed in.
type clock struct {
	set     ClockSetting
	rem     [3]time.Duration // indexed by Side; rem[running] is as of since
	running Side
	since   time.Time
	lever   Side // the side whose lever is down (pressed last)
	flag    [3]bool
	host    bool // SetNRun mode: host-controlled, no increments
	toggle  bool // host mode: the lever toggles the running side
	started bool // a lever press or SetNRun started the game

	// display state of the DGT 3000 (for tests of what the host sent)
	text  string // shown text, "" when showing times
	beeps int    // number of beep requests received
}

func newClock(set ClockSetting) *clock {
	c := &clock{set: set, lever: Right}
	c.reset(set)
	return c
}

// reset sets both sides to the setting and stops the clock.
func (c *clock) reset(set ClockSetting) {
	c.set = set
	start := set.Base
	if set.Mode == Fischer {
		start += set.Increment
	}
	c.rem = [3]time.Duration{0, start, start}
	c.running = NoSide
	c.flag = [3]bool{}
	c.host, c.toggle, c.started = false, false, false
}

// remaining returns the time on side s at now, without side effects.
func (c *clock) remaining(s Side, now time.Time) time.Duration {
	r := c.rem[s]
	if s != c.running || s == NoSide {
		return r
	}
	used := now.Sub(c.since)
	if !c.host && c.set.Mode == SimpleDelay {
		used -= c.set.Increment
		if used < 0 {
			used = 0
		}
	}
	r -= used
	if r < 0 {
		r = 0
	}
	return r
}

// advance brings the clock to now: a flag falls when the running side
// reaches zero, and the clock then stops with that side blocked at zero
// (DGT 3000 in FIDE modes).
func (c *clock) advance(now time.Time) {
	if c.running == NoSide {
		return
	}
	if c.remaining(c.running, now) == 0 {
		s := c.running
		c.rem[s] = 0
		c.flag[s] = true
		c.running = NoSide
	}
}

// flagTime returns when the running side's flag falls; ok false when the
// clock is stopped.
func (c *clock) flagTime() (t time.Time, ok bool) {
	if c.running == NoSide {
		return t, false
	}
	d := c.rem[c.running]
	if !c.host && c.set.Mode == SimpleDelay {
		d += c.set.Increment
	}
	return c.since.Add(d), true
}

// press is the player on side s pressing their lever at now.
func (c *clock) press(s Side, now time.Time) {
	c.advance(now)
	prevLever := c.lever
	c.lever = s
	if c.flag[Left] || c.flag[Right] {
		return // blocked after a flag fall
	}
	if c.host {
		if c.toggle && c.running != NoSide && prevLever != s {
			c.stopAt(now)
			c.running = s.Other()
			c.since = now
		}
		return
	}
	switch c.running {
	case NoSide:
		if !c.started || prevLever != s {
			c.started = true
			c.running = s.Other()
			c.since = now
		}
	case s:
		used := now.Sub(c.since)
		c.stopAt(now)
		switch c.set.Mode {
		case Fischer:
			c.rem[s] += c.set.Increment
		case Bronstein:
			c.rem[s] += min(used, c.set.Increment)
		}
		c.running = s.Other()
		c.since = now
	}
}

// stopAt freezes the running side's time at now.
func (c *clock) stopAt(now time.Time) {
	if c.running != NoSide {
		c.rem[c.running] = c.remaining(c.running, now)
		c.running = NoSide
	}
}

// pause stops the clock without a lever press (the play/pause button).
func (c *clock) pause(now time.Time) {
	c.advance(now)
	c.stopAt(now)
}

// setAndRun is the host's SetNRun: times for both sides and which
// side counts down; host-controlled from then on.
func (c *clock) setAndRun(now time.Time, left, right time.Duration, flags byte) {
	c.advance(now)
	c.host = true
	c.started = true
	c.toggle = flags&0x08 != 0
	c.rem[Left], c.rem[Right] = left, right
	c.flag = [3]bool{}
	c.running = NoSide
	switch {
	case flags&0x04 != 0:
	case flags&0x01 != 0:
		c.running = Left
	case flags&0x02 != 0:
		c.running = Right
	}
	c.since = now
}

// shown returns the time a display shows: whole seconds, rounded up, so
// 0:00 appears exactly when the flag falls.
func shown(d time.Duration) int {
	return int((d + time.Second - 1) / time.Second)
}

// clockReading is what the clock reports at one moment, in display units.
type clockReading struct {
	secs    [3]int // whole seconds shown per Side
	flag    [3]bool
	running Side
	lever   Side
	perMove bool // Fischer/Bronstein indicator
}

// read returns the reading at now.
func (c *clock) read(now time.Time) clockReading {
	c.advance(now)
	return clockReading{
		secs:    [3]int{0, shown(c.remaining(Left, now)), shown(c.remaining(Right, now))},
		flag:    c.flag,
		running: c.running,
		lever:   c.lever,
		perMove: !c.host && c.set.Increment > 0,
	}
}

// nextDisplayChange returns when the shown time next changes (or the
// flag falls); ok false when the clock is stopped.
func (c *clock) nextDisplayChange(now time.Time) (time.Time, bool) {
	if c.running == NoSide {
		return time.Time{}, false
	}
	r := c.remaining(c.running, now)
	if r == 0 {
		return now, true
	}
	step := r - time.Duration(shown(r)-1)*time.Second
	t := now.Add(step)
	if !c.host && c.set.Mode == SimpleDelay {
		if end := c.since.Add(c.set.Increment); end.After(now) {
			t = end.Add(step)
		}
	}
	return t, true
}
