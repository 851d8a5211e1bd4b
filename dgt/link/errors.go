package link

import (
	"errors"
	"fmt"

	"github.com/dgtbridge/dgtbridge/dgt"
)

// Sentinel errors; match them with errors.Is.
var (
	// ErrNoBoard: the port opened but no DGT board answered the version
	// request.
	ErrNoBoard = errors.New("link: no DGT board answered")
	// ErrDead: the board stopped answering (the watchdog's poll got no
	// reply).
	ErrDead = errors.New("link: board stopped answering")
	// ErrNotConnected: a command was sent while no board is connected.
	ErrNotConnected = errors.New("link: board not connected")
	// ErrNoClock: a clock command was sent but no clock is connected.
	ErrNoClock = errors.New("link: no clock connected")
	// ErrAckTimeout: the clock did not acknowledge a command after all
	// tries.
	ErrAckTimeout = errors.New("link: clock command not acknowledged")
	// ErrRejected: the clock acknowledged a command with an error code.
	ErrRejected = errors.New("link: clock rejected the command")
	// ErrStopped: Run has returned; the link takes no more commands.
	ErrStopped = errors.New("link: stopped")
	// ErrNoLog: the board sent no EEPROM log (DGT_SEND_EE_MOVES) within
	// Settings.LogTimeout: it has no EEPROM, or the dump was lost.
	ErrNoLog = errors.New("link: no EEPROM log from the board")
	// ErrBadLog: the EEPROM log arrived damaged (noise during its 8 s on
	// the line) every time it was asked for; the [Log] event carries what
	// could be read.
	ErrBadLog = errors.New("link: EEPROM log damaged")
	// ErrUnexpected: a message arrived that nobody asked for and the
	// board never sends on its own (a garbled header made it look
	// valid); the link treats it like a garbled frame.
	ErrUnexpected = errors.New("link: unexpected message")
	// ErrMismatch: a check of the position found the board holding
	// something else than its reports said (a corrupted byte that still
	// looked valid).
	ErrMismatch = errors.New("link: board position differs from its reports")
	// ErrNotClockCommand: Clock was given a command that is not a wrapped
	// clock command (0x2B).
	ErrNotClockCommand = errors.New("link: not a clock command")
)

// ClockError reports a clock command that failed.
type ClockError struct {
	Cmd   dgt.ClockCmd
	Tries int
	Ack   *dgt.ClockAck // the ACK received, when the clock rejected the command
	Err   error         // ErrAckTimeout, ErrRejected, ErrNoClock, ErrNotConnected
}

// Error describes the failure.
func (e *ClockError) Error() string {
	s := fmt.Sprintf("link: clock command %v after %d tries: %v", e.Cmd, e.Tries, e.Err)
	if e.Ack != nil {
		s += fmt.Sprintf(" (ack %v)", *e.Ack)
	}
	return s
}

// Unwrap returns Err.
func (e *ClockError) Unwrap() error { return e.Err }
