package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/dgtbridge/dgtbridge/dgt/link"
)

// runPorts lists the serial ports and probes each for a DGT board
// (docs/contract.md §1). Paths given as arguments are probed instead of
// the listed ports (the enumerator does not list pseudo-terminals); when
// one of them cannot be opened the command fails (exit status 1) after
// the table, naming it.
func runPorts(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("ports", "[PATH…]", "List serial ports and probe each for a DGT board (version, serial number, clock).\nWith paths, probe those ports only.", stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var ports []portInfo
	if fs.NArg() > 0 {
		for _, p := range fs.Args() {
			ports = append(ports, portInfo{Path: p})
		}
	} else {
		var err error
		if ports, err = listPorts(); err != nil {
			return err
		}
		if len(ports) == 0 {
			fmt.Fprintln(stdout, "no serial ports found (a board not listed here can still be probed by path: dgtbridge ports /dev/ttyACM0)")
			return nil
		}
	}
	// Probe in parallel: each port is its own device.
	results := make([]string, len(ports))
	unopened := make([]bool, len(ports))
	var wg sync.WaitGroup
	for i, p := range ports {
		wg.Go(func() {
			rwc, err := openSerial(p.Path)
			if err != nil {
				results[i], unopened[i] = "cannot open: "+err.Error(), true
				return
			}
			info, err := link.Probe(ctx, rwc, probeOptions)
			if err != nil {
				results[i] = "no DGT board: " + err.Error()
				return
			}
			results[i] = describeBoard(info)
		})
	}
	wg.Wait()
	fmt.Fprintf(stdout, "%-20s %-10s %s\n", "PORT", "USB", "DGT")
	for i, p := range ports {
		usb := "-"
		if p.USB {
			usb = p.VID + ":" + p.PID
		}
		fmt.Fprintf(stdout, "%-20s %-10s %s\n", p.Path, usb, results[i])
	}
	var bad []string
	for i, p := range ports {
		if unopened[i] && fs.NArg() > 0 {
			bad = append(bad, p.Path)
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("ports: %s cannot be opened as a serial port: check the path (ls /dev/ttyACM* /dev/ttyUSB* /dev/rfcomm*) and that you may use it (group dialout)", strings.Join(bad, ", "))
	}
	return ctx.Err()
}

// describeBoard says what a probe found, e.g. "board 1.07 serial 01025
// (0000001025), clock DGT 3000 2.0".
func describeBoard(c link.Connected) string {
	s := fmt.Sprintf("board %d.%02d serial %s", c.Version.Major, c.Version.Minor, c.Serial)
	if c.LongSerial != "" {
		s += " (" + c.LongSerial + ")"
	}
	switch {
	case !c.Clock:
		s += ", no clock"
	case c.ClockVersion[0] == 2:
		s += fmt.Sprintf(", clock DGT 3000 %d.%d", c.ClockVersion[0], c.ClockVersion[1])
	default:
		s += fmt.Sprintf(", clock XL %d.%d", c.ClockVersion[0], c.ClockVersion[1])
	}
	return s
}
