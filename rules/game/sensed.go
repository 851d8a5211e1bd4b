package game

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// Sensed is one report of a board's sensors or of its clock, in no
// protocol's terms: [SquareChange], [FullRead], [ClockFace], [LeverPress]
// or [ResultSignal]. The set is closed.
type Sensed interface{ sensed() }

// SquareChange is one sensed square: the piece now seen on Square,
// rules.NoPiece when it was lifted. Squares are in the board's own frame
// (the tracker turns a board read the other way round). A piece put down
// with no lift before it is a drop candidate.
type SquareChange struct {
	Square rules.Square
	Piece  rules.Piece
}

// FullRead is the whole board as read (on connecting or reconnecting, or
// on request), in the board's own frame.
type FullRead struct {
	Placement rules.Placement
}

// Display names one of a clock's two displays.
type Display uint8

// The displays of a clock; NoDisplay when neither runs.
const (
	NoDisplay Display = iota
	LeftDisplay
	RightDisplay
)

// ClockFace is what a clock shows, display by display: the clock is not
// turned with the board, so which colour plays on which display is learnt
// by the tracker (the first running reading belongs to the side to move)
// unless LeftIs says it.
type ClockFace struct {
	Left, Right         time.Duration
	LeftFlag, RightFlag bool
	// Running is the display whose time runs (NoDisplay: stopped).
	Running Display
	// LeftIs is the colour on the left display when the protocol says it
	// (rules.NoColor: learn it).
	LeftIs rules.Color
	// Absent: the board reports that no clock is connected; the times mean
	// nothing.
	Absent bool
}

// LeverPress is a board's own record of a clock lever press, reported among its
// square changes in the order the board saw them: a DGT board on a bus line
// writes one in its change log when a press halts a display (the board's EEPROM
// log, docs/dgt-boards.md), and a poll's answer carries the changes up to the
// poll, the press among them. Display is the display that halted as the record
// names it (which display the record's bit names is uncertain,
// docs/dgt-boards.md); Time is the time it shows (whole seconds).
type LeverPress struct {
	Display Display
	Time    time.Duration
}

// ResultSignal is a result the players signalled with the board itself (a
// DGT magic piece put on the board). Result is "1-0", "0-1" or "1/2-1/2".
type ResultSignal struct {
	Result  string
	Gesture string // "magic_piece", …
}

func (SquareChange) sensed() {}
func (FullRead) sensed()     {}
func (ClockFace) sensed()    {}
func (LeverPress) sensed()   {}
func (ResultSignal) sensed() {}

// ClockReading is a clock reading in colours: remaining times and which
// side's clock runs (rules.NoColor when stopped or unknown).
type ClockReading struct {
	White, Black time.Duration
	Running      rules.Color
	// WhiteFlag, BlackFlag: the clock's own flag indicators, when it
	// reports them.
	WhiteFlag, BlackFlag bool
}

// Reading maps face to colours, left being the colour on the left display.
func (f ClockFace) Reading(left rules.Color) ClockReading {
	r := ClockReading{Running: rules.NoColor}
	if left == rules.White {
		r.White, r.Black = f.Left, f.Right
		r.WhiteFlag, r.BlackFlag = f.LeftFlag, f.RightFlag
	} else {
		r.White, r.Black = f.Right, f.Left
		r.WhiteFlag, r.BlackFlag = f.RightFlag, f.LeftFlag
	}
	switch f.Running {
	case LeftDisplay:
		r.Running = left
	case RightDisplay:
		r.Running = left.Other()
	}
	return r
}
