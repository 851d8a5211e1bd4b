package broadcast

import (
	"errors"
	"fmt"
)

// Sentinel errors. Callers match them with errors.Is.
var (
	// ErrBadToken: a subject token is empty or holds a character outside [a-z0-9_-].
	ErrBadToken = errors.New("broadcast: bad subject token")
	// ErrClosed: the publisher or outbox was closed.
	ErrClosed = errors.New("broadcast: closed")
	// ErrInsecureListen: the embedded server has no users but was asked to
	// listen on a non-loopback address.
	ErrInsecureListen = errors.New("broadcast: no users configured, refusing to listen on a non-loopback address")
	// ErrAdminNotLoopback: http.admin_listen is not a loopback address
	// (the admin listener has no sign-in).
	ErrAdminNotLoopback = errors.New("broadcast: the admin listener must be on a loopback address")
	// ErrBadRole: a user's role is not organiser, arbiter or public.
	ErrBadRole = errors.New("broadcast: unknown role")
	// ErrCorruptJournal: an outbox record failed its checksum in the middle
	// of the journal (a torn tail is repaired silently; this is not).
	ErrCorruptJournal = errors.New("broadcast: corrupt outbox journal")
	// ErrNotReady: the embedded server did not become ready in time.
	ErrNotReady = errors.New("broadcast: embedded server not ready")
)

// TokenError reports which token of a subject was rejected and why.
type TokenError struct {
	Field string // what the token is: "prefix", "event", "board_id"…
	Token string
	Err   error
}

// Error names the field, the token and the reason.
func (e *TokenError) Error() string {
	return fmt.Sprintf("broadcast: %s %q: %v", e.Field, e.Token, e.Err)
}

// Unwrap returns the underlying sentinel.
func (e *TokenError) Unwrap() error { return e.Err }

// JournalError reports a problem at a byte offset of the outbox journal.
type JournalError struct {
	Path   string
	Offset int64
	Err    error
}

// Error names the file, the offset and the reason.
func (e *JournalError) Error() string {
	return fmt.Sprintf("broadcast: outbox %s at offset %d: %v", e.Path, e.Offset, e.Err)
}

// Unwrap returns the underlying error.
func (e *JournalError) Unwrap() error { return e.Err }
