package board

import (
	"errors"
	"fmt"
)

// Sentinel errors of the tracker.
var (
	// ErrNoStart: Options.Start is nil.
	ErrNoStart = errors.New("board: no start position")
	// ErrBadOption: an option is out of range.
	ErrBadOption = errors.New("board: bad option")
	// ErrNoSuchPly: an arbiter command named a ply the record does not have.
	ErrNoSuchPly = errors.New("board: no such ply")
	// ErrNothingPending: AcceptIllegal without a pending illegal move.
	ErrNothingPending = errors.New("board: no illegal move pending")
)

// CommandError is returned by the arbiter commands; it names the command
// and wraps one of the sentinels.
type CommandError struct {
	Command string
	Ply     int
	Err     error
}

// Error implements error.
func (e *CommandError) Error() string {
	return fmt.Sprintf("board: %s (ply %d): %v", e.Command, e.Ply, e.Err)
}

// Unwrap returns the sentinel.
func (e *CommandError) Unwrap() error { return e.Err }
