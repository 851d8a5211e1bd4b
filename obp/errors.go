package obp

import (
	"errors"
	"fmt"
)

// Sentinel errors; a *LineError or *CommandError wraps one of them (match
// with errors.Is).
var (
	// ErrNeedMore: no complete line is buffered yet. Not a failure.
	ErrNeedMore = errors.New("obp: need more bytes")
	// ErrTooLong: a line longer than MaxLine bytes; it was dropped up to
	// its end.
	ErrTooLong = errors.New("obp: line too long")
	// ErrNotPrintable: a byte outside printable ASCII (0x20–0x7E) in a line.
	ErrNotPrintable = errors.New("obp: byte not printable ASCII")
	// ErrChecksum: a board line whose "*HH" is missing or does not match.
	ErrChecksum = errors.New("obp: bad checksum")
	// ErrSyntax: a line of a known type whose fields do not parse.
	ErrSyntax = errors.New("obp: bad line")
	// ErrNoGeometry: a line naming squares arrived before the board said
	// its size (its Ident).
	ErrNoGeometry = errors.New("obp: board size not known yet")
	// ErrUnknownCommand: a host line that is no OBP/1 command.
	ErrUnknownCommand = errors.New("obp: unknown command")
)

// LineError reports a board→host line that was dropped. Line holds the
// line as received (without its end, at most MaxLine bytes of it).
type LineError struct {
	Line   []byte
	Err    error // one of the sentinels
	Detail string
}

// Error names the problem and quotes the line.
func (e *LineError) Error() string {
	s := fmt.Sprintf("%v: %q", e.Err, e.Line)
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// Unwrap returns the sentinel.
func (e *LineError) Unwrap() error { return e.Err }

// CommandError reports a host→board line that is no command.
type CommandError struct {
	Line string
	Err  error
}

// Error quotes the line.
func (e *CommandError) Error() string { return fmt.Sprintf("%v: %q", e.Err, e.Line) }

// Unwrap returns the sentinel.
func (e *CommandError) Unwrap() error { return e.Err }
