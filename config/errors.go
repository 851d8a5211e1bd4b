package config

import (
	"errors"
	"fmt"
)

// Sentinels matched with errors.Is on the errors [Load] returns.
var (
	// ErrUnknownKey: the key is not part of the configuration (a typo).
	ErrUnknownKey = errors.New("config: unknown key")
	// ErrInvalid: the key has a value that is not allowed.
	ErrInvalid = errors.New("config: invalid value")
	// ErrFile: the configuration file could not be read or parsed.
	ErrFile = errors.New("config: cannot read the configuration file")
)

// KeyError is a problem with one key. Key is the full path, with list
// indexes ("boards[2].variant"); Err wraps [ErrUnknownKey] or [ErrInvalid]
// and says what is wrong.
type KeyError struct {
	Key string
	Err error
}

// Error returns `config: unknown key "nats.ur"` for unknown keys and
// "config: <key>: <problem>" for invalid values.
func (e *KeyError) Error() string {
	if errors.Is(e.Err, ErrUnknownKey) {
		return fmt.Sprintf("config: unknown key %q", e.Key)
	}
	return "config: " + e.Key + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *KeyError) Unwrap() error { return e.Err }

// invalid is the error of an invalid value: it matches ErrInvalid and
// prints only its message.
type invalid struct{ msg string }

func (e invalid) Error() string        { return e.msg }
func (e invalid) Is(target error) bool { return target == ErrInvalid }

// keyErr returns a *KeyError with an invalid-value message.
func keyErr(key, format string, args ...any) *KeyError {
	return &KeyError{Key: key, Err: invalid{fmt.Sprintf(format, args...)}}
}
