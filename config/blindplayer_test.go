package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/pairings"
)

// swissTRF is the pairing package's TRF-16 sample: nine players, three
// rounds, four boards a round in C.04.2 board order.
func swissTRF(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "pairings", "testdata", "swiss.trf"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// blindHall is a hall of four tables: three boards, and the blind
// player's table (table 4: the sighted board and the blind player's own).
const blindHall = "event: {id: open2026, pairings: swiss.trf}\nboards:\n" +
	"  - {port: /dev/t1, board: 1}\n" +
	"  - {port: /dev/t2, board: 2}\n" +
	"  - {port: /dev/t3, board: 3}\n" +
	"  - {port: /dev/t4, board: 4, blind: {player: %q, port: /dev/t4-blind, lang: en}}\n"

// TestBlindPlayerFollowsAcrossRounds: with TRF pairings the blind
// player's table takes, round by round, the board number and colour of
// the blind player's game (named by FIDE id or by name), and the board
// that had that number takes the blind table's own.
func TestBlindPlayerFollowsAcrossRounds(t *testing.T) {
	const fide, name = "12400010", "nguyen, van an"
	tb, err := pairings.Parse([]byte(swissTRF(t)))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, who := range []string{fide, name} {
		for r := 1; r <= 3; r++ {
			dir := t.TempDir()
			writeIn(t, dir, map[string]string{"swiss.trf": swissTRF(t), "c.yaml": fmt.Sprintf(blindHall, who)})
			c, err := Load(LoadOptions{File: filepath.Join(dir, "c.yaml"), Overrides: map[string]any{"event.round": r}})
			if err != nil {
				t.Fatalf("%s, round %d: %v", who, r, err)
			}
			bl := c.Boards[3]
			p, ok := tb.Get(r, bl.Board)
			if !ok {
				t.Fatalf("%s, round %d: the blind table has board %d, not in the file", who, r, bl.Board)
			}
			side, player, pid := bl.Blind.Side, p.White, p.WhiteFideID
			if side == "black" {
				player, pid = p.Black, p.BlackFideID
			}
			if pid != fide || !strings.EqualFold(player, name) {
				t.Fatalf("%s, round %d: the blind table has board %d, side %q: %q (%s), not the blind player", who, r, bl.Board, side, player, pid)
			}
			if bl.White != p.White || bl.Black != p.Black {
				t.Errorf("%s, round %d: the blind table's players %q–%q, the file's %q–%q", who, r, bl.White, bl.Black, p.White, p.Black)
			}
			nums := map[int]int{}
			for i, b := range c.Boards {
				nums[b.Board] = i
				if i < 3 && b.Board != i+1 && !(b.Board == 4 && bl.Board == i+1) {
					t.Errorf("%s, round %d: boards[%d] has board %d", who, r, i, b.Board)
				}
			}
			if len(nums) != 4 {
				t.Errorf("%s, round %d: board numbers %v are not four tables", who, r, nums)
			}
			seen[bl.Board] = true
		}
	}
	if len(seen) < 2 {
		t.Fatalf("the sample's blind player stays on board %v: the test shows nothing", seen)
	}
}

// TestBlindPlayerErrors: each problem names its key.
func TestBlindPlayerErrors(t *testing.T) {
	cases := []struct {
		name, yaml, key string
	}{
		{"unknown player", fmt.Sprintf(blindHall, "Nobody, Here"), "boards[3].blind.player"},
		{"side given too", strings.Replace(fmt.Sprintf(blindHall, "12400010"), "lang: en", "lang: en, side: white", 1), "boards[3].blind.side"},
		{"no pairing file", strings.Replace(fmt.Sprintf(blindHall, "12400010"), ", pairings: swiss.trf", "", 1), "boards[3].blind.player"},
		{"bye", fmt.Sprintf(blindHall, "12400053"), "boards[3].blind.player"}, // Hoang, Thu Ha: a bye in round 3
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeIn(t, dir, map[string]string{"swiss.trf": swissTRF(t), "c.yaml": tc.yaml})
			_, err := Load(LoadOptions{File: filepath.Join(dir, "c.yaml"), Overrides: map[string]any{"event.round": 3}})
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("Load: %v, want a configuration error", err)
			}
			found := false
			for _, p := range ce.Problems {
				var ke *KeyError
				if errors.As(p, &ke) && ke.Key == tc.key {
					found = true
				}
			}
			if !found {
				t.Fatalf("no problem names %s: %v", tc.key, err)
			}
		})
	}
}
