package bus_test

import (
	"context"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/bus"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
)

// TestProbeFindsTheLine: one discovery finds every board of a line, the
// expected ones and those only a broadcast finds, with their versions and
// whether a clock is cabled to them; an expected address nobody has is
// not reported; the boards stay in bus mode, with no start tag set.
func TestProbeFindsTheLine(t *testing.T) {
	now := time.Now()
	a := emu.New(emu.Setup{Serial: "04101", Version: [2]byte{1, 2}, Seed: 1}, now)
	b := emu.New(emu.Setup{Serial: "04102", NoClock: true, Seed: 2}, now)
	c := emu.New(emu.Setup{Serial: "04199", Seed: 3}, now)
	line := emu.NewLine(now, a, b, c)
	host, dev := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { emu.Run(ctx, dev, line) })
	defer func() { cancel(); wg.Wait() }()

	found, err := bus.Probe(context.Background(), host, bus.Settings{Addresses: []uint16{4101, 4102, 4103}})
	if err != nil {
		t.Fatal(err)
	}
	want := []bus.Found{{Address: 4101, Clock: true}, {Address: 4102, Clock: false}, {Address: 4199, Clock: true}}
	if len(found) != len(want) {
		t.Fatalf("found %+v, want addresses 4101, 4102, 4199", found)
	}
	for i, f := range found {
		if f.Address != want[i].Address || f.Clock != want[i].Clock {
			t.Errorf("board %d: %+v, want %+v", i, f, want[i])
		}
	}
	if v := found[0].Version; v.Major != 1 || v.Minor != 2 {
		t.Errorf("4101's version %d.%d, want 1.2", v.Major, v.Minor)
	}
	for _, e := range []*emu.Emulator{a, b, c} {
		if !e.BusMode() {
			t.Errorf("board %d left bus mode", e.Address())
		}
		cmds, _ := e.Received()
		for _, op := range cmds {
			if op == 0x85 {
				t.Errorf("board %d was sent SET_START_GAME", e.Address())
			}
		}
	}
	if _, err := host.Write([]byte{0}); err == nil {
		t.Error("Probe left the port open")
	}
}

// TestProbeWakesSingleModeBoards: boards that a single-board command left
// in single-board mode are found by a broadcast-only probe (the wake-up
// ping switches them back to bus mode), and are in bus mode afterwards.
func TestProbeWakesSingleModeBoards(t *testing.T) {
	now := time.Now()
	a := emu.New(emu.Setup{Serial: "04301", Seed: 1}, now)
	b := emu.New(emu.Setup{Serial: "04302", Seed: 2}, now)
	line := emu.NewLine(now, a, b)
	line.Input(now, []byte{0x40}) // DGT_SEND_RESET: single-board mode, idle
	line.Advance(now.Add(100 * time.Millisecond))
	if a.BusMode() || b.BusMode() {
		t.Fatal("the reset left a board in bus mode")
	}
	host, dev := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { emu.Run(ctx, dev, line) })
	defer func() { cancel(); wg.Wait() }()
	found, err := bus.Probe(context.Background(), host, bus.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 2 || found[0].Address != 4301 || found[1].Address != 4302 {
		t.Errorf("found %+v, want 4301 and 4302", found)
	}
	if !a.BusMode() || !b.BusMode() {
		t.Error("a board is not back in bus mode")
	}
}
