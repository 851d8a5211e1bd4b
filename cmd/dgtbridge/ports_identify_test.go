package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/dgt/pty"
	"github.com/dgtbridge/dgtbridge/internal/daemon"
	"github.com/dgtbridge/dgtbridge/internal/testenv"
	"github.com/dgtbridge/dgtbridge/serialport"
)

// noiseDevice answers every byte it is sent with bytes that are no DGT
// reply (a modem, a GPS receiver).
type noiseDevice struct {
	mu  sync.Mutex
	out []byte
}

func (d *noiseDevice) Input(_ time.Time, p []byte) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, b := range p {
		d.out = append(d.out, 'A', 'T', b|0x80, '\r', '\n')
	}
}
func (d *noiseDevice) Advance(time.Time) {}
func (d *noiseDevice) Output() []byte {
	d.mu.Lock()
	defer d.mu.Unlock()
	o := d.out
	d.out = nil
	return o
}
func (d *noiseDevice) NextEvent() (time.Time, bool) { return time.Time{}, false }

// holdAsDaemon holds path open in a process named dgtbridge (a copy of
// sleep: a daemon of this test's own process would not count, since a
// process never holds a port against itself), as the running daemon
// holds its ports.
func holdAsDaemon(t *testing.T, path string) {
	t.Helper()
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(sleep)
	if err != nil {
		t.Fatal(err)
	}
	daemon := filepath.Join(t.TempDir(), "dgtbridge")
	if err := os.WriteFile(daemon, b, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(daemon, "60")
	cmd.ExtraFiles = []*os.File{f}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	for deadline := time.Now().Add(5 * time.Second); len(serialport.Holders([]string{path})[path]) == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the holder never opened the port")
		}
	}
}

// TestPortsIdentify: `dgtbridge ports --identify --config FILE --show 3s
// PATH…` on emulated boards over pseudo-terminals: a DGT 3000 board on a
// port of its own and a bus line of three boards (two configured, one
// not, and a configured address that is absent) are listed with their
// addresses and serial numbers and matched to the configured boards; a
// silent port and one that answers noise are reported and do not stop
// the others; a port the daemon holds is reported busy with the daemon's
// way, and its board is never sent a byte. The DGT 3000 shows "board 7"
// while the command waits and its time display again afterwards; the bus
// boards' clocks show nothing. An Open Board Protocol board's port is not
// asked, and said so. Exit status 1 names the missing boards.
func TestPortsIdentify(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: real pseudo-terminals in real time")
	}
	now := time.Now()
	single := emu.New(emu.Setup{Serial: "00707"}, now)
	singlePath, stop := servedPTY(t, single)
	defer stop()
	var line []*emu.Emulator
	for i, s := range []string{"04101", "04102", "04199"} {
		line = append(line, emu.New(emu.Setup{Serial: s, Seed: uint64(i + 1)}, now))
	}
	linePath, stopLine := servedPTY(t, emu.NewLine(now, line...))
	defer stopLine()
	noisePath, stopNoise := servedPTY(t, &noiseDevice{})
	defer stopNoise()
	silentMaster, silentPath, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer silentMaster.Close()
	held := emu.New(emu.Setup{Serial: "00909"}, now)
	heldPath, stopHeld := servedPTY(t, held)
	defer stopHeld()
	holdAsDaemon(t, heldPath)
	obpMaster, obpPath, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer obpMaster.Close()

	cfg := filepath.Join(t.TempDir(), "dgtbridge.yaml")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf(`event: {id: cup, ruleset: fide2018-rapid, time_control: "900+10"}
boards:
  - {port: %[1]s, bus_address: 4101, round: 1, board: 1}
  - {port: %[1]s, bus_address: 4102, round: 1, board: 2}
  - {port: %[1]s, bus_address: 4103, round: 1, board: 3}
  - {port: %[2]s, round: 1, board: 7}
  - {port: %[3]s, round: 1, board: 9}
  - {port: %[4]s, round: 1, board: 20, protocol: obp, variant: xiangqi, ruleset: xiangqi-vn2004}
`, linePath, singlePath, heldPath, obpPath)), 0o600); err != nil {
		t.Fatal(err)
	}

	var out, errOut syncBuffer
	code := make(chan int, 1)
	go func() {
		code <- mainExit([]string{"ports", "--identify", "--config", cfg, "--show", "3s", silentPath, noisePath, obpPath}, &out, &errOut)
	}()
	shown := ""
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline) && shown == ""; time.Sleep(50 * time.Millisecond) {
		select {
		case c := <-code:
			t.Fatalf("ports --identify ended (exit %d) before showing anything:\n%s%s", c, out.String(), errOut.String())
		default:
		}
		shown = strings.TrimSpace(single.Clock(time.Now()).Text)
	}
	if shown != "board 7" {
		t.Errorf("the DGT 3000 of board 7 shows %q, want \"board 7\"", shown)
	}
	for _, e := range line {
		if c := e.Clock(time.Now()); c.Text != "" || !e.BusMode() {
			t.Errorf("bus board %d: clock shows %q, bus mode %v", e.Address(), c.Text, e.BusMode())
		}
	}
	var c int
	select {
	case c = <-code:
	case <-time.After(60 * time.Second):
		t.Fatal("ports --identify did not end after --show")
	}
	if got := single.Clock(time.Now()).Text; got != "" {
		t.Errorf("after --show the clock still shows %q", got)
	}
	text := out.String()
	t.Log(text)
	if c != 1 || !strings.Contains(errOut.String(), "ports: configured boards not found: 2") {
		t.Errorf("exit %d, stderr %q; want 1 naming 2 missing boards", c, errOut.String())
	}
	for _, want := range []string{
		linePath + "  (bus line: its clocks show nothing, find each board by the address on it)\n" +
			"  board 1     address 4101, serial 04101, firmware 1.07, clock\n" +
			"  board 2     address 4102, serial 04102, firmware 1.07, clock\n" +
			"  ?           address 4199, serial 04199, firmware 1.07, clock: not in the configuration\n",
		singlePath + "\n  board 7     address 707, serial 00707 (0000000707), firmware 1.07, DGT 3000 2.0 shows \"board 7\"\n",
		silentPath + "\n  no DGT board: nothing came back",
		noisePath + "\n  no DGT board: ",
		"none of them a DGT reply",
		"busy: " + heldPath + " is held by dgtbridge (pid ",
		"The running daemon reads it: \"dgtbridge status\" shows its boards; stop it (systemctl stop dgtbridge) to identify them here",
		"  board 3, address 4103 on " + linePath + ": address 4103 did not answer on its line",
		"  board 9, " + heldPath + ": its port " + heldPath + " is held by dgtbridge",
		"4 boards found: 3 in the configuration, 1 not; 2 configured boards missing",
		"clocks showing their board numbers: 1, until ",
		"clocks back to their time display: 1\n",
		"not asked (Open Board Protocol boards; \"dgtbridge run --check\" checks their ports):\n  board 20, " + obpPath + "\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the output lacks %q", want)
		}
	}
	if cmds, _ := held.Received(); len(cmds) != 0 {
		t.Errorf("the board on the daemon's port was sent % x", cmds)
	}
	if strings.Contains(text, obpPath+"\n  ") {
		t.Errorf("the Open Board Protocol board's port %s was asked for a DGT board", obpPath)
	}
}

// TestPortsIdentifyFlagsAlone: --config and --show without --identify are
// a usage error naming them, not silently ignored.
func TestPortsIdentifyFlagsAlone(t *testing.T) {
	var out, errOut bytes.Buffer
	code := mainExit([]string{"ports", "--config", "x.yaml", "--show", "1s", os.DevNull}, &out, &errOut)
	if code != 2 || !strings.Contains(errOut.String(), "ports: --config and --show: only with --identify") || out.Len() != 0 {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}

// TestIdentifyWantsHall60: the boards --identify looks for in the example
// hall are its 60 tables, by the ports the file gives (56 on bus lines
// with their addresses) and the numbers the daemon gives them in the
// event's round: the blind player's table (60 in the file) takes the
// number of the blind player's game, as does the blind player's own
// board on its socket, and the table that had that number takes 60.
func TestIdentifyWantsHall60(t *testing.T) {
	testenv.LookPath(t, "espeak-ng", "apt-get install -y espeak-ng") // the example speaks to the blind player (relay.speak: device)
	dir := t.TempDir()
	for _, f := range []string{"hall60.yaml", "hall60-pairings.csv"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "config", "example", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "lichess.token"), []byte("lip_example\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := config.Load(config.LoadOptions{File: filepath.Join(dir, "hall60.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	wants := daemon.IdentifyWants(c)
	if len(wants) != 61 {
		t.Fatalf("%d boards to identify, want 60 tables and the blind player's board", len(wants))
	}
	tables, bus := map[int]bool{}, 0
	for i, w := range wants {
		b := c.Boards[min(i, len(c.Boards)-1)]
		switch {
		case w.Blind:
			if w.Board != c.Boards[59].Board || w.Board == 60 || w.Port != c.Boards[59].Blind.Port || w.Address != 0 {
				t.Errorf("the blind player's board: %+v", w)
			}
			continue
		case w.Port != b.Port || int(w.Address) != b.BusAddress || w.Board != b.Board:
			t.Errorf("want %d %+v, configured %+v", i, w, b)
		}
		tables[w.Board] = true
		if w.Address != 0 {
			bus++
		}
	}
	if len(tables) != 60 || bus != 56 {
		t.Errorf("%d tables, %d on bus lines; want 60 and 56", len(tables), bus)
	}
}

// TestIdentifyInterrupted: an interrupt (the command's context ending, as
// Ctrl-C ends it) while the clocks show their numbers gives every clock
// its time display back at once, however long --show was.
func TestIdentifyInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: real pseudo-terminals in real time")
	}
	single := emu.New(emu.Setup{Serial: "00707", ClockVersion: [2]byte{1, 14}}, time.Now())
	path, stop := servedPTY(t, single)
	defer stop()
	cfg := filepath.Join(t.TempDir(), "dgtbridge.yaml")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf(`event: {id: cup, ruleset: fide2018-rapid, time_control: "900+10", round: 1}
boards:
  - {port: %s, board: 7}
`, path)), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out syncBuffer
	done := make(chan error, 1)
	go func() { done <- runIdentify(ctx, []string{path}, cfg, time.Hour, &out) }()
	shown := ""
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline) && shown == ""; time.Sleep(50 * time.Millisecond) {
		shown = single.Clock(time.Now()).Text
	}
	if shown != "b    7" {
		t.Errorf("the XL of board 7 shows %q, want \"b    7\"", shown)
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("interrupted: %v, want context.Canceled", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the interrupt did not end the wait")
	}
	if got := single.Clock(time.Now()).Text; got != "" {
		t.Errorf("after the interrupt the clock shows %q", got)
	}
	if !strings.Contains(out.String(), "clocks back to their time display: 1\n") {
		t.Errorf("output:\n%s", out.String())
	}
}
