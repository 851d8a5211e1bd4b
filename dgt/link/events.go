package link

import (
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
)

// Event is what a [Link] reports. The concrete types are [Connected],
// [Log], [Message], [Resync] and [Disconnected]; consumers switch on them.
type Event interface {
	When() time.Time
	linkEvent()
}

// Connected: a board was identified (once per connection, before any
// [Message] of that connection).
type Connected struct {
	At         time.Time
	Version    dgt.Version
	Serial     string // 5-digit serial number (DGT_SERIALNR)
	LongSerial string // 10-digit serial, "" when the board does not answer 0x55
	// Clock is true when a clock answered; ClockVersion is its version
	// ACK (2.x = DGT 3000, otherwise XL).
	Clock        bool
	ClockVersion [2]uint8
}

// Log is the board's EEPROM event log (docs/dgt-boards.md, "The protocol in
// brief"): the board's own record of every change its scan saw and of the time
// on the halted display at every lever press, including what happened while
// nobody was listening (the daemon restarting, the cable out). It is read after
// every connection sequence (unless Settings.NoLog) and on [Link.ReadLog].
// After a (re)connect it comes right after [Connected] and before the
// connection's board dump, so a consumer can rebuild the moves made meanwhile
// before it sees the position they led to.
//
// Err is ErrNoLog when the board sent no log within Settings.LogTimeout (a
// board without EEPROM; Log is then empty), ErrBadLog when it arrived
// damaged every time it was asked for (Log is what could be read).
type Log struct {
	At  time.Time
	Log dgt.EELog
	Err error
}

// Message is a message from the board, in arrival order. At is when its
// last byte was read.
type Message struct {
	At  time.Time
	Msg dgt.Message
}

// Resync: something on the line was damaged, and the link is repairing
// it: bytes that were no valid frame were skipped (noise, a frame cut
// short; Err is a *dgt.FrameError), a message came that nobody asked for
// (ErrUnexpected), or a check of the position found it differing from the
// reports (ErrMismatch). The link then asks the board for its position
// (and clock), which follows as a [Message]; when moves may have been
// missed it reads the EEPROM log too, which follows as a [Log]. See the
// package comment, "Damage on the line".
type Resync struct {
	At  time.Time
	Err error
}

// Disconnected: the connection was lost (Err says why: a read or write
// error such as io.EOF, or ErrDead from the watchdog). The link reconnects
// by itself.
type Disconnected struct {
	At  time.Time
	Err error
}

// When returns the time of the event.
func (e Connected) When() time.Time    { return e.At }
func (e Log) When() time.Time          { return e.At }
func (e Message) When() time.Time      { return e.At }
func (e Resync) When() time.Time       { return e.At }
func (e Disconnected) When() time.Time { return e.At }

func (Connected) linkEvent()    {}
func (Log) linkEvent()          {}
func (Message) linkEvent()      {}
func (Resync) linkEvent()       {}
func (Disconnected) linkEvent() {}

var (
	_ Event = Connected{}
	_ Event = Log{}
	_ Event = Message{}
	_ Event = Resync{}
	_ Event = Disconnected{}
)
