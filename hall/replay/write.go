package replay

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/pgn"
)

// Write writes what a recording held: its games as PGN on games (a
// set-up with no game after it is left out when the recording holds other
// games) and its alerts as JSON lines on alerts.
func (r Result) Write(games, alerts io.Writer) error {
	for _, g := range r.Games {
		if len(g.Moves) == 0 && g.Result == "*" && len(r.Games) > 1 {
			continue
		}
		if err := pgn.Write(games, g.PGNGame(), pgn.WriteOptions{}); err != nil {
			return err
		}
	}
	return writeAlerts(alerts, r.Alerts)
}

// Write writes what a match's recordings held: the match as BPGN 1.0
// (bpgn) or its two games as PGN (A's first) on games, nothing when no
// game was found; its alerts as JSON lines on alerts.
func (r TeamResult) Write(games, alerts io.Writer, bpgn bool) error {
	if r.Games[0] != nil {
		if bpgn {
			if err := pgn.WriteBPGN(games, r.BPGN, pgn.WriteOptions{}); err != nil {
				return err
			}
		} else {
			for _, g := range r.Games {
				if err := pgn.Write(games, g.PGNGame(), pgn.WriteOptions{}); err != nil {
					return err
				}
			}
		}
	}
	return writeAlerts(alerts, r.Alerts)
}

func writeAlerts(w io.Writer, alerts []game.Alert) error {
	enc := json.NewEncoder(w)
	for _, a := range alerts {
		if err := enc.Encode(a); err != nil {
			return fmt.Errorf("replay: writing alerts: %w", err)
		}
	}
	return nil
}
