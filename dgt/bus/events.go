package bus

import (
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
)

// Event is what a [Bus] reports. Board events carry the board's address.
type Event interface {
	When() time.Time
	busEvent()
}

// LineUp: the port was opened.
type LineUp struct{ At time.Time }

// LineDown: the port failed (Err); every board on it is lost, and the bus
// reopens the port after a back-off.
type LineDown struct {
	At  time.Time
	Err error
}

// BoardFound: a board answered at Address.
type BoardFound struct {
	At      time.Time
	Address uint16
	Version dgt.BusVersion
}

// BoardLost: the board at Address stopped answering (Err says how).
type BoardLost struct {
	At      time.Time
	Address uint16
	Err     error
}

// Position: the full position of a board (SEND_BRD), after it was found
// or after data was lost.
type Position struct {
	At      time.Time
	Address uint16
	Board   dgt.BoardDump
}

// Changes: the EEPROM records (§2.9) a board wrote since the previous
// poll, oldest first: piece changes as the scanner saw them and clock
// times on lever presses.
type Changes struct {
	At      time.Time
	Address uint16
	Records []dgt.EEEvent
}

// Clock: a board's clock reading, reported when it differs from the
// previous one.
type Clock struct {
	At      time.Time
	Address uint16
	Clock   dgt.ClockTimes
}

// When returns the time of the event.
func (e LineUp) When() time.Time     { return e.At }
func (e LineDown) When() time.Time   { return e.At }
func (e BoardFound) When() time.Time { return e.At }
func (e BoardLost) When() time.Time  { return e.At }
func (e Position) When() time.Time   { return e.At }
func (e Changes) When() time.Time    { return e.At }
func (e Clock) When() time.Time      { return e.At }

func (LineUp) busEvent()     {}
func (LineDown) busEvent()   {}
func (BoardFound) busEvent() {}
func (BoardLost) busEvent()  {}
func (Position) busEvent()   {}
func (Changes) busEvent()    {}
func (Clock) busEvent()      {}

var (
	_ Event = LineUp{}
	_ Event = LineDown{}
	_ Event = BoardFound{}
	_ Event = BoardLost{}
	_ Event = Position{}
	_ Event = Changes{}
	_ Event = Clock{}
)
