package main

import (
	"bytes"
	"context"
	"errors"
	"github.com/dgtbridge/dgtbridge/internal/cli"
	"strings"
	"testing"
)

func TestPerftCommand(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"start d3", []string{"--depth", "3"}, "8902"},
		{"kiwipete d2", []string{"--variant", "chess", "--fen", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -", "--depth", "2"}, "2039"},
		{"chess960 d3", []string{"--variant", "chess960", "--fen", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", "--depth", "3"}, "12189"},
		{"chess960 start d2", []string{"--variant", "chess960", "--depth", "2"}, "400"},
		{"crazyhouse d2", []string{"--variant", "crazyhouse", "--fen", "2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1", "--depth", "2"}, "3083"},
		// Fairy-Stockfish 11.1 with the teamdrop definition of
		// rules/chess/teamdrop_fsf_test.go gives the same counts.
		{"team-drop d3", []string{"--variant", "team-drop", "--fen", "2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1", "--depth", "3"}, "69907"},
		{"team-drop pockets d3", []string{"--variant", "team-drop", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Nn] w KQkq - 0 1", "--depth", "3"}, "86008"},
		{"divide", []string{"--depth", "2", "--divide"}, "400"},
		{"xiangqi start d3", []string{"--variant", "xiangqi", "--depth", "3"}, "79666"},
		{"xiangqi cpw pos-4 d3", []string{"--variant", "xiangqi", "--fen", "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1", "--depth", "3"}, "9850"},
		{"xiangqi divide", []string{"--variant", "xiangqi", "--depth", "2", "--divide"}, "1920"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if err := run(context.Background(), append([]string{"perft"}, tc.args...), &out, &errb); err != nil {
				t.Fatalf("perft: %v (stderr %q)", err, errb.String())
			}
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			if got := lines[len(lines)-1]; got != tc.want {
				t.Errorf("last line %q, want %q", got, tc.want)
			}
			if tc.name == "divide" && len(lines) != 21 {
				t.Errorf("divide printed %d lines, want 20 moves and the total", len(lines))
			}
			if tc.name == "xiangqi divide" {
				if len(lines) != 45 {
					t.Errorf("divide printed %d lines, want 44 moves and the total", len(lines))
				}
				// ICCS ranks 0–9: the central cannon is h2e2, 45 replies below it.
				if !strings.Contains(out.String(), "h2e2: 45\n") {
					t.Errorf("divide lacks \"h2e2: 45\":\n%s", out.String())
				}
			}
		})
	}
}

func TestPerftCommandErrors(t *testing.T) {
	tests := []struct {
		name      string
		args      []string
		usage     bool
		errSubstr string
	}{
		{"no depth", []string{}, true, "--depth"},
		{"bad variant", []string{"--variant", "shogi", "--depth", "1"}, true, "unknown variant"},
		{"xiangqi bad fen", []string{"--variant", "xiangqi", "--fen", "rnbakabnr/9 w - - 0 1", "--depth", "1"}, false, "placement"},
		{"xiangqi chess fen", []string{"--variant", "xiangqi", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "--depth", "1"}, false, "ranks"},
		{"bad fen", []string{"--fen", "8/8/8 w - - 0 1", "--depth", "1"}, false, "placement"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			err := run(context.Background(), append([]string{"perft"}, tc.args...), &out, &errb)
			if err == nil {
				t.Fatal("no error")
			}
			var u cli.UsageError
			if errors.As(err, &u) != tc.usage {
				t.Errorf("usage error = %v, want %v (%v)", !tc.usage, tc.usage, err)
			}
			if !strings.Contains(err.Error(), tc.errSubstr) {
				t.Errorf("error %q does not mention %q", err, tc.errSubstr)
			}
		})
	}
}

// cancelAfter is a context that is cancelled from its n-th Err call on:
// a Ctrl-C arriving while perft counts.
type cancelAfter struct {
	context.Context
	n int
}

func (c *cancelAfter) Err() error {
	if c.n--; c.n <= 0 {
		return context.Canceled
	}
	return nil
}

// TestPerftCommandInterrupted: an interrupt during the count stops it
// between root moves; nothing is printed as if it were the count.
func TestPerftCommandInterrupted(t *testing.T) {
	for _, variant := range []string{"chess", "xiangqi"} {
		t.Run(variant, func(t *testing.T) {
			var out, errb bytes.Buffer
			ctx := &cancelAfter{Context: context.Background(), n: 3}
			err := run(ctx, []string{"perft", "--variant", variant, "--depth", "3", "--divide"}, &out, &errb)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("perft with an interrupt: %v, want context.Canceled", err)
			}
			if lines := strings.Split(strings.TrimSpace(out.String()), "\n"); len(lines) != 2 {
				t.Errorf("printed %q, want the two root moves counted before the interrupt", out.String())
			}
		})
	}
}
