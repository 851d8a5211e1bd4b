package ruleset

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

func init() {
	presets[XiangqiVN2004] = func() RuleSet { return xiangqiVN2004(Standard) }
	presets[XiangqiVN2004Rapid] = func() RuleSet { return xiangqiVN2004(Rapid) }
	presets[XiangqiVN2004Blitz] = func() RuleSet { return xiangqiVN2004(Blitz) }
	maps.Copy(overrideKeys, xiangqiKeys)
}

// xiangqiKeys are the settings of docs/xiangqi.md ("Rule sets") that the common
// keys (te_loss_threshold, default_time, …) do not cover; the spec's own
// names, units in the name (minutes, ms) as it has them.
var xiangqiKeys = map[string]setter{
	"notation_dialect":                 xqEnum([]string{"vn", "doc_asian", "wxf"}, func(x *Xiangqi, s string) { x.Notation = s }),
	"tandem_for_advisor_elephant":      xqBool(func(x *Xiangqi) *bool { return &x.TandemAdvisorElephant }),
	"commit_on_place_debounce_ms":      xqUnits(time.Millisecond, 0, 5000, func(x *Xiangqi) *time.Duration { return &x.CommitDebounce }),
	"touch_evidence_counts_as_witness": xqBool(func(x *Xiangqi) *bool { return &x.TouchEvidenceAsWitness }),
	"mate_before_press_wins":           xqBool(func(x *Xiangqi) *bool { return &x.MateBeforePressWins }),
	"late_default_minutes": xiangqiOnly(func(rs *RuleSet, v any) error {
		n, ok := wholeNumber(v)
		if !ok || n < 1 || n > 240 {
			return fmt.Errorf("want minutes, 1 to 240 (Art. 10.2.1(a): 15, 30 or 60)")
		}
		rs.DefaultTime = time.Duration(n) * time.Minute
		return nil
	}),
	"move_controls":               xiangqiOnly(moveControlsSetter),
	"final_phase_max_checks":      xqInt(0, 100, func(x *Xiangqi) *int { return &x.FinalPhaseMaxChecks }),
	"no_capture_limit_moves":      xqInt(1, 500, func(x *Xiangqi) *int { return &x.NoCaptureLimit }),
	"checks_counted_max":          xqInt(0, 500, func(x *Xiangqi) *int { return &x.ChecksCounted }),
	"checks_cap_scope":            xqEnum([]string{"per_side", "total"}, func(x *Xiangqi, s string) { x.ChecksCapScope = s }),
	"count_each_player":           xqBool(func(x *Xiangqi) *bool { return &x.CountEachPlayer }),
	"false_claim_bonus_minutes":   xqUnits(time.Minute, 0, 60, func(x *Xiangqi) *time.Duration { return &x.WrongClaimBonus }),
	"te_bonus_minutes":            xqUnits(time.Minute, 0, 60, func(x *Xiangqi) *time.Duration { return &x.TEBonus }),
	"ce_loss_threshold":           xqInt(0, 100, func(x *Xiangqi) *int { return &x.ConductLossAt }),
	"no_attackers_draw":           xqBool(func(x *Xiangqi) *bool { return &x.NoAttackersDraw }),
	"recording_required":          xqBool(func(x *Xiangqi) *bool { return &x.RecordingRequired }),
	"repetition_alert_occurrence": xqInt(2, 20, func(x *Xiangqi) *int { return &x.Repetition.Occurrence }),
	"check_vs_chase":              xqEnum([]string{"checker_must_change", "draw"}, func(x *Xiangqi, s string) { x.Repetition.CheckVsChase = s }),
	"king_pawn_combined_chase": xqEnum([]string{"by_other_pieces", "always_draw", "always_loss"},
		func(x *Xiangqi, s string) { x.Repetition.KingPawnCombined = s }),
}

// XiangqiKeys returns the override keys that only xiangqi rule sets
// accept, sorted.
func XiangqiKeys() []string {
	keys := slices.Collect(maps.Keys(xiangqiKeys))
	slices.Sort(keys)
	return keys
}

// xiangqiOnly refuses a xiangqi key on a rule set of another variant.
func xiangqiOnly(set setter) setter {
	return func(rs *RuleSet, v any) error {
		if rs.Variant != "xiangqi" {
			return fmt.Errorf("a xiangqi setting; rule set %s is %s", rs.Name, rs.Variant)
		}
		return set(rs, v)
	}
}

func xqBool(field func(*Xiangqi) *bool) setter {
	return xiangqiOnly(boolSetter(func(rs *RuleSet) *bool { return field(&rs.Xiangqi) }))
}

func xqEnum(names []string, set func(*Xiangqi, string)) setter {
	return xiangqiOnly(enumSetter(names, func(rs *RuleSet, i int) { set(&rs.Xiangqi, names[i]) }))
}

func xqInt(lo, hi int, field func(*Xiangqi) *int) setter {
	return xiangqiOnly(func(rs *RuleSet, v any) error {
		n, ok := wholeNumber(v)
		if !ok || n < lo || n > hi {
			return fmt.Errorf("want a whole number from %d to %d", lo, hi)
		}
		*field(&rs.Xiangqi) = n
		return nil
	})
}

// xqUnits sets a duration given as a whole number of unit (the spec's
// _minutes and _ms keys).
func xqUnits(unit time.Duration, lo, hi int, field func(*Xiangqi) *time.Duration) setter {
	return xiangqiOnly(func(rs *RuleSet, v any) error {
		n, ok := wholeNumber(v)
		if !ok || n < lo || n > hi {
			return fmt.Errorf("want a whole number from %d to %d", lo, hi)
		}
		*field(&rs.Xiangqi) = time.Duration(n) * unit
		return nil
	})
}

// moveControlsSetter reads a list of move controls, each "minutes/moves"
// ("60/25") or a map {minutes: 60, moves: 25}; an empty list clears them.
func moveControlsSetter(rs *RuleSet, v any) error {
	list, ok := v.([]any)
	if !ok {
		return fmt.Errorf("want a list of minutes/moves, e.g. [\"60/25\", \"75/35\"]")
	}
	var out []MoveControl
	for i, e := range list {
		var mc MoveControl
		switch e := e.(type) {
		case string:
			m, n, ok := strings.Cut(e, "/")
			a, err1 := strconv.Atoi(strings.TrimSpace(m))
			b, err2 := strconv.Atoi(strings.TrimSpace(n))
			if !ok || err1 != nil || err2 != nil {
				return fmt.Errorf("entry %d %q: want minutes/moves, e.g. 60/25", i+1, e)
			}
			mc = MoveControl{Minutes: a, Moves: b}
		case map[string]any:
			a, ok1 := wholeNumber(e["minutes"])
			b, ok2 := wholeNumber(e["moves"])
			if !ok1 || !ok2 {
				return fmt.Errorf("entry %d: want {minutes: N, moves: M}", i+1)
			}
			mc = MoveControl{Minutes: a, Moves: b}
		default:
			return fmt.Errorf("entry %d: want minutes/moves, got %T", i+1, e)
		}
		if mc.Minutes <= 0 || mc.Moves <= 0 || len(out) > 0 && (mc.Minutes <= out[len(out)-1].Minutes || mc.Moves < out[len(out)-1].Moves) {
			return fmt.Errorf("entry %d %d/%d: minutes and moves must be positive and grow", i+1, mc.Minutes, mc.Moves)
		}
		out = append(out, mc)
	}
	rs.Xiangqi.MoveControls = out
	return nil
}
