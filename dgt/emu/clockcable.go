package emu

import "time"

// hasClock reports whether a clock is cabled to the board now.
func (e *Emulator) hasClock() bool { return !e.opts.NoClock && !e.clockOff }

// UnplugClock pulls the clock's cable at now. The clock keeps counting on
// its own (a DGT 3000 runs on batteries), but the board no longer hears
// it: in the update modes it reports the loss once, as a clock-times
// message with status bit 5 "no clock connected" (docs/dgt-boards.md,
// "The protocol in brief"), and then sends no clock readings; clock commands go unanswered.
func (e *Emulator) UnplugClock(now time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.advance(now)
	if e.clockOff || e.opts.NoClock {
		return
	}
	e.clockOff = true
	if !e.busMode && (e.mode == modeUpdate || e.mode == modeUpdateNice) {
		e.sendClock(now, clockData(e.c.read(now), false))
	}
}

// PlugClock puts the clock's cable back at now: readings resume at once
// (the next one is sent whatever it shows).
func (e *Emulator) PlugClock(now time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.advance(now)
	if !e.clockOff {
		return
	}
	e.clockOff = false
	e.clockSent = false
	e.clockTick(now)
}
