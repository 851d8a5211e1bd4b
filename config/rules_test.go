package config

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

const rulesBase = `
event:
  id: open
  ruleset: fide2018-standard
  rules:
    illegal_loss_at: 3
    illegal_time_award: 1m
boards:
  - {port: /dev/ttyACM0, round: 1, board: 1}
  - port: /dev/ttyACM1
    round: 1
    board: 2
    rules:
      illegal_loss_at: 4
      two_hands_is_illegal: false
`

// TestRulesPrecedence: event.rules apply to every board, a board's rules
// win key by key, and the rule set the board gets carries both.
func TestRulesPrecedence(t *testing.T) {
	c, err := load(t, rulesBase, nil)
	if err != nil {
		t.Fatal(err)
	}
	preset, err := ruleset.Lookup("fide2018-standard")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		board    int
		lossAt   int
		award    time.Duration
		twoHands bool
	}{
		{0, 3, time.Minute, preset.Illegal.TwoHandsIsIllegal},
		{1, 4, time.Minute, false},
	}
	for _, tt := range tests {
		t.Run(c.Boards[tt.board].Port, func(t *testing.T) {
			rs, err := c.Effective(c.Boards[tt.board]).RuleSet()
			if err != nil {
				t.Fatal(err)
			}
			if rs.Illegal.LossAt != tt.lossAt || rs.Illegal.TimeAward != tt.award || rs.Illegal.TwoHandsIsIllegal != tt.twoHands {
				t.Errorf("loss at %d, award %v, two hands %v; want %d, %v, %v",
					rs.Illegal.LossAt, rs.Illegal.TimeAward, rs.Illegal.TwoHandsIsIllegal, tt.lossAt, tt.award, tt.twoHands)
			}
		})
	}
	if preset.Illegal.LossAt == 3 {
		t.Fatal("the preset already loses at the third illegal move: the test proves nothing")
	}
	if len(c.Boards[1].Rules) != 2 || len(c.Event.Rules) != 2 {
		t.Errorf("Effective changed the loaded maps: event %v, board %v", c.Event.Rules, c.Boards[1].Rules)
	}
	if b := c.Effective(Board{Ruleset: "fide2018-rapid"}); b.Rules["illegal_loss_at"] != 3 {
		t.Errorf("a board without rules gets %v", b.Rules)
	}
}

// TestRulesErrors: a bad key or value names its full path and matches
// ErrInvalid and the ruleset sentinel; every problem is reported.
func TestRulesErrors(t *testing.T) {
	tests := []struct {
		name     string
		body     string
		key      string
		sentinel error
		says     string
	}{
		{"board unknown key", strings.Replace(rulesBase, "two_hands_is_illegal: false", "illegal_move_loss_at: 3", 1),
			"boards[1].rules.illegal_move_loss_at", ruleset.ErrUnknownKey, "not a rule parameter"},
		{"board bad value", strings.Replace(rulesBase, "illegal_loss_at: 4", "illegal_loss_at: many", 1),
			"boards[1].rules.illegal_loss_at", ruleset.ErrBadValue, "whole number"},
		{"event unknown key", strings.Replace(rulesBase, "illegal_time_award: 1m", "illegal_award: 1m", 1),
			"event.rules.illegal_award", ruleset.ErrUnknownKey, "not a rule parameter"},
		{"event bad duration", strings.Replace(rulesBase, "illegal_time_award: 1m", "illegal_time_award: 120", 1),
			"event.rules.illegal_time_award", ruleset.ErrBadValue, "duration"},
		{"event bad enum", strings.Replace(rulesBase, "illegal_time_award: 1m", "supervision_regime: sometimes", 1),
			"event.rules.supervision_regime", ruleset.ErrBadValue, "limited"},
		{"rules not a mapping", strings.Replace(rulesBase, "    rules:\n      illegal_loss_at: 4\n      two_hands_is_illegal: false\n", "    rules: 3\n", 1),
			"boards[1].rules", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load(t, tt.body, nil)
			if err == nil {
				t.Fatal("loaded")
			}
			if !strings.Contains(err.Error(), ": "+tt.key+": ") || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("error %q does not name %s (%q)", err, tt.key, tt.says)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("%v does not match ErrInvalid", err)
			}
			if tt.sentinel != nil && !errors.Is(err, tt.sentinel) {
				t.Errorf("%v does not match %v", err, tt.sentinel)
			}
			var ce *Error
			if !errors.As(err, &ce) || len(ce.Problems) != 1 {
				t.Errorf("want one problem reported: %v", err)
			}
		})
	}
}
