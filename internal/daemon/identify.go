package daemon

import (
	"fmt"
	"path/filepath"

	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/serialport/identify"
)

// WithoutOtherProtocols leaves out of targets the ports of the configured
// boards that speak another protocol than DGT (DGT requests at 9600 baud
// mean nothing to them), and names those boards.
func WithoutOtherProtocols(cfg config.Config, targets []identify.Target) ([]identify.Target, []string) {
	skip := map[string]bool{}
	var names []string
	for _, b := range cfg.Boards {
		if p := cfg.Effective(b).Protocol; p == config.ProtocolDGT || p == config.ProtocolManual || b.Port == "" {
			continue
		}
		skip[realPath(b.Port)] = true
		names = append(names, fmt.Sprintf("board %d, %s", b.Board, b.Port))
	}
	out := targets[:0:0]
	for _, t := range targets {
		if !skip[realPath(t.Path)] {
			out = append(out, t)
		}
	}
	return out, names
}

// realPath is path with its symlinks resolved, or path when it does not
// resolve.
func realPath(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return path
}

// IdentifyWants returns the configured DGT boards with a port: each
// game's board and each blind player's own board.
func IdentifyWants(cfg config.Config) []identify.Want {
	var wants []identify.Want
	for _, b := range cfg.Boards {
		if cfg.Effective(b).Protocol != config.ProtocolDGT {
			continue
		}
		wants = append(wants, identify.Want{Board: b.Board, Port: b.Port, Address: uint16(b.BusAddress)})
		if b.Blind != nil && b.Blind.Port != "" {
			wants = append(wants, identify.Want{Board: b.Board, Blind: true, Port: b.Blind.Port, Address: uint16(b.Blind.BusAddress)})
		}
	}
	return wants
}
