package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/dgt/pty"
)

// TestPortsProbesPaths: `dgtbridge ports PATH…` tells a DGT board on a
// pty from a silent pty and from something that is no serial port.
func TestPortsProbesPaths(t *testing.T) {
	board, stop := servedPTY(t, emu.New(emu.Options{Serial: "04242", ClockVersion: [2]byte{2, 1}}, time.Now()))
	defer stop()
	silentMaster, silent, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer silentMaster.Close()
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"ports", board, silent, os.DevNull}, &out, &errOut); err != nil {
		t.Fatalf("ports: %v (%s)", err, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("output:\n%s", out.String())
	}
	for _, tc := range []struct{ line, path, want string }{
		{lines[1], board, "board 1.07 serial 04242 (0000004242), clock DGT 3000 2.1"},
		{lines[2], silent, "no DGT board: link: no DGT board answered"},
		{lines[3], os.DevNull, "no DGT board: open serial port /dev/null"},
	} {
		if !strings.HasPrefix(tc.line, tc.path) || !strings.Contains(tc.line, tc.want) {
			t.Errorf("line %q, want %s … %s", tc.line, tc.path, tc.want)
		}
	}
}

func TestDescribeXLAndNoClock(t *testing.T) {
	for _, tc := range []struct {
		opts emu.Options
		want string
	}{
		{emu.Options{ClockVersion: [2]byte{1, 14}}, "clock XL 1.14"},
		{emu.Options{NoClock: true}, "no clock"},
	} {
		p, stop := servedPTY(t, emu.New(tc.opts, time.Now()))
		info, err := probePort(context.Background(), p)
		stop()
		if err != nil {
			t.Fatal(err)
		}
		if got := describeBoard(info); !strings.HasSuffix(got, tc.want) {
			t.Errorf("%q, want … %s", got, tc.want)
		}
	}
}
