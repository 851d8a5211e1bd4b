package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/internal/daemon"
	"github.com/dgtbridge/dgtbridge/serialport"
	"github.com/dgtbridge/dgtbridge/serialport/identify"
)

// portsSummary is the help of "dgtbridge ports".
const portsSummary = `List serial ports and probe each for a DGT board (version, serial number, clock).
With paths, probe those ports only.

With --identify, map the hall before the event, with the daemon stopped: every DGT board on the
listed ports (or the paths given) and on the configured ports, each board of a bus line with its
bus address; each matched to the configured board it is ("?" and "not in the configuration"
otherwise); the configured boards not found, with why ("missing"). Then each board's number is
shown on its clock: a DGT 3000 shows "board 17" ("B 117" from board 100 on; the blind player's own
board "blind 17"), an XL "b   17", a board not in the configuration "unknown" (XL "------"); a
bus line's clocks show nothing (the protocol has no clock command for one board of a line: find
those boards by the address written on them). After --show, or at Ctrl-C, the clocks get their
time display back; their times are never changed. A port another program holds (the running
daemon) is not opened but reported as busy, with the program. Exit status 1 when a configured
board is missing.`

// runIdentify is "dgtbridge ports --identify": see portsSummary.
func runIdentify(ctx context.Context, paths []string, file string, show time.Duration, stdout io.Writer) error {
	cfg, err := config.Load(config.LoadOptions{File: file})
	if err != nil {
		return err
	}
	wants := daemon.IdentifyWants(cfg)
	if cfg.File == "" {
		fmt.Fprintf(stdout, "no configuration found (%s): every board is listed as not in the configuration\n\n", strings.Join(config.DefaultSearchPaths(), ", "))
	}
	var targets []identify.Target
	for _, p := range paths {
		targets = append(targets, identify.Target{Path: p})
	}
	if len(paths) == 0 {
		ports, err := serialport.List()
		if err != nil {
			return err
		}
		for _, p := range ports {
			t := identify.Target{Path: p.Path}
			if p.USB {
				t.USB = p.VID + ":" + p.PID
			}
			targets = append(targets, t)
		}
	}
	targets, other := daemon.WithoutOtherProtocols(cfg, targets)
	r := identify.Probe(ctx, targets, wants, identify.Options{})
	if err := identify.Print(stdout, r); err != nil {
		return err
	}
	if len(other) > 0 {
		fmt.Fprintf(stdout, "\nnot asked (Open Board Protocol boards; \"dgtbridge run --check\" checks their ports):\n")
		for _, o := range other {
			fmt.Fprintf(stdout, "  %s\n", o)
		}
	}
	if show > 0 && ctx.Err() == nil {
		identify.ShowFor(ctx, r, show, stdout, identify.Options{})
	}
	if n := len(r.Missing); n > 0 {
		return fmt.Errorf("ports: configured boards not found: %d (listed under \"missing\")", n)
	}
	return ctx.Err()
}
