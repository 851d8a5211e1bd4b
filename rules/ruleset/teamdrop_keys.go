package ruleset

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/clock"
)

func init() {
	presets[BGO2026Team] = bgo2026Team
	maps.Copy(overrideKeys, teamDropKeys)
}

// teamDropKeys are the settings of the bgo2026-team rule set (docs/team-drop.md,
// "Settings") that the FIDE parameters do not already cover (te_loss_threshold,
// te_requires_arbiter, default_time, … are the common keys).
var teamDropKeys = map[string]setter{
	"drop_check_allowed":     teamBool(func(td *TeamDrop) *bool { return &td.DropCheckAllowed }),
	"drop_last_rank_allowed": teamBool(func(td *TeamDrop) *bool { return &td.DropLastRankAllowed }),
	"last_rank_reading":      teamEnum(lastRankNames, func(td *TeamDrop, i int) { td.LastRankReading = LastRankReading(i) }),
	"pawn_drop_ranks":        teamOnly(pawnRanksSetter),
	"dropped_pawn_double_step": teamOnly(fixedBool("004 App. I A7 lets a dropped pawn step two squares from its second rank",
		true, func(td *TeamDrop) *bool { return &td.DroppedPawnDoubleStep })),
	"dropped_rook_can_castle": teamOnly(fixedBool("004 App. I A8 says a dropped rook never castles",
		false, func(td *TeamDrop) *bool { return &td.DroppedRookCanCastle })),
	"promotion":                        teamEnum(promotionNames, func(td *TeamDrop, i int) { td.Promotion = Promotion(i) }),
	"lifted_last_rank_pawn_to_partner": teamBool(func(td *TeamDrop) *bool { return &td.LiftedPawnToPartner }),
	"reserve_available_on":             teamEnum(reserveNames, func(td *TeamDrop, i int) { td.ReserveAvailableOn = ReserveTiming(i) }),
	"confiscation_scope":               teamEnum(confiscateNames, func(td *TeamDrop, i int) { td.ConfiscationScope = ConfiscationScope(i) }),
	"confiscation_consumes_turn":       teamBool(func(td *TeamDrop) *bool { return &td.ConfiscationConsumesTurn }),
	"king_capture_allowed": teamOnly(fixedBool("004 App. I A5 has the opponent stop the clock and call the arbiter instead",
		false, func(td *TeamDrop) *bool { return &td.KingCaptureAllowed })),
	"king_in_check_counts_as_te":   teamBool(func(td *TeamDrop) *bool { return &td.KingInCheckCountsAsTE }),
	"mate_definition":              teamEnum(mateNames, func(td *TeamDrop, i int) { td.MateDefinition = MateDefinition(i) }),
	"draw_modes":                   teamOnly(drawModesSetter),
	"repetition_includes_reserves": teamBool(func(td *TeamDrop) *bool { return &td.RepetitionIncludesReserves }),
	"first_result_ends_match":      teamBool(func(td *TeamDrop) *bool { return &td.FirstResultEndsMatch }),
	"simultaneous_end_tolerance":   teamOnly(durSetter(func(rs *RuleSet) *time.Duration { return &rs.TeamDrop.SimultaneousEnd })),
	"time_control":                 teamOnly(timeControlSetter),
	"fixed_boards":                 teamBool(func(td *TeamDrop) *bool { return &td.FixedBoards }),
	"board1_colour_from_pairing":   teamBool(func(td *TeamDrop) *bool { return &td.Board1ColourFromPairing }),
	"report_long_think":            teamOnly(durSetter(func(rs *RuleSet) *time.Duration { return &rs.TeamDrop.LongThink })),
	"public_delay_required":        teamBool(func(td *TeamDrop) *bool { return &td.PublicDelayRequired }),
	"team_size": teamOnly(func(rs *RuleSet, v any) error {
		if n, ok := wholeNumber(v); !ok || n != 2 {
			return fmt.Errorf("004 App. I A1: a team has 2 members; only 2 is supported")
		}
		return nil
	}),
}

// TeamDropKeys returns the override keys that only team-drop rule sets
// accept, sorted.
func TeamDropKeys() []string {
	keys := slices.Collect(maps.Keys(teamDropKeys))
	slices.Sort(keys)
	return keys
}

// teamOnly refuses a team-drop key on a rule set of another variant.
func teamOnly(set setter) setter {
	return func(rs *RuleSet, v any) error {
		if rs.Variant != "team-drop" {
			return fmt.Errorf("a team-drop setting; rule set %s is %s", rs.Name, rs.Variant)
		}
		return set(rs, v)
	}
}

func teamBool(field func(*TeamDrop) *bool) setter {
	return teamOnly(boolSetter(func(rs *RuleSet) *bool { return field(&rs.TeamDrop) }))
}

func teamEnum(names []string, set func(*TeamDrop, int)) setter {
	return teamOnly(enumSetter(names, func(rs *RuleSet, i int) { set(&rs.TeamDrop, i) }))
}

// fixedBool is a setting that states a rule of 004: only want is accepted.
func fixedBool(why string, want bool, field func(*TeamDrop) *bool) setter {
	return func(rs *RuleSet, v any) error {
		b, ok := v.(bool)
		if !ok {
			return fmt.Errorf("want true or false, got %T", v)
		}
		if b != want {
			return fmt.Errorf("%s; only %v is supported", why, want)
		}
		*field(&rs.TeamDrop) = b
		return nil
	}
}

// pawnRanksSetter reads pawn_drop_ranks: a list of rank numbers ([2, 3,
// 4]), or a string "2..7", "2-7" or "2,3,4".
func pawnRanksSetter(rs *RuleSet, v any) error {
	var ranks []int
	bad := fmt.Errorf("want ranks between 2 and 7, as a list [2, 3, 4, 5, 6, 7] or a range \"2..7\"")
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			n, ok := wholeNumber(e)
			if !ok {
				return bad
			}
			ranks = append(ranks, n)
		}
	case []int:
		ranks = x
	case string:
		s := strings.ReplaceAll(x, " ", "")
		lo, hi, isRange := strings.Cut(s, "..")
		if !isRange {
			lo, hi, isRange = strings.Cut(s, "-")
		}
		if isRange {
			a, err1 := strconv.Atoi(lo)
			b, err2 := strconv.Atoi(hi)
			if err1 != nil || err2 != nil || a > b {
				return bad
			}
			for r := a; r <= b; r++ {
				ranks = append(ranks, r)
			}
			break
		}
		for _, f := range strings.Split(s, ",") {
			n, err := strconv.Atoi(f)
			if err != nil {
				return bad
			}
			ranks = append(ranks, n)
		}
	default:
		return bad
	}
	var mask uint8
	for _, r := range ranks {
		if r < 2 || r > 7 {
			return bad
		}
		mask |= 1 << (r - 1)
	}
	if mask == 0 {
		return bad
	}
	rs.TeamDrop.PawnDropRanks = mask
	return nil
}

// drawModesSetter reads draw_modes: a list of threefold_on_board and
// team_agreement (an empty list: no draw at all).
func drawModesSetter(rs *RuleSet, v any) error {
	var modes []string
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return fmt.Errorf("want a list of %s", strings.Join(drawModeNames, ", "))
			}
			modes = append(modes, s)
		}
	case []string:
		modes = x
	case string:
		if x != "" {
			modes = strings.Split(strings.ReplaceAll(x, " ", ""), ",")
		}
	default:
		return fmt.Errorf("want a list of %s", strings.Join(drawModeNames, ", "))
	}
	threefold, agreement := false, false
	for _, m := range modes {
		switch strings.ToLower(m) {
		case "threefold_on_board", "threefold":
			threefold = true
		case "team_agreement", "agreement":
			agreement = true
		default:
			return fmt.Errorf("%q is not a draw mode; want %s", m, strings.Join(drawModeNames, ", "))
		}
	}
	rs.Draws.ThreefoldClaim = threefold
	rs.TeamDrop.TeamAgreementDraw = agreement
	return nil
}

func timeControlSetter(rs *RuleSet, v any) error {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case int, int64, float64:
		n, ok := wholeNumber(x)
		if !ok {
			return fmt.Errorf("want a time control such as \"300\" or \"300+0\"")
		}
		s = strconv.Itoa(n)
	default:
		return fmt.Errorf("want a time control such as \"300\" or \"300+0\", got %T", v)
	}
	tc, err := clock.ParseTimeControl(s)
	if err != nil {
		return err
	}
	rs.TeamDrop.TimeControl = tc
	return nil
}

// wholeNumber reads an integer as a YAML/JSON decoder delivers it.
func wholeNumber(v any) (int, bool) {
	switch x := v.(type) {
	case int:
		return x, true
	case int64:
		return int(x), true
	case uint64:
		return int(x), x < 1<<31
	case float64:
		return int(x), x == float64(int(x))
	}
	return 0, false
}

// DrawModes returns the draw_modes setting of rs: the names of the draws
// its parameters allow (threefold_on_board, team_agreement).
func (rs RuleSet) DrawModes() []string {
	var out []string
	if rs.Draws.ThreefoldClaim {
		out = append(out, drawModeNames[0])
	}
	if rs.TeamDrop.TeamAgreementDraw {
		out = append(out, drawModeNames[1])
	}
	return out
}
