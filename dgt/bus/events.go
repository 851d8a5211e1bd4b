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

// Changes: the EEPROM records a board wrote since the previous
// poll, oldest first: piece changes as the scanner saw them and clock
// times on lever presses. With [Settings.EmptyChanges] an answer with
// no records is reported too.
type Changes struct {
	At time.Time
	// Asked is when the poll this answer replies to was sent: the board
	// cannot have looked at its squares for it earlier, however late its
	// reply was read (At; a line held up reads it late).
	Asked   time.Time
	Address uint16
	Records []dgt.EEEvent
}

// Log: a board's EEPROM event log, read when the board is found
// (again) and on [Bus.ReadLog]: SEND_FROM_START (the records from the
// board's last start tag up to the last changes fetched) followed by
// SEND_CHANGES (the rest), so it holds every change the board saw while it
// was not polled — the daemon restarting, the line down. After a
// (re)registration it comes right after [BoardFound] and before the
// board's [Position]; the changes it holds are not reported again as
// [Changes].
type Log struct {
	At      time.Time
	Address uint16
	Log     dgt.EELog
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
func (e Log) When() time.Time        { return e.At }
func (e Clock) When() time.Time      { return e.At }

func (LineUp) busEvent()     {}
func (LineDown) busEvent()   {}
func (BoardFound) busEvent() {}
func (BoardLost) busEvent()  {}
func (Position) busEvent()   {}
func (Changes) busEvent()    {}
func (Log) busEvent()        {}
func (Clock) busEvent()      {}

var (
	_ Event = LineUp{}
	_ Event = LineDown{}
	_ Event = BoardFound{}
	_ Event = BoardLost{}
	_ Event = Position{}
	_ Event = Changes{}
	_ Event = Log{}
	_ Event = Clock{}
)
