package emu

import (
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
)

// PowerOff cuts the board's power at now (a pulled USB cable, a hub that
// loses power): it stops scanning, answers nothing, forgets the host's
// mode and writes nothing to its EEPROM. The hands may go on moving
// pieces and the clock keeps running on its batteries, but the board
// learns of it only at [Emulator.PowerOn].
func (e *Emulator) PowerOff(now time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.advance(now)
	e.off = true
	e.sched = nil
	e.p = cmdParser{}
}

// PowerOn restores the power at now: the board starts in bus mode,
// reads what stands on it without reporting it, and writes the power-up
// sequence to its EEPROM (three EE_NOP, EE_POWERUP, a record for every
// occupied field).
func (e *Emulator) PowerOn(now time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.advance(now)
	if !e.off {
		return
	}
	e.off = false
	e.reboot(now, false)
}

// WatchdogReset makes the board's watchdog fire at now: it writes
// EE_WATCHDOG_ACTION and then restarts as at power-up.
func (e *Emulator) WatchdogReset(now time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.advance(now)
	e.reboot(now, true)
}

// reboot restarts the firmware at now.
func (e *Emulator) reboot(now time.Time, watchdog bool) {
	e.busMode, e.mode = true, modeIdle
	e.ignorePing, e.clockSent = false, false
	e.sched = nil
	e.s.restart(now)
	e.ee.powerUp(&e.s.seen, watchdog)
}

// EraseEEPROM empties the board's event memory at now, as on a new or
// erased board: a dump then holds only what is written afterwards.
func (e *Emulator) EraseEEPROM(now time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.advance(now)
	e.ee.erase()
}

// restart makes the scanner's view equal the physical board without
// reporting anything and resumes scanning at the first visit at or after
// now.
func (s *sensors) restart(now time.Time) {
	s.settle()
	if d := now.Sub(s.epoch); d > 0 {
		s.next = max(s.next, int64(d/s.period)*dgt.NumFields)
	}
	for s.visitTime(s.next).Before(now) {
		s.next++
	}
}
