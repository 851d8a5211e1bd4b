package announce

import (
	"errors"
	"strings"
	"testing"
)

func TestMoveText(t *testing.T) {
	got, err := MoveText("g1f3", "chess", "", "long", false, English)
	if err != nil || got != "Knight g1 to f3" {
		t.Errorf("chess: %q, %v", got, err)
	}
	got, err = MoveText("h2e2", "xiangqi", "", "long", false, English)
	if err != nil || !strings.HasSuffix(got, "\nC2.5") {
		t.Errorf("xiangqi long: %q, %v; want the spoken form, then C2.5", got, err)
	}
	if got, err = MoveText("h2e2", "xiangqi", "", "short", false, English); err != nil || got != "C2.5" {
		t.Errorf("xiangqi short: %q, %v", got, err)
	}
}

// TestTextErrors: what the caller asked wrongly is a *RequestError; a bad
// position or move is not.
func TestTextErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		err     func() error
		request bool
	}{
		{"variant", func() error { _, err := MoveText("e2e4", "shogi", "", "long", false, English); return err }, true},
		{"style", func() error { _, err := MoveText("e2e4", "chess", "", "medium", false, English); return err }, true},
		{"xiangqi in German", func() error { _, err := MoveText("h2e2", "xiangqi", "", "long", false, German); return err }, true},
		{"clock", func() error { _, err := ClockText("1h", 0, English); return err }, true},
		{"negative moves", func() error { _, err := ClockText("1h/1h", -1, English); return err }, true},
		{"illegal move", func() error { _, err := MoveText("e2e5", "chess", "", "long", false, English); return err }, false},
		{"bad fen", func() error { _, err := MoveText("e2e4", "chess", "8/8 w - - 0 1", "long", false, English); return err }, false},
	} {
		err := tc.err()
		var re *RequestError
		if err == nil || errors.As(err, &re) != tc.request {
			t.Errorf("%s: %v, request error %v, want %v", tc.name, err, errors.As(err, &re), tc.request)
		}
	}
	if got, err := ClockText("1h25m30s/58m2s", 40, English); err != nil || got == "" {
		t.Errorf("clock: %q, %v", got, err)
	}
}
