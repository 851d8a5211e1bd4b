package link

import (
	"errors"
	"time"

	"github.com/dgtbridge/dgtbridge/obp"
)

// Event is what a [Link] reports. The concrete types are [Connected],
// [Message], [BadLine] and [Disconnected]; consumers switch on them.
type Event interface {
	When() time.Time
	linkEvent()
}

// Connected: a board was identified and read (once per connection,
// before any Message of that connection).
type Connected struct {
	At    time.Time
	Ident obp.Ident
	// Board is the whole board as it answered "B".
	Board obp.Board
	// Clock is the clock as it answered "C"; Clock.None when no clock is
	// attached or the board did not answer.
	Clock obp.Clock
}

// Message is a line from the board, in arrival order. At is when it was
// read; Msg.BoardTime() is the board's own timestamp, when it sends one.
type Message struct {
	At  time.Time
	Msg obp.Message
}

// BadLine: a line was dropped (Err is a *obp.LineError); the link has
// asked for the whole board.
type BadLine struct {
	At  time.Time
	Err error
}

// Disconnected: the connection was lost (Err says why: a read or write
// error, ErrDead, ErrBoardChanged). The link reconnects by itself.
type Disconnected struct {
	At  time.Time
	Err error
}

// When returns the time of the event.
func (e Connected) When() time.Time    { return e.At }
func (e Message) When() time.Time      { return e.At }
func (e BadLine) When() time.Time      { return e.At }
func (e Disconnected) When() time.Time { return e.At }

func (Connected) linkEvent()    {}
func (Message) linkEvent()      {}
func (BadLine) linkEvent()      {}
func (Disconnected) linkEvent() {}

// Sentinel errors; match them with errors.Is.
var (
	// ErrNoBoard: the port opened but no OBP board answered "I" (or it
	// did not answer "B").
	ErrNoBoard = errors.New("obp link: no OBP board answered")
	// ErrDead: the board stopped answering the watchdog's poll.
	ErrDead = errors.New("obp link: board stopped answering")
	// ErrBoardChanged: the watchdog's poll was answered by another board.
	ErrBoardChanged = errors.New("obp link: another board answered")
	// ErrNotConnected: a command was sent while no board is connected.
	ErrNotConnected = errors.New("obp link: board not connected")
	// ErrStopped: Run has returned.
	ErrStopped = errors.New("obp link: stopped")
)
