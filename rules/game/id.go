package game

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrBadID: a game id is not <event>.<round>.<board> with an event token
// of [a-z0-9_-] and positive round and board.
var ErrBadID = errors.New("game: bad game id")

// IDError names the game id that was refused and why; it wraps [ErrBadID].
type IDError struct {
	ID     string
	Reason string
}

// Error names the id and the reason.
func (e *IDError) Error() string { return fmt.Sprintf("game: bad game id %q: %s", e.ID, e.Reason) }

// Unwrap returns ErrBadID.
func (e *IDError) Unwrap() error { return ErrBadID }

// ID names one game: <event>.<round>.<board> (the "game" field of every
// payload, and three tokens of its NATS subjects). It marshals to and from
// that string; the zero ID marshals as "".
type ID struct {
	Event string
	Round int
	Board int
}

// String returns <event>.<round>.<board>.
func (g ID) String() string {
	return g.Event + "." + strconv.Itoa(g.Round) + "." + strconv.Itoa(g.Board)
}

// Validate checks the event token ([a-z0-9_-]+) and that round and board
// are positive.
func (g ID) Validate() error {
	if !validToken(g.Event) {
		return &IDError{ID: g.String(), Reason: "the event is not a token of [a-z0-9_-]"}
	}
	if g.Round < 1 || g.Board < 1 {
		return &IDError{ID: g.String(), Reason: "round and board count from 1"}
	}
	return nil
}

// ParseID parses and validates <event>.<round>.<board>.
func ParseID(s string) (ID, error) {
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return ID{}, &IDError{ID: s, Reason: "want <event>.<round>.<board>"}
	}
	r, err1 := strconv.Atoi(parts[1])
	b, err2 := strconv.Atoi(parts[2])
	if err1 != nil || err2 != nil {
		return ID{}, &IDError{ID: s, Reason: "round and board are numbers"}
	}
	g := ID{Event: parts[0], Round: r, Board: b}
	return g, g.Validate()
}

// MarshalText implements encoding.TextMarshaler.
func (g ID) MarshalText() ([]byte, error) {
	if g == (ID{}) {
		return []byte{}, nil
	}
	return []byte(g.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (g *ID) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*g = ID{}
		return nil
	}
	id, err := ParseID(string(b))
	if err != nil {
		return err
	}
	*g = id
	return nil
}

// validToken reports whether s is one or more of [a-z0-9_-].
func validToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}
