package session

import (
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// DefaultClockSilence is the default SessionOptions.ClockSilence. A
// running DGT clock reports every second (its display changes); ten
// seconds without a reading also leaves room for a bus line's polling.
const DefaultClockSilence = 10 * time.Second

// clockWatch follows whether the game's clock is still heard. The clock is lost
// when the board reports "no clock connected" (status bit 5,
// docs/dgt-boards.md, "The protocol in brief") after a valid reading, or when a
// clock that was running sends nothing for SessionOptions.ClockSilence while
// the board itself is connected; it is back at the next valid reading. Each
// loss and each return is one arbiter.DeviceLost / DeviceBack (kind
// clock_disconnected). While the clock is lost the tracker completes moves as
// without a clock (board.Tracker.ClockLost: the stable window, no clock time in
// the record); from its return, by press again. Pure: times are passed in.
type clockWatch struct {
	seen      bool      // a valid reading arrived
	lost      bool      // reported lost, no valid reading since
	last      time.Time // the last valid reading (or the board's return)
	running   bool      // the last valid reading showed a running clock
	boardDown bool      // the board is disconnected: silence says nothing
	// polled: the board is on a bus line, whose polling cycles are
	// counted (LineCycles): cycles now, lastCycles at the last valid
	// reading, boards the line's boards.
	polled             bool
	cycles, lastCycles int64
	boards             int
}

// LineCycles tells the session how many polling cycles its bus line has
// made (dgt/bus Stats.Cycles) and how many boards the line has: the clock
// watch counts a bus clock's silence in the line's cycles as well as in
// time. A line reads at least one clock a cycle, the one unread longest
// first, so a running clock not heard for more cycles than the line has
// boards is silent indeed; before that it may only be waiting for its
// turn. A slow line (boards answering late, retries, a daemon starved of
// CPU, after which the line's cost estimates stay high for a while) reads
// a clock or two a cycle, and seconds alone would take its late readings
// for a dead clock. On a healthy line (most clocks read every cycle) the
// cycles cost nothing; a clock unplugged from a bus board is reported at
// once by the board's status anyway.
func (s *Session) LineCycles(n int64, boards int) {
	w := &s.cw
	if !w.polled {
		w.polled, w.lastCycles = true, n
	}
	w.cycles, w.boards = n, boards
}

// watchClock notes clock face f at at and reports a loss or return;
// false when f is no reading (no clock connected) and must not reach the
// tracker.
func (s *Session) watchClock(at time.Time, f game.ClockFace, st *Step) bool {
	w := &s.cw
	if f.Absent {
		if w.seen && !w.lost {
			w.lost = true
			s.adjudicate(game.DeviceLost{Stamp: game.Stamp{At: at}, Device: game.DeviceClock,
				Detail: "the board reports no clock connected"}, st)
			s.handle(s.tr.ClockLost(at), st)
		}
		return false
	}
	w.seen, w.last, w.running, w.lastCycles = true, at, f.Running != game.NoDisplay, w.cycles
	if w.lost {
		w.lost = false
		s.adjudicate(game.DeviceBack{Stamp: game.Stamp{At: at}, Device: game.DeviceClock}, st)
		s.handle(s.tr.ClockBack(at), st)
	}
	return true
}

// clockSilence reports a running clock that stopped reporting.
func (s *Session) clockSilence(at time.Time, st *Step) {
	w := &s.cw
	if !w.seen || w.lost || w.boardDown || !w.running || s.o.ClockSilence < 0 || at.Sub(w.last) < s.o.ClockSilence ||
		w.polled && w.cycles-w.lastCycles <= int64(w.boards+1) {
		return
	}
	w.lost = true
	s.adjudicate(game.DeviceLost{Stamp: game.Stamp{At: at}, Device: game.DeviceClock,
		Detail: fmt.Sprintf("no clock reading for %s while it ran", at.Sub(w.last).Round(time.Second))}, st)
	s.handle(s.tr.ClockLost(at), st)
}

// boardDevice keeps the watch in step with the board: while the board is
// away the clock's silence is the board's, and on its return the silence
// is counted afresh. The tracker hears of the gap as a clock gap too
// (board.Tracker.ClockLost/ClockBack): presses made while the port was
// away are not misread as one, and the moves the board's full read
// catches up are completed by the first reading after the return.
func (s *Session) boardDevice(at time.Time, lost bool, st *Step) {
	s.cw.boardDown = lost
	if lost {
		s.handle(s.tr.ClockLost(at), st)
		return
	}
	s.cw.last, s.cw.lastCycles = at, s.cw.cycles
	if !s.cw.lost {
		s.handle(s.tr.ClockBack(at), st)
	}
}

// noClock tells the session that the board has no clock at all (an OBP
// board answering "C none" when it connects, no clock seen before): moves
// complete as on a board without a clock (the tracker's stable window),
// with no alert, since no clock was lost. A clock seen earlier in the game
// and now absent is the clock watch's business (an alert).
func (s *Session) NoClock(at time.Time) Step {
	var st Step
	if s.relay != nil || s.tr == nil || s.cw.seen {
		return st
	}
	s.handle(s.tr.ClockLost(at), &st)
	return st
}
