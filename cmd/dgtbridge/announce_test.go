package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"github.com/dgtbridge/dgtbridge/internal/cli"
	"strings"
	"testing"
)

func TestAnnounceCommand(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"de start", []string{"--lang", "de", "Nf3"}, "Springer Gustav eins – Felix drei"},
		{"uci, flags after move", []string{"g1f3", "--lang", "vi"}, "Mã g1 – f3"},
		{"en short", []string{"--lang", "en", "--style", "short", "e4"}, "Pawn e4"},
		{"fen promotion", []string{"--lang", "de", "--fen", "2r1k3/3P4/8/8/8/8/8/4K3 w - - 0 1", "d7c8n"}, "Bauer David sieben schlaegt Cesar acht, Umwandlung in Springer"},
		{"chess960 castling", []string{"--lang", "en", "--variant", "chess960", "--fen", "4k3/8/8/8/8/8/8/RK5R w HA - 0 1", "O-O-O"}, "Long castling"},
		{"no check", []string{"--lang", "en", "--no-check", "--fen", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Ra8"}, "Rook a1 to a8"},
		{"drop", []string{"--lang", "en", "--variant", "team-drop", "--fen", "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", "N@c3"}, "Knight dropped on c3"},
		{"clock", []string{"--lang", "en", "--clock", "1h25m30s/58m2s", "--moves", "23"}, "23 moves. White 1 hour 25 minutes 30 seconds. Black 58 minutes 2 seconds."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if err := run(context.Background(), append([]string{"announce"}, tc.args...), &out, &errb); err != nil {
				t.Fatalf("announce: %v (stderr %q)", err, errb.String())
			}
			if got := strings.TrimSpace(out.String()); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestAnnounceCommandErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		args  []string
		usage bool   // a usage error (exit status 2)
		msg   string // in the error
	}{
		{"no move", []string{"--lang", "de"}, true, "give the MOVE"},
		{"two moves", []string{"e4", "e5"}, true, "one MOVE only"},
		{"language", []string{"--lang", "fr", "e4"}, true, `unknown language "fr"`},
		{"variant", []string{"--variant", "shogi", "e4"}, true, "unknown variant"},
		{"style", []string{"--style", "medium", "e4"}, true, "unknown style"},
		{"illegal", []string{"e5"}, false, "illegal move e5"},
		{"bad notation", []string{"Zz9"}, false, "Zz9"},
		{"bad fen", []string{"--fen", "8/8 w", "e4"}, false, "--fen"},
		{"clock and move", []string{"--clock", "1m/1m", "e4"}, true, "not both"},
		{"bad clock", []string{"--clock", "90"}, true, "WHITE/BLACK"},
		{"bad clock duration", []string{"--clock", "1x/2m"}, true, "durations"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			err := run(context.Background(), append([]string{"announce"}, tc.args...), &out, &errb)
			if err == nil {
				t.Fatalf("no error; printed %q", out.String())
			}
			if got := cli.ExitCode(err) == 2; got != tc.usage {
				t.Errorf("usage error = %v, want %v (%v)", got, tc.usage, err)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %q lacks %q", err, tc.msg)
			}
		})
	}
}

func TestAnnounceHelp(t *testing.T) {
	var out, errb bytes.Buffer
	err := run(context.Background(), []string{"announce", "--help"}, &out, &errb)
	if !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("err = %v, want flag.ErrHelp", err)
	}
	if !strings.Contains(errb.String(), "--lang") || !strings.Contains(errb.String(), "Appendix D") {
		t.Errorf("help lacks the flags or the purpose:\n%s", errb.String())
	}
}
