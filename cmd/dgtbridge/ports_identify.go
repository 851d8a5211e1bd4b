package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/dgtbridge/dgtbridge/config"
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
	wants := identifyWants(cfg)
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
	targets, other := withoutOtherProtocols(cfg, targets)
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
		showLabels(ctx, r, show, stdout)
	}
	if n := len(r.Missing); n > 0 {
		return fmt.Errorf("ports: configured boards not found: %d (listed under \"missing\")", n)
	}
	return ctx.Err()
}

// withoutOtherProtocols leaves out of targets the ports of the configured
// boards that speak another protocol than DGT (DGT requests at 9600 baud
// mean nothing to them), and names those boards.
func withoutOtherProtocols(cfg config.Config, targets []identify.Target) ([]identify.Target, []string) {
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

// identifyWants returns the configured DGT boards with a port: each
// game's board and each blind player's own board.
func identifyWants(cfg config.Config) []identify.Want {
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

// showLabels shows the board numbers on the clocks for d (or until ctx
// ends) and gives the clocks their time display back.
func showLabels(ctx context.Context, r identify.Report, d time.Duration, stdout io.Writer) {
	s := identify.Show(ctx, r, identify.Options{})
	shown := s.Shown()
	if len(shown) == 0 {
		fmt.Fprintln(stdout, "\nno clock to show a board number on (only a board on a port of its own with a DGT 3000 or an XL can)")
		return
	}
	ok := 0
	for _, sh := range shown {
		if sh.Err != nil {
			fmt.Fprintf(stdout, "%s: the clock did not take %q: %v\n", sh.Port, sh.Label, sh.Err)
			continue
		}
		ok++
	}
	fmt.Fprintf(stdout, "\nclocks showing their board numbers: %d, until %s (%s); Ctrl-C gives them their time display back sooner\n", ok, time.Now().Add(d).Format(time.TimeOnly), d)
	t := time.NewTimer(d)
	select {
	case <-t.C:
	case <-ctx.Done():
		t.Stop()
	}
	back := 0
	for i, sh := range s.End() {
		if shown[i].Err != nil {
			continue // never shown
		}
		if sh.Err != nil {
			fmt.Fprintf(stdout, "%s: %v\n", sh.Port, sh.Err)
			continue
		}
		back++
	}
	fmt.Fprintf(stdout, "clocks back to their time display: %d\n", back)
}
