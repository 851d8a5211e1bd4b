package daemon

import (
	"log/slog"

	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/hall"
	"github.com/dgtbridge/dgtbridge/serialport"
)

// HallSpares is the hall's spares of the configuration (spares[]): DGT
// boards on their own device paths, claimed like the boards' (claims), so
// that a board on "auto" never takes a spare's port and two never share
// one.
func HallSpares(cfg *config.Config, claims *serialport.Claims, log *slog.Logger) []hall.Spare {
	var out []hall.Spare
	for _, s := range cfg.Spares {
		out = append(out, hall.Spare{ID: s.ID, Port: s.Port, Open: serialport.Opener(s.Port, claims, 0, log.With("port", s.Port, "spare", s.ID))})
	}
	return out
}
