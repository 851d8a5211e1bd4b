package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/dgt/pty"
	"github.com/dgtbridge/dgtbridge/serialport"
)

// servedPTY serves an emulator on a new pseudo-terminal until stop.
func servedPTY(t *testing.T, e emu.Device) (path string, stop func()) {
	t.Helper()
	m, path, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { emu.ServePTY(ctx, m, e) })
	return path, func() { cancel(); wg.Wait() }
}

// TestPortsProbesPaths: `dgtbridge ports PATH…` tells a DGT board on a
// pty from a silent pty and from something that is no serial port, and
// fails naming the paths it could not open (a path that does not exist
// among them), with exit status 1.
func TestPortsProbesPaths(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: real pseudo-terminals in real time")
	}
	board, stop := servedPTY(t, emu.New(emu.Setup{Serial: "04242", ClockVersion: [2]byte{2, 1}}, time.Now()))
	defer stop()
	silentMaster, silent, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer silentMaster.Close()
	var out, errOut bytes.Buffer
	missing := "/dev/ttyACM-not-there"
	code := mainExit([]string{"ports", board, silent, os.DevNull, missing}, &out, &errOut)
	if code != 1 || !strings.Contains(errOut.String(), "dgtbridge: ports: /dev/null, /dev/ttyACM-not-there cannot be opened as a serial port") {
		t.Errorf("exit %d, stderr %q", code, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 5 {
		t.Fatalf("output:\n%s", out.String())
	}
	for _, tc := range []struct{ line, path, want string }{
		{lines[1], board, "board 1.07 serial 04242 (0000004242), clock DGT 3000 2.1"},
		{lines[2], silent, "no DGT board: link: no DGT board answered"},
		{lines[3], os.DevNull, "cannot open: open serial port /dev/null"},
		{lines[4], missing, "cannot open: open serial port /dev/ttyACM-not-there"},
	} {
		if !strings.HasPrefix(tc.line, tc.path) || !strings.Contains(tc.line, tc.want) {
			t.Errorf("line %q, want %s … %s", tc.line, tc.path, tc.want)
		}
	}
}

func TestDescribeXLAndNoClock(t *testing.T) {
	for _, tc := range []struct {
		opts emu.Setup
		want string
	}{
		{emu.Setup{ClockVersion: [2]byte{1, 14}}, "clock XL 1.14"},
		{emu.Setup{NoClock: true}, "no clock"},
	} {
		p, stop := servedPTY(t, emu.New(tc.opts, time.Now()))
		info, err := serialport.Probe(context.Background(), p)
		stop()
		if err != nil {
			t.Fatal(err)
		}
		if got := serialport.Describe(info); !strings.HasSuffix(got, tc.want) {
			t.Errorf("%q, want … %s", got, tc.want)
		}
	}
}
