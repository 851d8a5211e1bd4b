package bus_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/bus"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
)

// knightDance returns a script of n knight moves g1-f3-g1… with a clock
// press after each, one per second.
func knightDance(n int) emu.Script {
	var s emu.Script
	wn := rules.Piece{Color: rules.White, Kind: rules.Knight}
	from, to := sq("g1"), sq("f3")
	for i := 0; i < n; i++ {
		at := time.Duration(i) * time.Second
		s = append(s, emu.Action{At: at, Kind: emu.Lift, Square: from},
			emu.Action{At: at + 300*time.Millisecond, Kind: emu.Place, Square: to, Piece: wn},
			emu.Action{At: at + 500*time.Millisecond, Kind: emu.Press, Side: emu.Side(1 + i%2)})
		from, to = to, from
	}
	return s
}

// TestLogAfterAnOutage: a board unplugged from the line while its game
// goes on is found again with its log read first: every change and clock
// record made meanwhile is in it (none lost, none repeated as Changes),
// then its position.
func TestLogAfterAnOutage(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHall(8)
		s, stop := run(t, h, bus.Settings{Rediscover: 10 * time.Second, NoBroadcast: true,
			Addresses: []uint16{2001, 2002, 2003, 2004, 2005, 2006, 2007, 2008}})
		defer stop()
		time.Sleep(5 * time.Second)
		e := h.boards[2005]
		e.Schedule(time.Now(), knightDance(3))
		time.Sleep(5 * time.Second)
		h.line.Unplug(2005)
		e.Schedule(time.Now(), knightDance(11))
		time.Sleep(20 * time.Second)
		h.line.Plug(2005)
		time.Sleep(20 * time.Second)
		synctest.Wait()
		s.mu.Lock()
		kinds, logs, clocks := s.kinds[2005], s.logs[2005], s.eeClocks[2005]
		s.mu.Unlock()
		if want := []string{"BoardFound", "Log", "Position", "Changes", "BoardLost", "BoardFound", "Log", "Position"}; !slices.Equal(kinds, want) {
			t.Fatalf("events of board 2005: %v, want %v", kinds, want)
		}
		if got, want := s.placement(2005), e.Placement(); got != want {
			t.Fatalf("mirror %s, board %s", got.String(), want.String())
		}
		// Without a start tag the log reaches back to power-up: all 14
		// knight moves and the 12 presses that halted a clock (the first
		// press of each dance starts or continues the other side). Where
		// no clock record separates two changes of the same field, the
		// board overwrote the first: 2 of the 28 records.
		last := logs[len(logs)-1]
		inLog := 0
		for _, r := range last.Entries {
			if r.Kind == dgt.EEClock {
				inLog++
			}
		}
		if last.Pieces() != 32+2*14-2 || inLog != 12 || clocks != 2+12 {
			t.Fatalf("log after the outage %v with %d clock records (%d seen in all), want 32+28 pieces and 12 clock records", last, inLog, clocks)
		}
	})
}

// TestStartTagAndReadLog: a board whose changes report a begin position
// gets a start tag, so a log read on request starts at it; ReadLog names
// unknown boards.
func TestStartTagAndReadLog(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHall(4)
		b := bus.New(h.open, bus.Settings{NoBroadcast: true, Addresses: []uint16{2001, 2002, 2003, 2004}})
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { b.Run(ctx) })
		s := newState()
		wg.Go(func() {
			for ev := range b.Events() {
				s.apply(ev)
			}
		})
		defer func() { cancel(); wg.Wait(); h.close() }()
		time.Sleep(3 * time.Second)
		e := h.boards[2002]
		// Three pawns out and back: the board writes EE_BEGINPOS again.
		wp := rules.Piece{Color: rules.White, Kind: rules.Pawn}
		var script emu.Script
		for i, f := range []string{"a2", "b2", "c2"} {
			script = append(script, emu.Action{At: time.Duration(i) * time.Second, Kind: emu.Lift, Square: sq(f)},
				emu.Action{At: time.Duration(i+3) * time.Second, Kind: emu.Place, Square: sq(f), Piece: wp})
		}
		e.Schedule(time.Now(), script)
		time.Sleep(8 * time.Second)
		if cmds, _ := e.Received(); !slices.Contains(cmds, byte(dgt.BusCmdSetStartGame)) {
			t.Fatalf("no SET_START_GAME after a begin position; commands % x", cmds)
		}
		if err := b.ReadLog(ctx, 2002); err != nil {
			t.Fatal(err)
		}
		if err := b.ReadLog(ctx, 999); !errors.Is(err, bus.ErrUnknownBoard) {
			t.Fatalf("ReadLog of an absent board: %v", err)
		}
		synctest.Wait()
		s.mu.Lock()
		logs := s.logs[2002]
		s.mu.Unlock()
		l := logs[len(logs)-1]
		if len(logs) != 2 || l.Entries[0].Kind != dgt.EEStartTag || l.Pieces() != 32 {
			t.Fatalf("%d logs, the last %v: want one that starts at the start tag with 32 pieces", len(logs), fmt.Sprint(l.Entries[:3]))
		}
	})
}
