package adjudicator

import (
	"errors"
	"fmt"
)

// Sentinels for [CommandError.Err].
var (
	// ErrBadCommand: the command is malformed (unknown cmd, missing or bad field).
	ErrBadCommand = errors.New("arbiter: bad command")
	// ErrUnknownAlert: the command names an alert this game never raised.
	ErrUnknownAlert = errors.New("arbiter: unknown alert")
	// ErrNotApplicable: the command does not apply in the game's state
	// (no clock readings for a time penalty, a ply beyond the record, …).
	ErrNotApplicable = errors.New("arbiter: command not applicable")
)

// CommandError says which command and field were wrong. The daemon puts
// Error() in the reply's error field.
type CommandError struct {
	Cmd, Field, Msg string
	Err             error
}

// Error implements error.
func (e *CommandError) Error() string {
	if e.Field != "" {
		return fmt.Sprintf("arbiter: %s: %s: %s", e.Cmd, e.Field, e.Msg)
	}
	return fmt.Sprintf("arbiter: %s: %s", e.Cmd, e.Msg)
}

// Unwrap returns the sentinel.
func (e *CommandError) Unwrap() error { return e.Err }
