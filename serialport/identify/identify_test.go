package identify_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/bus"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/dgt/pty"
	"github.com/dgtbridge/dgtbridge/serialport/identify"
)

// serve serves dev on a new pseudo-terminal until the test ends.
func serve(t *testing.T, dev emu.Device) string {
	t.Helper()
	m, path, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { emu.ServePTY(ctx, m, dev) })
	t.Cleanup(func() { cancel(); wg.Wait() })
	return path
}

// garbage is a device that answers every byte it is sent with noise: a
// modem, a GPS, a board of another make.
type garbage struct {
	mu  sync.Mutex
	out []byte
	n   byte
}

func (g *garbage) Input(_ time.Time, p []byte) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for range p {
		g.n = g.n*31 + 7
		g.out = append(g.out, g.n, 'O', 'K', 0x8D, g.n|0x80)
	}
}
func (g *garbage) Advance(time.Time) {}
func (g *garbage) Output() []byte {
	g.mu.Lock()
	defer g.mu.Unlock()
	o := g.out
	g.out = nil
	return o
}
func (g *garbage) NextEvent() (time.Time, bool) { return time.Time{}, false }

// hall is a hall of emulated boards on pseudo-terminals and its
// configuration.
type hall struct {
	single, xl, stranger, held *emu.Emulator
	line                       []*emu.Emulator // 4101, 4102 (no clock), 4199 (not configured)
	strangers                  []*emu.Emulator // a line the configuration does not name: 4301, 4302
	heldPath                   string
	holder                     *exec.Cmd
	targets                    []identify.Target
	wants                      []identify.Want
	opts                       identify.Options
}

// newHall serves: board 57 (DGT 3000) on a port of its own; board 58 (an
// XL) on a port named by a stable symlink, the configuration using that
// name; a bus line with boards 1 and 2 (addresses 4101, 4102) and one
// board not in the configuration (4199), board 3 (4103) configured there
// but absent; a board on a port of its own not in the configuration; a
// silent port; a port that answers garbage; board 59 on a socket with
// nothing plugged in; board 60 on a port another program holds; board 61
// on port auto.
func newHall(t *testing.T) *hall {
	now := time.Now()
	h := &hall{
		single:   emu.New(emu.Setup{Serial: "05701", Seed: 1}, now),
		xl:       emu.New(emu.Setup{Serial: "05801", ClockVersion: [2]byte{1, 14}, Seed: 2}, now),
		stranger: emu.New(emu.Setup{Serial: "09999", Seed: 3}, now),
		held:     emu.New(emu.Setup{Serial: "06001", Seed: 4}, now),
	}
	for i, s := range []emu.Setup{{Serial: "04101"}, {Serial: "04102", NoClock: true}, {Serial: "04199"}} {
		s.Seed = uint64(10 + i)
		h.line = append(h.line, emu.New(s, now))
	}
	for i, s := range []string{"04301", "04302"} {
		h.strangers = append(h.strangers, emu.New(emu.Setup{Serial: s, Seed: uint64(20 + i)}, now))
	}
	strangeLine := serve(t, emu.NewLine(now, h.strangers...))
	singlePath := serve(t, h.single)
	xlPath := serve(t, h.xl)
	linePath := serve(t, emu.NewLine(now, h.line...))
	strangerPath := serve(t, h.stranger)
	h.heldPath = serve(t, h.held)
	garbagePath := serve(t, &garbage{})
	silentMaster, silentPath, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { silentMaster.Close() })

	byPath := filepath.Join(t.TempDir(), "by-path")
	if err := os.Mkdir(byPath, 0o755); err != nil {
		t.Fatal(err)
	}
	xlName := filepath.Join(byPath, "pci-0000:00:14.0-usb-0:2:1.0")
	if err := os.Symlink(xlPath, xlName); err != nil {
		t.Fatal(err)
	}
	lineName := filepath.Join(byPath, "pci-0000:00:14.0-usb-0:1.1:1.0-port0")
	if err := os.Symlink(linePath, lineName); err != nil {
		t.Fatal(err)
	}

	slave, err := os.OpenFile(h.heldPath, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	h.holder = exec.Command("sleep", "60")
	h.holder.ExtraFiles = []*os.File{slave}
	if err := h.holder.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	t.Cleanup(func() { h.holder.Process.Kill(); h.holder.Wait() })
	waitHeld(t, h.heldPath)

	h.targets = []identify.Target{{Path: strangerPath, USB: "04d8:000a"}, {Path: silentPath}, {Path: garbagePath}, {Path: singlePath}, {Path: strangeLine}}
	h.wants = []identify.Want{
		{Board: 57, Port: singlePath},
		{Board: 58, Port: xlName},
		{Board: 1, Port: linePath, Address: 4101},
		{Board: 2, Port: lineName, Address: 4102},
		{Board: 3, Port: lineName, Address: 4103},
		{Board: 59, Port: filepath.Join(byPath, "pci-0000:00:14.0-usb-0:3:1.0")},
		{Board: 60, Port: h.heldPath},
		{Board: 61, Port: "auto"},
	}
	h.opts = identify.Options{NameDirs: []string{byPath}, Bus: bus.Settings{ReplyTimeout: 400 * time.Millisecond}}
	return h
}

// waitHeld waits until the holder process has the port open.
func waitHeld(t *testing.T, path string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if len(serialportHolders(path)) > 0 {
			return
		}
	}
	t.Fatalf("the holder never opened %s", path)
}

// TestIdentifyHall: every board of the hall is found on its port with its
// address and serial number and matched to its configured board (by the
// kernel path or by a stable name, whose name is listed with the port);
// the boards not in the configuration, on the line, on a port of its own
// and on a whole line the configuration does not name (found as a bus
// line: its boards' merged answers to a single-board request are not
// taken for one board), are listed as such; board 3 (absent from its line), board 59 (no such
// port) and board 60 (its port held by another program, never opened) are
// missing with why; the silent and the garbled ports say that no board
// answered, without holding up the others. Then the clocks show the board
// numbers (a DGT 3000 "board 57", an XL "b   58", the stranger
// "unknown"), the bus line's clocks nothing (its boards stay in bus mode),
// and End gives every clock its time display back.
func TestIdentifyHall(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: real pseudo-terminals in real time")
	}
	h := newHall(t)
	r := identify.Probe(context.Background(), h.targets, h.wants, h.opts)
	var sb strings.Builder
	identify.Print(&sb, r)
	t.Log(sb.String())

	got := map[string]identify.Row{} // serial → row
	portOf := map[string]identify.Port{}
	for _, p := range r.Ports {
		for _, row := range p.Rows {
			got[row.Found.Serial] = row
			portOf[row.Found.Serial] = p.Port
		}
	}
	for _, tc := range []struct {
		serial string
		board  int // 0: not in the configuration
		addr   uint16
		clock  identify.ClockKind
		shows  string
	}{
		{"05701", 57, 5701, identify.DGT3000, "board 57"},
		{"05801", 58, 5801, identify.XL, "b   58"},
		{"04101", 1, 4101, identify.BusClock, ""},
		{"04102", 2, 4102, identify.NoClock, ""},
		{"04199", 0, 4199, identify.BusClock, ""},
		{"09999", 0, 9999, identify.DGT3000, "unknown"},
		{"04301", 0, 4301, identify.BusClock, ""},
		{"04302", 0, 4302, identify.BusClock, ""},
	} {
		row, ok := got[tc.serial]
		switch {
		case !ok:
			t.Errorf("board %s not found", tc.serial)
			continue
		case tc.board == 0 && row.Want != nil:
			t.Errorf("board %s matched to %s, want not in the configuration", tc.serial, row.Want)
		case tc.board != 0 && (row.Want == nil || row.Want.Board != tc.board):
			t.Errorf("board %s matched to %v, want board %d", tc.serial, row.Want, tc.board)
		}
		if row.Found.Address != tc.addr || row.Found.Clock != tc.clock || row.Shows != tc.shows {
			t.Errorf("board %s: address %d, clock %d, shows %q; want %d, %d, %q", tc.serial, row.Found.Address, row.Found.Clock, row.Shows, tc.addr, tc.clock, tc.shows)
		}
	}
	if p := portOf["05801"]; len(p.Names) != 1 || !strings.HasSuffix(p.Names[0], "usb-0:2:1.0") {
		t.Errorf("the XL's port %s lists the names %v, want its by-path name", p.Device, p.Names)
	}
	if p := portOf["04101"]; !p.Bus || len(p.Names) != 1 {
		t.Errorf("the bus line %s: bus %v, names %v", p.Device, p.Bus, p.Names)
	}
	if found, unknown := r.Found(); found != 8 || unknown != 4 {
		t.Errorf("found %d boards, %d unknown; want 8 and 4", found, unknown)
	}
	if p := portOf["04301"]; !p.Bus {
		t.Errorf("the line the configuration does not name was not found as a bus line: %+v", p)
	}

	missing := map[int]string{}
	for _, m := range r.Missing {
		missing[m.Want.Board] = m.Why
	}
	for board, why := range map[int]string{
		3:  "address 4103 did not answer on its line",
		59: "no such port",
		60: "is held by sleep (pid ",
	} {
		if !strings.Contains(missing[board], why) {
			t.Errorf("board %d missing because %q, want %q", board, missing[board], why)
		}
	}
	if len(missing) != 3 {
		t.Errorf("missing %v, want boards 3, 59, 60", missing)
	}
	if len(r.Auto) != 1 || r.Auto[0].Board != 61 {
		t.Errorf("port auto: %v, want board 61", r.Auto)
	}
	if cmds, _ := h.held.Received(); len(cmds) != 0 {
		t.Errorf("the held port's board was sent % x: a held port must not be opened", cmds)
	}
	var noBoard *identify.NoBoardError
	var busy *identify.BusyError
	silent, garbled := 0, 0
	for _, pr := range r.Ports {
		p := pr.Port
		switch {
		case errors.As(p.Err, &noBoard) && noBoard.Heard == 0:
			silent++
			if !strings.Contains(p.Err.Error(), "nothing came back") {
				t.Errorf("the silent port says %q", p.Err)
			}
		case errors.As(p.Err, &noBoard):
			garbled++
			if !strings.Contains(p.Err.Error(), "none of them a DGT reply") {
				t.Errorf("the garbled port says %q", p.Err)
			}
		case errors.As(p.Err, &busy):
			if p.Device != h.heldPath {
				t.Errorf("%s reported busy: %v", p.Device, p.Err)
			}
		}
	}
	if silent != 1 || garbled != 1 {
		t.Errorf("%d silent and %d garbled ports, want one of each", silent, garbled)
	}

	s := identify.Show(context.Background(), r, h.opts)
	shown := s.Shown()
	if len(shown) != 3 {
		t.Fatalf("labels %+v, want three (57, 58 and the stranger)", shown)
	}
	for _, sh := range shown {
		if sh.Err != nil {
			t.Errorf("%s: %v", sh.Port, sh.Err)
		}
	}
	now := time.Now()
	for e, want := range map[*emu.Emulator]string{h.single: "board 57", h.xl: "b   58", h.stranger: "unknown"} {
		if c := e.Clock(now); strings.TrimRight(c.Text, " ") != want {
			t.Errorf("clock of %s shows %q, want %q", e.Setup().Serial, c.Text, want)
		}
	}
	for _, e := range append(h.line, h.strangers...) {
		if c := e.Clock(now); c.Text != "" || !e.BusMode() {
			t.Errorf("bus board %d: clock shows %q, bus mode %v", e.Address(), c.Text, e.BusMode())
		}
	}
	for _, sh := range s.End() {
		if sh.Err != nil {
			t.Errorf("%s: %v", sh.Port, sh.Err)
		}
	}
	now = time.Now()
	for _, e := range []*emu.Emulator{h.single, h.xl, h.stranger} {
		if c := e.Clock(now); c.Text != "" {
			t.Errorf("clock of %s still shows %q after End", e.Setup().Serial, c.Text)
		}
	}
}
