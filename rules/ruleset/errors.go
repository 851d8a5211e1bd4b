package ruleset

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinels.
var (
	// ErrUnknownRuleSet: Lookup was given a name that is not a preset.
	ErrUnknownRuleSet = errors.New("ruleset: unknown rule set")
	// ErrUnknownKey: an override names no parameter.
	ErrUnknownKey = errors.New("ruleset: unknown parameter")
	// ErrBadValue: an override's value has the wrong type or is out of range.
	ErrBadValue = errors.New("ruleset: bad value")
)

// UnknownError is returned by [Lookup] for an unknown name.
type UnknownError struct {
	Name  string
	Valid []string
}

// Error implements error.
func (e *UnknownError) Error() string {
	return fmt.Sprintf("ruleset: unknown rule set %q (valid: %s)", e.Name, strings.Join(e.Valid, ", "))
}

// Unwrap returns ErrUnknownRuleSet.
func (e *UnknownError) Unwrap() error { return ErrUnknownRuleSet }

// OverrideError names the override key that could not be applied.
type OverrideError struct {
	RuleSet string
	Key     string
	Value   any
	Msg     string
	Err     error // ErrUnknownKey or ErrBadValue
}

// Error implements error.
func (e *OverrideError) Error() string {
	if errors.Is(e.Err, ErrUnknownKey) {
		return fmt.Sprintf("ruleset %s: unknown parameter %q%s", e.RuleSet, e.Key, e.Msg)
	}
	return fmt.Sprintf("ruleset %s: parameter %q: bad value %v: %s", e.RuleSet, e.Key, e.Value, e.Msg)
}

// Unwrap returns ErrUnknownKey or ErrBadValue.
func (e *OverrideError) Unwrap() error { return e.Err }
