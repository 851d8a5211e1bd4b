package bus_test

import (
	"context"
	"io"
	"os"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/dgtbridge/dgtbridge/dgt/bus"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/dgt/pty"
	"github.com/dgtbridge/dgtbridge/rules"
)

// TestSixteenBoardsOverPTY runs a 16-board line on a real pseudo-terminal
// in real time (expected addresses, no broadcast, generous time-outs for
// a loaded machine): all boards are found and a move on one arrives.
func TestSixteenBoardsOverPTY(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: real pseudo-terminals in real time")
	}
	h := newHall(16)
	m, path, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	sctx, stopServe := context.WithCancel(context.Background())
	var sw sync.WaitGroup
	sw.Go(func() { emu.ServePTY(sctx, m, h.line) })
	defer func() { stopServe(); sw.Wait() }()

	var addrs []uint16
	for a := range h.boards {
		addrs = append(addrs, a)
	}
	b := bus.New(func(ctx context.Context) (io.ReadWriteCloser, error) {
		return os.OpenFile(path, os.O_RDWR|unix.O_NOCTTY, 0)
	}, bus.LineSettings{Addresses: addrs, NoBroadcast: true, ReplyTimeout: time.Second})
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { b.Run(ctx) })
	defer func() { cancel(); wg.Wait() }()

	s := newState()
	deadline := time.After(60 * time.Second)
	until := func(what string, done func() bool) {
		t.Helper()
		for !done() {
			select {
			case ev := <-b.Events():
				s.apply(ev)
			case <-deadline:
				t.Fatalf("no %s within 60 s (found %d)", what, len(s.found))
			}
		}
	}
	until("16 boards", func() bool { return len(s.fields) == 16 })
	e := h.boards[2009]
	before := e.Placement()
	e.Schedule(time.Now(), emu.Script{
		{At: 0, Kind: emu.Lift, Square: sq("c2")},
		{At: 200 * time.Millisecond, Kind: emu.Place, Square: sq("c4"), Piece: rules.Piece{Color: rules.White, Kind: rules.Pawn}},
	})
	time.Sleep(500 * time.Millisecond)
	e.Advance(time.Now()) // the script is done even if the serving goroutine lags
	want := e.Placement()
	if want == before || want.At(sq("c4")) != (rules.Piece{Color: rules.White, Kind: rules.Pawn}) {
		t.Fatalf("the emulated board did not play c2-c4: %s", want.String())
	}
	until("the move", func() bool { return s.placement(2009) == want })
}
