package ruleset

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/clock"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi"
)

// TestXiangqiPresets: the 2004 law in standard play and under the 2015
// rapid/blitz regulations (Art. 7–16, RB 1–10).
func TestXiangqiPresets(t *testing.T) {
	std, err := Lookup(XiangqiVN2004)
	if err != nil {
		t.Fatal(err)
	}
	rapid, _ := Lookup(XiangqiVN2004Rapid)
	blitz, _ := Lookup(XiangqiVN2004Blitz)
	for _, rs := range []RuleSet{std, rapid, blitz} {
		x := rs.Xiangqi
		switch {
		case rs.Variant != "xiangqi":
			t.Errorf("%s: variant %q", rs.Name, rs.Variant)
		case rs.Draws.Stalemate || !x.NoMoveLoses:
			t.Errorf("%s: stalemate must lose (7.1(b))", rs.Name)
		case rs.Draws.ThreefoldClaim || rs.Draws.FivefoldAuto:
			t.Errorf("%s: no threefold rule in xiangqi; Art. 22–24 instead", rs.Name)
		case rs.TechnicalErrors.LossAt != 3 || x.ConductLossAt != 3:
			t.Errorf("%s: 3 TEs or 3 CEs lose (7.1(n))", rs.Name)
		case !rs.TouchMoveOnRequestOnly || x.TouchEvidenceAsWitness:
			t.Errorf("%s: touch rulings only on request, evidence not a witness (9.11)", rs.Name)
		case x.Repetition != (XiangqiRepetition{Occurrence: 3, CheckVsChase: "checker_must_change", KingPawnCombined: "by_other_pieces"}):
			t.Errorf("%s: repetition defaults %+v", rs.Name, x.Repetition)
		case x.NoCaptureLimit != 50 || x.ChecksCounted != 5 || x.ChecksCapScope != "per_side" || x.WrongClaimBonus != 2*time.Minute:
			t.Errorf("%s: §12 defaults %+v", rs.Name, x)
		case x.Notation != "vn" || x.CommitDebounce != 200*time.Millisecond || x.MateBeforePressWins:
			t.Errorf("%s: §17 defaults %+v", rs.Name, x)
		case rs.Illegal.LossAt != 0 || rs.Illegal.TimeAward != 0 || !x.IllegalIsTE:
			t.Errorf("%s: an illegal move is a TE, never a loss or time award by itself", rs.Name)
		}
	}
	if std.IllegalMovesStand() || !std.Draws.FiftyMoveClaim || !std.Xiangqi.RecordingRequired || std.Xiangqi.TEBonus != 0 || !std.Flags.ArbiterCalls || std.Flags.NoMateDraw {
		t.Errorf("standard: %+v", std)
	}
	for _, rs := range []RuleSet{rapid, blitz} {
		x := rs.Xiangqi
		if !rs.IllegalMovesStand() || rs.Illegal.ClaimWinAt != 1 || !x.ClaimantWins || !x.CorrectPalacePieces || !x.AbandonedGeneralLoses ||
			rs.Draws.FiftyMoveClaim || x.RecordingRequired || rs.SetupClaimCutoffMoves != 3 || !rs.Flags.NoMateDraw || rs.Flags.ArbiterCalls {
			t.Errorf("%s: RB 1–9 not applied: %+v", rs.Name, rs)
		}
	}
	if rapid.Xiangqi.TEBonus != 2*time.Minute || blitz.Xiangqi.TEBonus != time.Minute {
		t.Errorf("RB 5: TE bonus rapid %v, blitz %v", rapid.Xiangqi.TEBonus, blitz.Xiangqi.TEBonus)
	}
	// Art. 10.1.1(e): 15, 25 and 30 minutes are rapid; 90 + 30 s is standard.
	for tc, want := range map[string]GameType{"900": Rapid, "1500": Rapid, "1800": Rapid, "300+3": Blitz, "5400+30": Standard} {
		c, err := clock.ParseTimeControl(tc)
		if err != nil {
			t.Fatal(err)
		}
		if got := std.Classification.Classify(c); got != want {
			t.Errorf("%s classified %v, want %v", tc, got, want)
		}
	}
}

// TestXiangqiOverrides: every xiangqi key is accepted with a good value,
// refused with a bad one (naming the key), and refused on a chess rule
// set.
func TestXiangqiOverrides(t *testing.T) {
	rs, _ := Lookup(XiangqiVN2004)
	got, err := rs.WithOverrides(map[string]any{
		"notation_dialect": "wxf", "tandem_for_advisor_elephant": true, "commit_on_place_debounce_ms": 300,
		"touch_evidence_counts_as_witness": true, "mate_before_press_wins": true, "late_default_minutes": 30,
		"move_controls": []any{"60/25", map[string]any{"minutes": 75, "moves": 35}}, "final_phase_max_checks": 3,
		"no_capture_limit_moves": 60, "checks_counted_max": 4, "checks_cap_scope": "total", "count_each_player": true,
		"false_claim_bonus_minutes": 3, "te_bonus_minutes": 1, "ce_loss_threshold": 2, "no_attackers_draw": false,
		"recording_required": false, "repetition_alert_occurrence": 4, "check_vs_chase": "draw", "king_pawn_combined_chase": "always_loss",
		"te_loss_threshold": 2,
	})
	if err != nil {
		t.Fatal(err)
	}
	x := got.Xiangqi
	if x.Notation != "wxf" || !x.TandemAdvisorElephant || x.CommitDebounce != 300*time.Millisecond || !x.TouchEvidenceAsWitness ||
		!x.MateBeforePressWins || got.DefaultTime != 30*time.Minute || !slices.Equal(x.MoveControls, []MoveControl{{60, 25}, {75, 35}}) ||
		x.FinalPhaseMaxChecks != 3 || x.NoCaptureLimit != 60 || x.ChecksCounted != 4 || x.ChecksCapScope != "total" || !x.CountEachPlayer ||
		x.WrongClaimBonus != 3*time.Minute || x.TEBonus != time.Minute || x.ConductLossAt != 2 || x.NoAttackersDraw || x.RecordingRequired ||
		x.Repetition != (XiangqiRepetition{4, "draw", "always_loss"}) || got.TechnicalErrors.LossAt != 2 {
		t.Errorf("overrides not applied: %+v", got)
	}
	if rs.Xiangqi.Notation != "vn" {
		t.Error("WithOverrides changed its receiver")
	}
	for key, bad := range map[string]any{
		"notation_dialect": "chinese", "commit_on_place_debounce_ms": -1, "late_default_minutes": 0,
		"move_controls": []any{"60/25", "50/30"}, "no_capture_limit_moves": 0, "checks_cap_scope": "both",
		"repetition_alert_occurrence": 1, "check_vs_chase": "chaser_must_change", "king_pawn_combined_chase": "sometimes",
		"count_each_player": "yes",
	} {
		_, err := rs.WithOverrides(map[string]any{key: bad})
		if err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("%s = %v: error %v, want one naming the key", key, bad, err)
		}
	}
	chess, _ := Lookup(FIDE2018Standard)
	if _, err := chess.WithOverrides(map[string]any{"check_vs_chase": "draw"}); err == nil || !strings.Contains(err.Error(), "xiangqi") {
		t.Errorf("a xiangqi key on a chess rule set: %v", err)
	}
	for _, k := range XiangqiKeys() {
		if !slices.Contains(OverrideKeys(), k) {
			t.Errorf("%s missing from OverrideKeys", k)
		}
	}
}

// TestXiangqiSettingsParse: the rule set's notation and repetition
// settings, and every value their keys accept, are names rules/xiangqi
// reads (the wiring passes them through).
func TestXiangqiSettingsParse(t *testing.T) {
	for _, d := range []string{"vn", "doc_asian", "wxf"} {
		if _, err := xiangqi.ParseDialect(d); err != nil {
			t.Error(err)
		}
	}
	for _, v := range []string{"checker_must_change", "draw"} {
		if _, err := xiangqi.ParseCheckVsChase(v); err != nil {
			t.Error(err)
		}
	}
	for _, v := range []string{"by_other_pieces", "always_draw", "always_loss"} {
		if _, err := xiangqi.ParseCombinedChase(v); err != nil {
			t.Error(err)
		}
	}
	rs, _ := Lookup(XiangqiVN2004)
	r := rs.Xiangqi.Repetition
	if _, err := xiangqi.ParseCheckVsChase(r.CheckVsChase); err != nil {
		t.Error(err)
	}
	if _, err := xiangqi.ParseCombinedChase(r.KingPawnCombined); err != nil {
		t.Error(err)
	}
	if _, err := xiangqi.ParseDialect(rs.Xiangqi.Notation); err != nil {
		t.Error(err)
	}
}
