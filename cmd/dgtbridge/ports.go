package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/dgtbridge/dgtbridge/internal/cli"
	"github.com/dgtbridge/dgtbridge/serialport"
)

// runPorts lists the serial ports and probes each for a DGT board
// (docs/contract.md §1). Paths given as arguments are probed instead of
// the listed ports (the enumerator does not list pseudo-terminals); when
// one of them cannot be opened the command fails (exit status 1) after
// the table, naming it. With --identify it maps the hall instead
// (ports_identify.go).
func runPorts(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlags("ports", "[--identify [--config FILE] [--show DURATION]] [PATH…]", portsSummary, stderr)
	ident := fs.Bool("identify", false, "find every board (bus lines too), match each to the configured board it is, list the missing ones,\nand show each board's number on its clock")
	file := fs.String("config", "", "with --identify: configuration file (default ./dgtbridge.yaml, then /etc/dgtbridge/dgtbridge.yaml)")
	show := fs.Duration("show", 5*time.Minute, "with --identify: how long the clocks show their board numbers before their time display comes back\n(Ctrl-C ends sooner; 0: the clocks are left alone)")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if *ident {
		return runIdentify(ctx, fs.Args(), *file, *show, stdout)
	}
	var stray []string
	for _, name := range []string{"config", "show"} {
		if fs.Given()[name] {
			stray = append(stray, "--"+name)
		}
	}
	if len(stray) > 0 {
		return cli.UsageError{Err: fmt.Errorf("ports: %s: only with --identify", strings.Join(stray, " and "))}
	}
	var ports []serialport.Port
	if fs.NArg() > 0 {
		for _, p := range fs.Args() {
			ports = append(ports, serialport.Port{Path: p})
		}
	} else {
		var err error
		if ports, err = serialport.List(); err != nil {
			return err
		}
		if len(ports) == 0 {
			fmt.Fprintln(stdout, "no serial ports found (a board not listed here can still be probed by path: dgtbridge ports /dev/ttyACM0)")
			return nil
		}
	}
	results := serialport.Discover(ctx, ports)
	serialport.PrintDiscovered(stdout, results)
	var bad []string
	for _, r := range results {
		if r.Unopened && fs.NArg() > 0 {
			bad = append(bad, r.Path)
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("ports: %s cannot be opened as a serial port: check the path (ls /dev/ttyACM* /dev/ttyUSB* /dev/rfcomm*) and that you may use it (group dialout)", strings.Join(bad, ", "))
	}
	return ctx.Err()
}
