package perft

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// TestCounts checks Divide and Count against the published leaf counts of
// the start positions (chess: 20, 400, 8,902, 197,281; xiangqi with
// Fairy-Stockfish's counts: 44, 1,920, 79,666).
func TestCounts(t *testing.T) {
	for _, tc := range []struct {
		variant string
		want    []uint64
	}{
		{"chess", []uint64{20, 400, 8902, 197281}},
		{"xiangqi", []uint64{44, 1920, 79666}},
	} {
		pos, err := NewPosition(tc.variant, "")
		if err != nil {
			t.Fatal(err)
		}
		for d, want := range tc.want {
			var moves []string
			var sum uint64
			got, err := Divide(context.Background(), pos, d+1, func(m string, n uint64) { moves = append(moves, m); sum += n })
			if err != nil || got != want || sum != want {
				t.Errorf("%s depth %d: Divide %d (sum %d), %v; want %d", tc.variant, d+1, got, sum, err, want)
			}
			if !slices.IsSorted(moves) || len(moves) != int(tc.want[0]) {
				t.Errorf("%s depth %d: root moves %v, want %d in order", tc.variant, d+1, moves, tc.want[0])
			}
			if n, err := Count(context.Background(), pos, d+1); err != nil || n != want {
				t.Errorf("%s depth %d: Count %d, %v; want %d", tc.variant, d+1, n, err, want)
			}
		}
	}
}

func TestUnknownVariant(t *testing.T) {
	if _, err := NewPosition("shogi", ""); !errors.Is(err, ErrUnknownVariant) {
		t.Fatalf("shogi: %v, want ErrUnknownVariant", err)
	}
}

// TestCountCancelled: a cancelled context stops a deep count with its
// error instead of a number.
func TestCountCancelled(t *testing.T) {
	pos, err := NewPosition("chess", "")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Count(ctx, pos, 7); !errors.Is(err, context.Canceled) {
		t.Errorf("Count: %v, want context.Canceled", err)
	}
	if _, err := Divide(ctx, pos, 7, func(string, uint64) {}); !errors.Is(err, context.Canceled) {
		t.Errorf("Divide: %v, want context.Canceled", err)
	}
}
