package daemon

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/hall"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/pairings"
	"github.com/dgtbridge/dgtbridge/rules"
)

// TestBlindPlayerFollowedAcrossRounds: with TRF pairings and blind.player,
// three rounds changed by reload (no restart) give the blind player's
// table, each time, the board number and colour of the blind player's
// game: the plan is accepted, and the board's one running game session
// takes the game and turns its relay to the player's colour.
func TestBlindPlayerFollowedAcrossRounds(t *testing.T) {
	trf, err := os.ReadFile(filepath.Join("..", "..", "pairings", "testdata", "swiss.trf"))
	if err != nil {
		t.Fatal(err)
	}
	tb, err := pairings.Parse(trf)
	if err != nil {
		t.Fatal(err)
	}
	const fide = "12400010"
	body := func(round int) string {
		return fmt.Sprintf("event: {id: open2026, round: %d, pairings: swiss.trf}\nboards:\n"+
			"  - {port: /dev/t1, board: 1}\n  - {port: /dev/t2, board: 2}\n  - {port: /dev/t3, board: 3}\n"+
			"  - {port: /dev/t4, board: 4, blind: {player: %q, port: /dev/t4-blind, lang: en}}\n", round, fide)
	}
	dir := t.TempDir()
	cur := loadConfig(t, dir, body(1), map[string]string{"swiss.trf": string(trf)})
	boards, err := HallBoards(&cur, func(config.Board) (hall.Board, error) { return hall.Board{}, nil })
	if err != nil {
		t.Fatal(err)
	}
	blind := boards[3]
	now := time.Date(2026, 3, 7, 9, 0, 0, 0, time.UTC)
	s, err := session.NewSession(blind.Session, nil, now)
	if err != nil {
		t.Fatal(err)
	}
	check := func(round int) {
		t.Helper()
		g := s.Record().Info.Game
		p, ok := tb.Get(round, g.Board)
		if g.Round != round || !ok {
			t.Fatalf("round %d: the blind table plays %s", round, g)
		}
		want := rules.White
		if p.BlackFideID == fide {
			want = rules.Black
		} else if p.WhiteFideID != fide {
			t.Fatalf("round %d: the blind table plays %s, %s–%s, without the blind player", round, g, p.White, p.Black)
		}
		if got := s.Relay().Blind(); got != want {
			t.Fatalf("round %d: the relay's blind player is %v, the player has %v", round, got, want)
		}
		if !strings.EqualFold(s.Record().Info.White, p.White) {
			t.Errorf("round %d: White %q, the file's %q", round, s.Record().Info.White, p.White)
		}
	}
	check(1)
	seen := map[int]bool{s.Record().Info.Game.Board: true}
	for round := 2; round <= 3; round++ {
		next := loadConfig(t, dir, body(round), nil)
		plan, err := planReload(&cur, &next, boards)
		if err != nil {
			t.Fatalf("round %d: reload refused: %v", round, err)
		}
		now = now.Add(3 * time.Hour)
		if _, err := s.Reconfigure(plan[blind.ID], now); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		check(round)
		seen[s.Record().Info.Game.Board] = true
		cur = next
	}
	if len(seen) < 2 {
		t.Fatalf("the blind player stays on board %v in the sample: the test shows nothing", seen)
	}
}
