package config

import (
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// RuleSet returns the rule set that judges board b: the preset named by
// b.Ruleset with b.Rules applied through [ruleset.RuleSet.WithOverrides].
// b must be an effective board ([Config.Effective]), whose Rules already
// hold the event's overrides under the board's own. [Load] has checked
// both, so after a successful Load this returns no error; a Config built
// by hand may get a *ruleset.UnknownError or *ruleset.OverrideError.
func (b Board) RuleSet() (ruleset.RuleSet, error) {
	rs, err := ruleset.Lookup(b.Ruleset)
	if err != nil {
		return ruleset.RuleSet{}, err
	}
	return rs.WithOverrides(b.Rules)
}

// mergeRules returns the event's overrides with the board's on top (the
// board wins key by key); nil when both are empty.
func mergeRules(event, board map[string]any) map[string]any {
	if len(event) == 0 && len(board) == 0 {
		return nil
	}
	out := make(map[string]any, len(event)+len(board))
	maps.Copy(out, event)
	maps.Copy(out, board)
	return out
}

// checkRules applies overrides to the preset name and returns a *KeyError
// at prefix+"."+key for every bad key that only (a nil only means every
// key). A preset that does not exist is reported elsewhere (the ruleset
// key), so it yields nothing here.
func checkRules(prefix, name string, overrides, only map[string]any) []error {
	if len(overrides) == 0 {
		return nil
	}
	rs, err := ruleset.Lookup(name)
	if err != nil {
		return nil
	}
	_, err = rs.WithOverrides(overrides)
	if err == nil {
		return nil
	}
	var errs []error
	for _, e := range unjoin(err) {
		var oe *ruleset.OverrideError
		if !errors.As(e, &oe) {
			errs = append(errs, &KeyError{Key: prefix, Err: ruleErr{msg: e.Error(), cause: e}})
			continue
		}
		if only != nil {
			if _, mine := only[oe.Key]; !mine {
				continue
			}
		}
		errs = append(errs, &KeyError{Key: prefix + "." + oe.Key, Err: ruleErr{msg: ruleMsg(oe), cause: oe}})
	}
	return errs
}

// ruleMsg words an override problem for a person editing the file.
func ruleMsg(oe *ruleset.OverrideError) string {
	if errors.Is(oe, ruleset.ErrUnknownKey) {
		if strings.HasPrefix(oe.Msg, " (did you mean") {
			return "not a rule parameter" + oe.Msg
		}
		return "not a rule parameter; the parameters are " + strings.Join(ruleset.OverrideKeys(), ", ")
	}
	return fmt.Sprintf("%s is not a valid value for rule set %s: %s", quote(oe.Value), oe.RuleSet, oe.Msg)
}

// ruleErr is an invalid rule override: it matches [ErrInvalid] and
// unwraps to the *ruleset.OverrideError (so errors.Is also matches
// ruleset.ErrUnknownKey or ruleset.ErrBadValue).
type ruleErr struct {
	msg   string
	cause error
}

func (e ruleErr) Error() string        { return e.msg }
func (e ruleErr) Is(target error) bool { return target == ErrInvalid }
func (e ruleErr) Unwrap() error        { return e.cause }

// unjoin splits an errors.Join result.
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}
