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
