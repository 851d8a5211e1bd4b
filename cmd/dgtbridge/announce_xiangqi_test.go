package main

import (
	"bytes"
	"context"
	"errors"
	"github.com/dgtbridge/dgtbridge/internal/cli"
	"strings"
	"testing"
)

// TestAnnounceXiangqi: "announce --variant xiangqi" prints the spoken form
// and, alone on the last line, the move in the short Vietnamese notation
// (vi) or WXF (en); the move may be given in ICCS or that notation.
func TestAnnounceXiangqi(t *testing.T) {
	for _, tc := range []struct {
		name       string
		args       []string
		last, full string
	}{
		{"vi from ICCS", []string{"--lang", "vi", "--variant", "xiangqi", "h2e2"}, "P2-5", "Pháo 2 bình 5\nP2-5"},
		{"en from ICCS", []string{"--lang", "en", "--variant", "xiangqi", "h2e2"}, "C2.5", "Cannon 2 traverses to 5\nC2.5"},
		{"vi from VN", []string{"--lang", "vi", "--variant", "xiangqi", "M8.7"}, "M8.7", "Mã 8 tiến 7\nM8.7"},
		{"en from WXF", []string{"--lang", "en", "--variant", "xiangqi", "H2+3"}, "H2+3", "Horse 2 advances to 3\nH2+3"},
		{"black reply", []string{"--lang", "vi", "--variant", "xiangqi", "--fen", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1", "b9c7"}, "M2.3", "Mã 2 tiến 3\nM2.3"},
		{"short", []string{"--lang", "en", "--variant", "xiangqi", "--style", "short", "h2e2"}, "C2.5", "C2.5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if err := run(context.Background(), append([]string{"announce"}, tc.args...), &out, &errb); err != nil {
				t.Fatalf("announce: %v (stderr %q)", err, errb.String())
			}
			got := strings.TrimSpace(out.String())
			lines := strings.Split(got, "\n")
			if lines[len(lines)-1] != tc.last || got != tc.full {
				t.Errorf("got %q, want %q ending in %q", got, tc.full, tc.last)
			}
		})
	}
	for _, tc := range []struct {
		name  string
		args  []string
		usage bool
	}{
		{"german", []string{"--lang", "de", "--variant", "xiangqi", "h2e2"}, true},
		{"illegal", []string{"--lang", "vi", "--variant", "xiangqi", "e0e2"}, false},
		{"WXF read as vi", []string{"--lang", "vi", "--variant", "xiangqi", "C2.5"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			err := run(context.Background(), append([]string{"announce"}, tc.args...), &out, &errb)
			var u cli.UsageError
			if err == nil || errors.As(err, &u) != tc.usage {
				t.Errorf("err %v (usage error wanted: %v)", err, tc.usage)
			}
		})
	}
}
