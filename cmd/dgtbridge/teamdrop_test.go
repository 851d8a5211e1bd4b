package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/hall"
	"github.com/dgtbridge/dgtbridge/internal/daemon"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestTeamDropBoardsWired: two team-drop boards naming each other as
// partners are run (no longer refused): each board's game knows its
// partner's, and with event.public_delay 0 "run --check" warns (004 A9)
// while the configuration stays valid.
func TestTeamDropBoardsWired(t *testing.T) {
	file := filepath.Join(t.TempDir(), "c.yaml")
	body := "event: {id: cup, public_delay: 0}\nboards:\n" +
		"  - {port: /dev/null, round: 1, board: 1, variant: team-drop, ruleset: bgo2026-team, partner: 2}\n" +
		"  - {port: /dev/zero, round: 1, board: 2, variant: team-drop, ruleset: bgo2026-team, partner: 1}\n"
	if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(config.LoadOptions{File: file})
	if err != nil {
		t.Fatalf("%v\n%s", err, body)
	}
	if err := cfg.Unsupported(); err != nil {
		t.Fatalf("team-drop boards refused: %v", err)
	}
	boards, err := daemon.HallBoards(&cfg, func(config.Board) (hall.Board, error) { return hall.Board{}, nil })
	if err != nil {
		t.Fatal(err)
	}
	want := []game.ID{{Event: "cup", Round: 1, Board: 2}, {Event: "cup", Round: 1, Board: 1}}
	for i, b := range boards {
		if b.Session.Partner != want[i] {
			t.Errorf("board %d: partner %v, want %v", i+1, b.Session.Partner, want[i])
		}
	}
	code, out, errOut := runMain(t, "run", "--check", "--config", file)
	if code != 0 || !strings.Contains(out, "event.public_delay: 0 with team-drop boards") || strings.Contains(out, "refuses") {
		t.Errorf("run --check: exit %d\n%s%s", code, out, errOut)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(body, "public_delay: 0", "public_delay: 15m", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, out, _ := runMain(t, "run", "--check", "--config", file); strings.Contains(out, "public_delay") {
		t.Errorf("run --check with a delay:\n%s", out)
	}
}
