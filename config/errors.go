package config

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinels matched with errors.Is on the errors [Load] returns.
var (
	// ErrUnknownKey: the key is not part of the configuration (a typo).
	ErrUnknownKey = errors.New("not a configuration key")
	// ErrInvalid: the key has a value that is not allowed.
	ErrInvalid = errors.New("invalid value")
	// ErrFile: the configuration file could not be read or parsed.
	ErrFile = errors.New("cannot read the file")
	// ErrUnsupported: the configuration is valid but asks for something
	// this build of the daemon does not run yet ([Config.Unsupported]).
	ErrUnsupported = errors.New("not supported by this build")
)

// KeyError is a problem with one key. Key is the full path, with list
// indexes ("boards[2].variant"); Err matches [ErrUnknownKey],
// [ErrInvalid] or [ErrUnsupported] and says what is wrong.
type KeyError struct {
	Key string
	Err error
}

// Error returns "<key>: <problem>", e.g. `boards[2].variant: "chess9LX"
// is not one of chess, chess960, team-drop, xiangqi`.
func (e *KeyError) Error() string { return e.Key + ": " + e.Err.Error() }

// Unwrap returns the cause.
func (e *KeyError) Unwrap() error { return e.Err }

// Error is what [Load] returns when the configuration has problems: all of
// them, each a *KeyError naming its key (or an error matching [ErrFile]).
// errors.Is and errors.As see through it to each problem.
type Error struct {
	// File is the configuration file read, "" when none.
	File     string
	Problems []error
}

// Error says where and lists the problems, one a line:
//
//	configuration dgtbridge.yaml: boards[1].variant: "x" is not one of …
//	configuration dgtbridge.yaml has 2 problems:
//	  boards[1].variant: …
//	  event.pairings: …
func (e *Error) Error() string {
	where := "configuration"
	if e.File != "" {
		where += " " + e.File
	}
	if len(e.Problems) == 1 {
		return where + ": " + strings.ReplaceAll(e.Problems[0].Error(), "\n", "\n  ")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s has %d problems:", where, len(e.Problems))
	for _, p := range e.Problems {
		b.WriteString("\n  ")
		b.WriteString(strings.ReplaceAll(p.Error(), "\n", "\n    "))
	}
	return b.String()
}

// Unwrap returns the problems.
func (e *Error) Unwrap() []error { return e.Problems }

// newError returns nil when problems is empty, else an *Error.
func newError(file string, problems []error) error {
	if len(problems) == 0 {
		return nil
	}
	return &Error{File: file, Problems: problems}
}

// invalid is the error of an invalid value: it matches ErrInvalid and
// prints only its message.
type invalid struct{ msg string }

func (e invalid) Error() string        { return e.msg }
func (e invalid) Is(target error) bool { return target == ErrInvalid }

// unknown is the error of an unknown key, with a suggestion when a known
// key is close.
type unknown struct{ hint string }

func (e unknown) Error() string {
	if e.hint != "" {
		return fmt.Sprintf("%s (did you mean %s?)", ErrUnknownKey, e.hint)
	}
	return ErrUnknownKey.Error()
}
func (e unknown) Is(target error) bool { return target == ErrUnknownKey }

// unsupported is ErrUnsupported with a sentence.
type unsupported struct{ msg string }

func (e unsupported) Error() string        { return e.msg }
func (e unsupported) Is(target error) bool { return target == ErrUnsupported }

// keyErr returns a *KeyError with an invalid-value message.
func keyErr(key, format string, args ...any) *KeyError {
	return &KeyError{Key: key, Err: invalid{fmt.Sprintf(format, args...)}}
}

// unknownKey returns the *KeyError of an unknown key; known are the keys
// allowed where it stands (for a suggestion).
func unknownKey(key string, known []string) *KeyError {
	prefix, last := "", key
	if i := strings.LastIndexAny(key, ".]"); i >= 0 {
		prefix, last = key[:i+1], key[i+1:]
		if key[i] == ']' {
			prefix = key[:i+1] + "."
			last = strings.TrimPrefix(last, ".")
		}
	}
	best, bestD := "", 3
	for _, k := range known {
		if d := distance(last, k); d < bestD {
			best, bestD = prefix+k, d
		}
	}
	return &KeyError{Key: key, Err: unknown{hint: best}}
}

// distance is the edit distance of two short strings (insertions,
// deletions, substitutions), for spelling suggestions.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
