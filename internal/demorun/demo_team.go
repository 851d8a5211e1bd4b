package demorun

import (
	"fmt"
	"io"

	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/hall/demo"
)

// printDemoTeam says where the team match is.
func printDemoTeam(w io.Writer, cfg config.Config, t *demo.TeamTable, round int) {
	n := len(cfg.Boards)
	fmt.Fprintf(w, "  board %-2d %s  team-drop (Cờ đặt), linked with board %d\n", n-1, t.Path(0), n)
	fmt.Fprintf(w, "  board %-2d %s  team-drop (Cờ đặt), linked with board %d\n", n, t.Path(1), n-1)
	if cfg.HTTP.Listen != "" {
		fmt.Fprintf(w, "  BPGN    http://%s/bpgn/%s/%d/%d.bpgn   (the match; public copy)\n", cfg.HTTP.Listen, cfg.Event.ID, round, n-1)
	}
}
