package emu

import (
	"slices"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/rules"
)

// Schedule queues a script to start at start. Actions whose time has
// already passed happen at the next Advance or Input.
func (e *Emulator) Schedule(start time.Time, s Script) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, a := range s {
		e.seq++
		e.actions = append(e.actions, timedAction{at: start.Add(a.At), seq: e.seq, a: a})
	}
	slices.SortStableFunc(e.actions, func(x, y timedAction) int {
		if c := x.at.Compare(y.at); c != 0 {
			return c
		}
		return x.seq - y.seq
	})
}

// Do performs one action at now (the clock and board are first brought up
// to now).
func (e *Emulator) Do(now time.Time, a Action) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.advance(now)
	e.apply(now, a)
}

// Pending returns how many scheduled actions have not happened yet.
func (e *Emulator) Pending() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.actions)
}

// apply performs a at time at.
func (e *Emulator) apply(at time.Time, a Action) {
	switch a.Kind {
	case Lift, Place, PlaceMagic:
		f, ok := dgt.FieldOf(a.Square, e.opts.Orientation)
		if !ok {
			return
		}
		c := dgt.Empty
		switch a.Kind {
		case Place:
			c, _ = dgt.PieceCodeOf(a.Piece)
		case PlaceMagic:
			c = a.Magic
		}
		e.s.set(f, c)
	case Press:
		s := a.Side
		if s != Left && s != Right {
			return
		}
		halted := e.c.running == s
		e.c.press(s, at)
		if halted {
			if !e.off {
				e.ee.clock(s, shown(e.c.rem[s]))
			}
		}
		e.clockTick(at)
	case Pause:
		e.c.pause(at)
		e.clockTick(at)
	}
}

// Placement returns what physically stands on the board (not what the
// scanner has seen yet), in chess squares.
func (e *Emulator) Placement() rules.Placement {
	e.mu.Lock()
	defer e.mu.Unlock()
	p := rules.NewPlacement(rules.Chess8x8)
	for f, c := range e.s.phys {
		if pc, ok := c.Piece(); ok {
			p.Sq[dgt.Field(f).Square(e.opts.Orientation)] = pc
		}
	}
	return p
}

// SetPlacement replaces everything on the board at now, as an arbiter
// setting up a position would (the scanner reports the changes).
func (e *Emulator) SetPlacement(now time.Time, p *rules.Placement) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.advance(now)
	for f := range e.s.phys {
		e.s.phys[f] = dgt.Empty
	}
	for sq := rules.Square(0); sq < 64; sq++ {
		if c, ok := dgt.PieceCodeOf(p.Sq[sq]); ok && c != dgt.Empty {
			f, _ := dgt.FieldOf(sq, e.opts.Orientation)
			e.s.phys[f] = c
		}
	}
}

// ClockState is a snapshot of the emulated clock.
type ClockState struct {
	Left, Right time.Duration // time remaining
	Running     Side          // NoSide when stopped
	Lever       Side          // the side whose lever is down
	LeftFlag    bool
	RightFlag   bool
	HostControl bool   // set by SetNRun
	Text        string // what the display shows instead of times ("" = times): a DGT 3000's 8 characters, an XL's six digits A…F of "1A:BC 1D:EF" ('?' for a bitmap that is no character)
	Beeps       int    // beep requests received
}

// Clock returns the clock's state at now.
func (e *Emulator) Clock(now time.Time) ClockState {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.advance(now)
	c := e.c
	return ClockState{
		Left: c.remaining(Left, now), Right: c.remaining(Right, now),
		Running: c.running, Lever: c.lever,
		LeftFlag: c.flag[Left], RightFlag: c.flag[Right],
		HostControl: c.host, Text: c.text, Beeps: c.beeps,
	}
}

// SetClock resets the clock to a new time control, stopped.
func (e *Emulator) SetClock(now time.Time, set ClockSetting) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.advance(now)
	e.c.reset(set)
	e.clockTick(now)
}

// DropAcks makes the clock fail to acknowledge the next n commands (a
// flaky cable), to exercise the host's retries.
func (e *Emulator) DropAcks(n int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.dropAcks = n
}

// Received returns the command bytes the host has sent to this board, in
// order (0x2B for every clock command; bus commands addressed to it or
// broadcast), and the clock sub-commands (0x0A SetNRun …).
func (e *Emulator) Received() (cmds, clockCmds []byte) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.received), slices.Clone(e.clockCmd)
}

// BusMode reports whether the board is in bus mode.
func (e *Emulator) BusMode() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.busMode
}
