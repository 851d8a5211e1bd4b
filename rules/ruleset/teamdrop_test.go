package ruleset

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestTeamDropProfile checks bgo2026-team against docs/team-drop.md's
// "Settings" and "Rule → setting → test" tables, one row per setting with its source.
func TestTeamDropProfile(t *testing.T) {
	rs, err := Lookup(BGO2026Team)
	if err != nil {
		t.Fatal(err)
	}
	td := rs.TeamDrop
	rows := []struct {
		key, source string
		ok          bool
	}{
		{"variant team-drop", "A1", rs.Variant == "team-drop"},
		{"fixed_boards = true", "A3", td.FixedBoards},
		{"board1_colour_from_pairing = true", "A1", td.Board1ColourFromPairing},
		{"time_control = 300+0", "Reg. §4", td.TimeControl.String() == "300" && !td.TimeControl.HasIncrement()},
		{"reserve_available_on = clock_press", "R2.2 [GAP]", td.ReserveAvailableOn == ClockPress},
		{"drop_check_allowed = false", "A4 D3", !td.DropCheckAllowed},
		{"drop_last_rank_allowed = false", "A4 D4", !td.DropLastRankAllowed},
		{"last_rank_reading = relative", "A4 D4 [AMBIGUOUS]", td.LastRankReading == LastRankRelative},
		{"pawn_drop_ranks = 2..7", "A4 D4, D5", td.PawnDropRanks == 0b01111110},
		{"dropped_pawn_double_step = true", "A7", td.DroppedPawnDoubleStep},
		{"dropped_rook_can_castle = false", "A8", !td.DroppedRookCanCastle},
		{"promotion = none_remove_next_move", "A6", td.Promotion == NoPromotionRemove},
		{"lifted_last_rank_pawn_to_partner = true", "R6.6 [GAP]", td.LiftedPawnToPartner},
		{"confiscation_scope = any_illegal_move", "A4 [AMBIGUOUS]", td.ConfiscationScope == AnyIllegalMove},
		{"confiscation_consumes_turn = true", "A4 [AMBIGUOUS]", td.ConfiscationConsumesTurn},
		{"king_capture_allowed = false", "A5", !td.KingCaptureAllowed},
		{"king_in_check_counts_as_te = true", "R5.2 [AMBIGUOUS]", td.KingInCheckCountsAsTE},
		{"te_loss_threshold = 2", "A10", rs.TechnicalErrors.LossAt == 2},
		{"te_requires_arbiter = true", "Reg. §11", rs.TechnicalErrors.RequiresArbiter},
		{"illegal_time_award = 0", "R8.4 [GAP]", rs.Illegal.TimeAward == 0 && rs.Illegal.LossAt == 0},
		{"mate_definition = current_reserve", "R9.5 [GAP]", td.MateDefinition == CurrentReserve},
		{"draw_modes = [threefold_on_board, team_agreement]", "A11", slices.Equal(rs.DrawModes(), []string{"threefold_on_board", "team_agreement"})},
		{"no stalemate, 50/75-move, fivefold or dead-position draw", "A11, R9.3", !rs.Draws.Stalemate && !rs.Draws.FiftyMoveClaim && !rs.Draws.SeventyFiveAuto && !rs.Draws.FivefoldAuto && !rs.Draws.DeadPosition},
		{"a flag loses whatever the material", "R9.3", !rs.Flags.NoMateDraw},
		{"repetition_includes_reserves = false", "R9.8 [AMBIGUOUS]", !td.RepetitionIncludesReserves},
		{"first_result_ends_match = true", "A11", td.FirstResultEndsMatch},
		{"simultaneous_end_tolerance = 1s", "R9.7 [GAP]", td.SimultaneousEnd == time.Second},
		{"late_default_min = 5", "Reg. §10", rs.DefaultTime == 5*time.Minute},
		{"no promotion to a queen, no illegal-position draw", "A6", !rs.Illegal.UnpromotedPawnToQueen && !rs.Illegal.IllegalPositionDraw},
		{"public_delay_required = true", "A9, Reg. §10", td.PublicDelayRequired},
		{"report_long_think off", "R7.2 (advisory)", td.LongThink == 0},
	}
	for _, r := range rows {
		if !r.ok {
			t.Errorf("%s (%s) does not hold", r.key, r.source)
		}
	}
	a := td.Articles
	for _, s := range []string{a.Drop, a.DropCheck, a.DropLastRank, a.DropPawnFirstRank, a.DropNotInPocket, a.KingLeftInCheck,
		a.IllegalMove, a.Removal, a.DroppedRookCastle, a.Confiscation, a.TechnicalError, a.MatchEnd, a.Simultaneous,
		a.Stalemate, a.Threefold, a.Agreement, a.PartnerBoard, a.LongThink, a.Pockets} {
		if !strings.HasPrefix(s, "004 ") {
			t.Errorf("article %q does not cite 004", s)
		}
	}
	// Other rule sets have no team rules.
	fide, _ := Lookup(FIDE2018Blitz)
	if !reflect.DeepEqual(fide.TeamDrop, TeamDrop{}) {
		t.Errorf("fide2018-blitz has team rules: %+v", fide.TeamDrop)
	}
}

// TestTeamDropOverrides sets every team-drop key to its other value.
func TestTeamDropOverrides(t *testing.T) {
	rs, _ := Lookup(BGO2026Team)
	got, err := rs.WithOverrides(map[string]any{
		"drop_check_allowed":               true,
		"drop_last_rank_allowed":           true,
		"last_rank_reading":                "absolute",
		"pawn_drop_ranks":                  []any{2, 3, float64(4)},
		"dropped_pawn_double_step":         true,
		"dropped_rook_can_castle":          false,
		"promotion":                        "standard",
		"lifted_last_rank_pawn_to_partner": false,
		"reserve_available_on":             "clock_press",
		"confiscation_scope":               "drops_only",
		"confiscation_consumes_turn":       false,
		"king_capture_allowed":             false,
		"king_in_check_counts_as_te":       false,
		"mate_definition":                  "any_possible_drop",
		"draw_modes":                       []any{"team_agreement"},
		"repetition_includes_reserves":     true,
		"first_result_ends_match":          false,
		"simultaneous_end_tolerance":       "2500ms",
		"time_control":                     "180+2",
		"fixed_boards":                     false,
		"board1_colour_from_pairing":       false,
		"report_long_think":                "90s",
		"public_delay_required":            false,
		"team_size":                        2,
		"te_loss_threshold":                3,
	})
	if err != nil {
		t.Fatal(err)
	}
	td := got.TeamDrop
	if !td.DropCheckAllowed || !td.DropLastRankAllowed || td.LastRankReading != LastRankAbsolute || td.PawnDropRanks != 0b1110 ||
		td.Promotion != StandardPromotion || td.LiftedPawnToPartner || td.ConfiscationScope != DropsOnly || td.ConfiscationConsumesTurn ||
		td.KingInCheckCountsAsTE || td.MateDefinition != AnyPossibleDrop || got.Draws.ThreefoldClaim || !td.TeamAgreementDraw ||
		!td.RepetitionIncludesReserves || td.FirstResultEndsMatch || td.SimultaneousEnd != 2500*time.Millisecond ||
		td.TimeControl.String() != "180+2" || td.FixedBoards || td.Board1ColourFromPairing || td.LongThink != 90*time.Second ||
		td.PublicDelayRequired || got.TechnicalErrors.LossAt != 3 {
		t.Errorf("overrides not applied: %+v", got)
	}
	if !rs.TeamDrop.FirstResultEndsMatch {
		t.Error("WithOverrides modified the receiver")
	}
	for in, want := range map[string]uint8{"2..7": 0b01111110, "3-5": 0b00011100, "2, 7": 0b01000010} {
		got, err := rs.WithOverrides(map[string]any{"pawn_drop_ranks": in})
		if err != nil || got.TeamDrop.PawnDropRanks != want {
			t.Errorf("pawn_drop_ranks %q: %08b, %v; want %08b", in, got.TeamDrop.PawnDropRanks, err, want)
		}
	}
}

func TestTeamDropOverrideErrors(t *testing.T) {
	rs, _ := Lookup(BGO2026Team)
	tests := []struct {
		key  string
		val  any
		text string
	}{
		{"dropped_pawn_double_step", false, "A7"},
		{"dropped_rook_can_castle", true, "A8"},
		{"king_capture_allowed", true, "A5"},
		{"team_size", 4, "A1"},
		{"pawn_drop_ranks", []any{1, 2}, "between 2 and 7"},
		{"pawn_drop_ranks", "2..8", "between 2 and 7"},
		{"pawn_drop_ranks", []any{}, "between 2 and 7"},
		{"draw_modes", []any{"stalemate"}, "not a draw mode"},
		{"mate_definition", "fide", "current_reserve, any_possible_drop"},
		{"reserve_available_on", "capture", "clock_press"},
		{"confiscation_scope", "all", "any_illegal_move, drops_only"},
		{"time_control", "5 minutes", ""},
		{"simultaneous_end_tolerance", 1, "duration"},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			_, err := rs.WithOverrides(map[string]any{tt.key: tt.val})
			var oe *OverrideError
			if !errors.As(err, &oe) || !errors.Is(err, ErrBadValue) || oe.Key != tt.key {
				t.Fatalf("error %v, want a bad value for %q", err, tt.key)
			}
			if !strings.Contains(err.Error(), tt.text) {
				t.Errorf("message %q should contain %q", err, tt.text)
			}
		})
	}
	// A team-drop key on another variant's rule set.
	fide, _ := Lookup(FIDE2018Blitz)
	for _, k := range TeamDropKeys() {
		_, err := fide.WithOverrides(map[string]any{k: true})
		if !errors.Is(err, ErrBadValue) || !strings.Contains(err.Error(), "team-drop setting") {
			t.Errorf("%s on fide2018-blitz: %v, want a team-drop-only error", k, err)
		}
	}
	if !slices.Contains(OverrideKeys(), "mate_definition") {
		t.Error("OverrideKeys lacks the team-drop keys")
	}
}
