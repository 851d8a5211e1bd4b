package game

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// BoardLog is a board's own log of what its sensors saw while nobody may
// have been listening (a DGT board's EEPROM event log), oldest first, in
// no protocol's terms. It carries no times: only the order of the
// changes, which of them came fast on the one before, and the lever
// presses with the time the pressed clock then showed.
type BoardLog struct {
	Entries []LogEntry
	// Wrapped: the log is a ring that has wrapped; older history is gone.
	Wrapped bool
}

// LogEntry is one record of a [BoardLog]: [LogChange], [LogPress] or
// [LogBoard]. The set is closed.
type LogEntry interface{ logEntry() }

// LogChange: the piece now on Square (rules.NoPiece: lifted), in the
// board's own frame. Fast: it came less than about a scan after the change
// before it (a DGT board's r bit).
type LogChange struct {
	Square rules.Square
	Piece  rules.Piece
	Fast   bool
}

// LogPress: a lever press halted the clock of Display, which then showed
// Time.
type LogPress struct {
	Display Display
	Time    time.Duration
}

// LogBoard: the whole placement the board stood in at that point, in the
// board's own frame (a DGT board writes one at power-up and at a start
// tag). Changes made while the board was off are not in the log: the
// placement after a power-up may differ from the one before.
type LogBoard struct {
	Placement rules.Placement
}

func (LogChange) logEntry() {}
func (LogBoard) logEntry()  {}
func (LogPress) logEntry()  {}

// Pressed returns the face after press p: the pressed display halted at
// p's time, the other running.
func (f ClockFace) Pressed(p LogPress) ClockFace {
	if p.Display == LeftDisplay {
		f.Left, f.Running = p.Time, RightDisplay
	} else {
		f.Right, f.Running = p.Time, LeftDisplay
	}
	return f
}
