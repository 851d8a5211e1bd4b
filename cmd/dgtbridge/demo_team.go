package main

import (
	"fmt"
	"io"
	"log/slog"

	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/hall/demo"
)

// demoTeamIllegalDrops is how often the demo's team players drop a piece
// they do not have (at a move with an empty pocket): a few per match.
const demoTeamIllegalDrops = 0.02

// addDemoTeam adds the demo's team-drop match (004 "Cờ đặt") to cfg: two
// linked boards numbered after the others in round, each on its own
// emulated board and pseudo-terminal, under bgo2026-team (5 minutes, no
// increment).
func addDemoTeam(cfg *config.Config, round int, seed uint64, speed float64, log *slog.Logger) (*demo.TeamTable, error) {
	t, err := demo.NewTeamTable(demo.TeamTableOptions{Seed: seed, Speed: speed, IllegalDrops: demoTeamIllegalDrops, Logger: log})
	if err != nil {
		return nil, fmt.Errorf("demo: team match: %w", err)
	}
	n := len(cfg.Boards)
	players := [2][2]string{{"Đội Rồng 1", "Đội Hổ 1"}, {"Đội Hổ 2", "Đội Rồng 2"}}
	for b := range 2 {
		cfg.Boards = append(cfg.Boards, config.Board{Port: t.Path(b), Round: round, Board: n + b + 1, Variant: config.VariantTeamDrop,
			Ruleset: "bgo2026-team", TimeControl: "300", Partner: n + 2 - b, White: players[b][0], Black: players[b][1],
			WhiteTeam: []string{"Rồng", "Hổ"}[b], BlackTeam: []string{"Hổ", "Rồng"}[b]})
	}
	return t, nil
}

// printDemoTeam says where the team match is.
func printDemoTeam(w io.Writer, cfg config.Config, t *demo.TeamTable, round int) {
	n := len(cfg.Boards)
	fmt.Fprintf(w, "  board %-2d %s  team-drop (Cờ đặt), linked with board %d\n", n-1, t.Path(0), n)
	fmt.Fprintf(w, "  board %-2d %s  team-drop (Cờ đặt), linked with board %d\n", n, t.Path(1), n-1)
	if cfg.HTTP.Listen != "" {
		fmt.Fprintf(w, "  BPGN    http://%s/bpgn/%s/%d/%d.bpgn   (the match; public copy)\n", cfg.HTTP.Listen, cfg.Event.ID, round, n-1)
	}
}
