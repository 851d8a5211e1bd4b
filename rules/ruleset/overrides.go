package ruleset

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// setter applies one override value to rs.
type setter func(rs *RuleSet, v any) error

// overrideKeys maps the snake_case parameter names of docs/configuration.md
// ("Rule-set overrides") (and 004's te_* keys) to setters.
var overrideKeys = map[string]setter{
	"game_type":                       enumSetter(gameTypeNames, func(rs *RuleSet, i int) { rs.GameType = GameType(i) }),
	"supervision_regime":              supervisionSetter,
	"illegal_trigger":                 enumSetter(triggerNames, func(rs *RuleSet, i int) { rs.Illegal.Trigger = Trigger(i) }),
	"illegal_time_award":              durSetter(func(rs *RuleSet) *time.Duration { return &rs.Illegal.TimeAward }),
	"illegal_loss_at":                 intSetter(func(rs *RuleSet) *int { return &rs.Illegal.LossAt }),
	"illegal_loss_draw_exception":     boolSetter(func(rs *RuleSet) *bool { return &rs.Illegal.DrawIfOpponentCannotMate }),
	"illegal_claim_win_at":            intSetter(func(rs *RuleSet) *int { return &rs.Illegal.ClaimWinAt }),
	"illegal_claim_window":            enumSetter(windowNames, func(rs *RuleSet, i int) { rs.Illegal.Window = Window(i) }),
	"count_unpenalised_illegal_moves": boolSetter(func(rs *RuleSet) *bool { return &rs.Illegal.CountUnpenalised }),
	"clock_press_no_move_is_illegal":  boolSetter(func(rs *RuleSet) *bool { return &rs.Illegal.ClockWithoutMoveIsIllegal }),
	"two_hands_is_illegal":            boolSetter(func(rs *RuleSet) *bool { return &rs.Illegal.TwoHandsIsIllegal }),
	"unpromoted_pawn_to_queen":        boolSetter(func(rs *RuleSet) *bool { return &rs.Illegal.UnpromotedPawnToQueen }),
	"illegal_position_draw":           boolSetter(func(rs *RuleSet) *bool { return &rs.Illegal.IllegalPositionDraw }),
	"te_loss_threshold":               intSetter(func(rs *RuleSet) *int { return &rs.TechnicalErrors.LossAt }),
	"te_requires_arbiter":             boolSetter(func(rs *RuleSet) *bool { return &rs.TechnicalErrors.RequiresArbiter }),
	"draw_claim_right_lost_on":        enumSetter(lapseNames, func(rs *RuleSet, i int) { rs.Claims.LapseOn = Lapse(i) }),
	"incorrect_claim_award":           durSetter(func(rs *RuleSet) *time.Duration { return &rs.Claims.WrongClaimAward }),
	"incorrect_claim_cut":             boolSetter(func(rs *RuleSet) *bool { return &rs.Claims.WrongClaimCut }),
	"stalemate_draw":                  boolSetter(func(rs *RuleSet) *bool { return &rs.Draws.Stalemate }),
	"dead_position_draw":              boolSetter(func(rs *RuleSet) *bool { return &rs.Draws.DeadPosition }),
	"fivefold_auto":                   boolSetter(func(rs *RuleSet) *bool { return &rs.Draws.FivefoldAuto }),
	"seventyfive_auto":                boolSetter(func(rs *RuleSet) *bool { return &rs.Draws.SeventyFiveAuto }),
	"threefold_claim":                 boolSetter(func(rs *RuleSet) *bool { return &rs.Draws.ThreefoldClaim }),
	"fifty_move_claim":                boolSetter(func(rs *RuleSet) *bool { return &rs.Draws.FiftyMoveClaim }),
	"draw_agreement_min_moves_each":   intSetter(func(rs *RuleSet) *int { return &rs.Draws.AgreementMinMovesEach }),
	"flag_no_mate_draw":               boolSetter(func(rs *RuleSet) *bool { return &rs.Flags.NoMateDraw }),
	"arbiter_calls_flag":              boolSetter(func(rs *RuleSet) *bool { return &rs.Flags.ArbiterCalls }),
	"time_win_claim_rule":             enumSetter(timeWinNames, func(rs *RuleSet, i int) { rs.Flags.TimeWinClaim = TimeWinClaim(i) }),
	"both_flags_rule":                 enumSetter(bothFlagsNames, func(rs *RuleSet, i int) { rs.Flags.BothFlags = BothFlagsRule(i) }),
	"touch_move_on_request_only":      boolSetter(func(rs *RuleSet) *bool { return &rs.TouchMoveOnRequestOnly }),
	"setup_claim_cutoff_moves":        intSetter(func(rs *RuleSet) *int { return &rs.SetupClaimCutoffMoves }),
	"colours_reversed_restart_below":  intSetter(func(rs *RuleSet) *int { return &rs.ColoursReversedRestartBelow }),
	"default_time":                    durSetter(func(rs *RuleSet) *time.Duration { return &rs.DefaultTime }),
	"quickplay_finish_rules":          boolSetter(func(rs *RuleSet) *bool { return &rs.QuickplayFinish }),
	"scoresheet_exemption_below":      durSetter(func(rs *RuleSet) *time.Duration { return &rs.Scoresheet.Below }),
	"scoresheet_exemption_increment":  durSetter(func(rs *RuleSet) *time.Duration { return &rs.Scoresheet.IncrementBelow }),
}

// OverrideKeys returns the parameter names WithOverrides accepts, sorted.
func OverrideKeys() []string {
	keys := make([]string, 0, len(overrideKeys))
	for k := range overrideKeys {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// WithOverrides returns rs with the event's overrides applied. Keys are the
// snake_case names of [OverrideKeys]; values are what a YAML/JSON decoder
// produces: bool, integers (int, int64, float64 without a fraction),
// strings for enumerations ("limited", "made", …) and for durations
// ("2m", "90s"; a time.Duration is accepted too). Every bad key is
// reported, in key order, as an *OverrideError joined with errors.Join; rs
// itself is not modified.
func (rs RuleSet) WithOverrides(o map[string]any) (RuleSet, error) {
	out := rs
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var errs []error
	for _, k := range keys {
		set, ok := overrideKeys[k]
		if !ok {
			errs = append(errs, &OverrideError{RuleSet: rs.Name, Key: k, Value: o[k], Err: ErrUnknownKey, Msg: suggest(k)})
			continue
		}
		if err := set(&out, o[k]); err != nil {
			errs = append(errs, &OverrideError{RuleSet: rs.Name, Key: k, Value: o[k], Err: ErrBadValue, Msg: err.Error()})
		}
	}
	if len(errs) > 0 {
		return rs, errors.Join(errs...)
	}
	return out, nil
}

// suggest proposes a known key close to k (same words in another order,
// or a prefix), for the error message.
func suggest(k string) string {
	for _, known := range OverrideKeys() {
		if strings.HasPrefix(known, k) || strings.HasPrefix(k, known) {
			return fmt.Sprintf(" (did you mean %q?)", known)
		}
	}
	return " (see ruleset.OverrideKeys)"
}

func boolSetter(field func(*RuleSet) *bool) setter {
	return func(rs *RuleSet, v any) error {
		b, ok := v.(bool)
		if !ok {
			return fmt.Errorf("want true or false, got %T", v)
		}
		*field(rs) = b
		return nil
	}
}

func intSetter(field func(*RuleSet) *int) setter {
	return func(rs *RuleSet, v any) error {
		var n int64
		switch x := v.(type) {
		case int:
			n = int64(x)
		case int64:
			n = x
		case uint64:
			if x > math.MaxInt32 {
				return fmt.Errorf("too large")
			}
			n = int64(x)
		case float64:
			if x != math.Trunc(x) {
				return fmt.Errorf("want a whole number")
			}
			n = int64(x)
		default:
			return fmt.Errorf("want a whole number, got %T", v)
		}
		if n < 0 || n > 1000 {
			return fmt.Errorf("want 0 to 1000")
		}
		*field(rs) = int(n)
		return nil
	}
}

func durSetter(field func(*RuleSet) *time.Duration) setter {
	return func(rs *RuleSet, v any) error {
		var d time.Duration
		switch x := v.(type) {
		case time.Duration:
			d = x
		case string:
			var err error
			if d, err = time.ParseDuration(x); err != nil {
				return fmt.Errorf("want a duration such as \"2m\" or \"90s\"")
			}
		default:
			return fmt.Errorf("want a duration such as \"2m\" or \"90s\", got %T", v)
		}
		if d < 0 {
			return fmt.Errorf("must not be negative")
		}
		*field(rs) = d
		return nil
	}
}

func enumSetter(names []string, set func(*RuleSet, int)) setter {
	return func(rs *RuleSet, v any) error {
		s, ok := v.(string)
		if i := slices.Index(names, strings.ToLower(s)); ok && i >= 0 {
			set(rs, i)
			return nil
		}
		return fmt.Errorf("want one of %s", strings.Join(names, ", "))
	}
}

// supervisionSetter also accepts the appendix names A.3, B.3 (full) and
// A.4, B.4 (limited), and keeps the illegal-move window in step.
func supervisionSetter(rs *RuleSet, v any) error {
	s, _ := v.(string)
	switch strings.ToUpper(s) {
	case "FULL", "A.3", "B.3", "A3", "B3":
		rs.Supervision = Full
		if rs.Illegal.Window == UntilOpponentMoves {
			rs.Illegal.Window = WholeGame
		}
	case "LIMITED", "A.4", "B.4", "A4", "B4":
		rs.Supervision = Limited
		if rs.Illegal.Window == WholeGame {
			rs.Illegal.Window = UntilOpponentMoves
		}
	default:
		return fmt.Errorf("want full (A.3/B.3) or limited (A.4/B.4)")
	}
	return nil
}
