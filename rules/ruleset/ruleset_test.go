package ruleset

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/clock"
)

func TestLookupAll(t *testing.T) {
	want := []string{"bgo2026-960", "bgo2026-team", "fide2001-blitz", "fide2001-rapid", "fide2001-standard", "fide2018-blitz", "fide2018-rapid", "fide2018-standard", "xiangqi-vn2004", "xiangqi-vn2004-blitz", "xiangqi-vn2004-rapid"}
	if got := Names(); !slices.Equal(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	for _, n := range want {
		rs, err := Lookup(n)
		if err != nil || rs.Name != n {
			t.Errorf("Lookup(%q) = %q, %v", n, rs.Name, err)
		}
	}
}

func TestLookupUnknown(t *testing.T) {
	_, err := Lookup("fide2018-bullet")
	var ue *UnknownError
	if !errors.As(err, &ue) || !errors.Is(err, ErrUnknownRuleSet) {
		t.Fatalf("error %v, want *UnknownError", err)
	}
	if !strings.Contains(err.Error(), "fide2018-bullet") || !strings.Contains(err.Error(), "fide2018-blitz") {
		t.Errorf("message %q should name the set and list the valid ones", err)
	}
}

// TestParameters checks the presets against the FIDE Laws' parameters and
// §18.1, 2018 and 2001 side by side, and 004 Reg. §11 for bgo2026-960.
func TestParameters(t *testing.T) {
	type row struct {
		name                      string
		trigger                   Trigger
		award                     time.Duration
		lossAt, claimWin, teLoss  int
		drawExc, auto5, auto75    bool
		window                    Window
		clockNoMove, pawnToQueen  bool
		tmRequest, arbiterFlags   bool
		both                      BothFlagsRule
		wrongClaim                time.Duration
		cut                       bool
		lapse                     Lapse
		agreeMin, setupCut, colRe int
		variant                   string
	}
	rows := []row{
		{FIDE2018Standard, OnCompletion, 2 * time.Minute, 2, 0, 0, true, true, true, WholeGame, true, true, false, true, BothFlagsQuickplay, 2 * time.Minute, false, LapseOnTouch, 1, 0, 10, "chess"},
		{FIDE2018Rapid, OnCompletion, 2 * time.Minute, 2, 0, 0, true, true, true, UntilOpponentMoves, true, true, false, true, BothFlagsQuickplay, 2 * time.Minute, false, LapseOnTouch, 1, 10, 10, "chess"},
		{FIDE2018Blitz, OnCompletion, time.Minute, 2, 0, 0, true, true, true, UntilOpponentMoves, true, true, false, true, BothFlagsArbiter, time.Minute, false, LapseOnTouch, 1, 10, 10, "chess"},
		{FIDE2001Standard, OnMade, 2 * time.Minute, 3, 0, 0, false, false, false, WholeGame, false, false, false, true, BothFlagsQuickplay, 3 * time.Minute, true, LapseOnMove, 0, 0, 0, "chess"},
		{FIDE2001Rapid, OnMade, 2 * time.Minute, 3, 0, 0, false, false, false, UntilClaimantTouches, false, false, true, false, BothFlagsDraw, 3 * time.Minute, true, LapseOnMove, 0, 3, 0, "chess"},
		{FIDE2001Blitz, OnCompletion, 0, 0, 1, 0, true, false, false, UntilOpponentMoves, false, false, true, false, BothFlagsDraw, 3 * time.Minute, true, LapseOnMove, 0, 3, 0, "chess"},
		{BGO2026Chess960, OnCompletion, 0, 0, 0, 3, false, true, true, UntilOpponentMoves, true, true, false, true, BothFlagsArbiter, time.Minute, false, LapseOnTouch, 1, 10, 10, "chess960"},
	}
	for _, w := range rows {
		t.Run(w.name, func(t *testing.T) {
			rs, _ := Lookup(w.name)
			got := row{rs.Name, rs.Illegal.Trigger, rs.Illegal.TimeAward, rs.Illegal.LossAt, rs.Illegal.ClaimWinAt, rs.TechnicalErrors.LossAt,
				rs.Illegal.DrawIfOpponentCannotMate, rs.Draws.FivefoldAuto, rs.Draws.SeventyFiveAuto, rs.Illegal.Window,
				rs.Illegal.ClockWithoutMoveIsIllegal, rs.Illegal.UnpromotedPawnToQueen, rs.TouchMoveOnRequestOnly, rs.Flags.ArbiterCalls,
				rs.Flags.BothFlags, rs.Claims.WrongClaimAward, rs.Claims.WrongClaimCut, rs.Claims.LapseOn,
				rs.Draws.AgreementMinMovesEach, rs.SetupClaimCutoffMoves, rs.ColoursReversedRestartBelow, rs.Variant}
			if got != w {
				t.Errorf("parameters\n got %+v\nwant %+v", got, w)
			}
			if rs.Articles.Illegal == "" || rs.Articles.Flag == "" || rs.Articles.Checkmate == "" {
				t.Errorf("articles missing: %+v", rs.Articles)
			}
		})
	}
}

func TestClassify(t *testing.T) {
	r18, _ := Lookup(FIDE2018Standard)
	r01, _ := Lookup(FIDE2001Standard)
	tests := []struct {
		tc       string
		y18, y01 GameType
	}{
		{"300+3", Blitz, Blitz},      // 5 + 3 = 8 min (B.1)
		{"600", Blitz, Blitz},        // 10 min: blitz in 2018, under 15 in 2001
		{"600+1", Rapid, Blitz},      // 11 min with 60 × inc
		{"900", Rapid, Rapid},        // 15 min
		{"840", Rapid, Blitz},        // 14 min
		{"1500+10", Rapid, Rapid},    // 25 + 10
		{"3600", Standard, Rapid},    // 60 min: standard in 2018, rapid (15–60) in 2001
		{"3000+60", Standard, Rapid}, // 50 + 60 = 110 min under 2018's formula
		{"5400+30", Standard, Standard},
		{"40/5400+30:1800+30", Standard, Standard},
	}
	for _, tt := range tests {
		tc := clock.MustParse(tt.tc)
		if got := r18.Classification.Classify(tc); got != tt.y18 {
			t.Errorf("2018 Classify(%s) = %s, want %s", tt.tc, got, tt.y18)
		}
		if got := r01.Classification.Classify(tc); got != tt.y01 {
			t.Errorf("2001 Classify(%s) = %s, want %s", tt.tc, got, tt.y01)
		}
	}
}

func TestOverrides(t *testing.T) {
	rs, _ := Lookup(FIDE2018Rapid)
	got, err := rs.WithOverrides(map[string]any{
		"supervision_regime":              "A.3",
		"illegal_time_award":              "90s",
		"illegal_loss_at":                 float64(3),
		"count_unpenalised_illegal_moves": true,
		"quickplay_finish_rules":          true,
		"te_loss_threshold":               3,
		"both_flags_rule":                 "draw",
	})
	if err != nil {
		t.Fatal(err)
	}
	if got.Supervision != Full || got.Illegal.Window != WholeGame || got.Illegal.TimeAward != 90*time.Second ||
		got.Illegal.LossAt != 3 || !got.Illegal.CountUnpenalised || !got.QuickplayFinish || got.TechnicalErrors.LossAt != 3 ||
		got.Flags.BothFlags != BothFlagsDraw {
		t.Errorf("overrides not applied: %+v", got)
	}
	if rs.Supervision != Limited {
		t.Error("WithOverrides modified the receiver")
	}
}

func TestOverrideErrors(t *testing.T) {
	rs, _ := Lookup(FIDE2018Standard)
	tests := []struct {
		key  string
		val  any
		want error
		text string
	}{
		{"illegal_loss", 3, ErrUnknownKey, `did you mean "illegal_loss_at"`},
		{"penalty_minutes", 3, ErrUnknownKey, `"penalty_minutes"`},
		{"illegal_loss_at", "two", ErrBadValue, "whole number"},
		{"illegal_loss_at", 2.5, ErrBadValue, "whole number"},
		{"illegal_loss_at", -1, ErrBadValue, "0 to 1000"},
		{"illegal_time_award", 120, ErrBadValue, `"2m"`},
		{"illegal_time_award", "2 minutes", ErrBadValue, "duration"},
		{"fivefold_auto", "yes", ErrBadValue, "true or false"},
		{"supervision_regime", "A.5", ErrBadValue, "A.3/B.3"},
		{"illegal_trigger", "pressed", ErrBadValue, "completed, made"},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			_, err := rs.WithOverrides(map[string]any{tt.key: tt.val})
			var oe *OverrideError
			if !errors.As(err, &oe) || !errors.Is(err, tt.want) || oe.Key != tt.key {
				t.Fatalf("error %v, want *OverrideError for %q matching %v", err, tt.key, tt.want)
			}
			if !strings.Contains(err.Error(), tt.text) || !strings.Contains(err.Error(), tt.key) {
				t.Errorf("message %q should name the key and contain %q", err, tt.text)
			}
		})
	}
	// Several bad keys: all reported, in key order.
	_, err := rs.WithOverrides(map[string]any{"zz": 1, "aa": 1, "illegal_loss_at": 2})
	if msg := err.Error(); strings.Index(msg, `"aa"`) > strings.Index(msg, `"zz"`) || strings.Count(msg, "unknown parameter") != 2 {
		t.Errorf("message %q", msg)
	}
}
