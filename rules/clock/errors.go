package clock

import (
	"errors"
	"fmt"
)

// Sentinels for [ParseError.Err].
var (
	// ErrSyntax: the text does not follow the TimeControl grammar.
	ErrSyntax = errors.New("clock: bad time control syntax")
	// ErrRange: a number is out of range (zero time, zero moves, too large).
	ErrRange = errors.New("clock: time control value out of range")
)

// ParseError reports where a time control failed to parse. Offset is the
// byte offset into Input of the offending character (counting from 0).
type ParseError struct {
	Input  string
	Offset int
	Msg    string // what was expected or found
	Err    error  // ErrSyntax or ErrRange
}

// Error implements error.
func (e *ParseError) Error() string {
	return fmt.Sprintf("clock: time control %q at column %d: %s", e.Input, e.Offset+1, e.Msg)
}

// Unwrap returns ErrSyntax or ErrRange.
func (e *ParseError) Unwrap() error { return e.Err }
