package bus_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
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
	}, bus.Settings{Addresses: addrs, NoBroadcast: true, ReplyTimeout: time.Second})
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
	begin := time.Now()
	e.Schedule(begin, emu.Script{
		{At: 0, Kind: emu.Lift, Square: sq("c2")},
		{At: 200 * time.Millisecond, Kind: emu.Place, Square: sq("c4"), Piece: rules.Piece{Color: rules.White, Kind: rules.Pawn}},
	})
	// The move is played on the wall clock (this test is the real-time
	// one): its last action is due 200 ms after the first.
	time.Sleep(time.Until(begin.Add(200 * time.Millisecond)))
	e.Advance(time.Now()) // the script is done even if the serving goroutine lags
	want := e.Placement()
	if want == before || want.At(sq("c4")) != (rules.Piece{Color: rules.White, Kind: rules.Pawn}) {
		t.Fatalf("the emulated board did not play c2-c4: %s", want.String())
	}
	until("the move", func() bool { return s.placement(2009) == want })
}

// BenchmarkPollGapsOverPTY runs full bus lines of 32 boards on real
// pseudo-terminals in real time, the emulated boards in this process (as
// the load test has them), each board playing the load test's game (a
// ply every 2 s, the starts spread over 2 s), and reports each board's
// poll interval as the boards hear the polls (p50, p99, max) beside the
// longest the lines counted themselves when they sent them
// ([bus.Stats].MaxInterval): the difference is the time the commands
// spend between the two ends (the processes' scheduling, the
// pseudo-terminal). It plays 40 s after 15 s for finding the boards (5 s
// under -short, CI's smoke run: no meaningful figure). Run it alone with
// -benchtime 1x.
func BenchmarkPollGapsOverPTY(b *testing.B) {
	for _, lines := range []int{1, 8} {
		b.Run(fmt.Sprintf("lines=%d", lines), func(b *testing.B) {
			for b.Loop() {
				benchPollGaps(b, lines)
			}
		})
	}
}

func benchPollGaps(b *testing.B, lines int) {
	warm, play := 15*time.Second, 40*time.Second
	if testing.Short() {
		warm, play = 3*time.Second, 2*time.Second
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	var taps []*tappedLine
	var buses []*bus.Bus
	var halls []*hall
	for range lines {
		h := newHall(32)
		tap := &tappedLine{Line: h.line}
		m, path, err := pty.Open()
		if err != nil {
			b.Fatal(err)
		}
		wg.Go(func() { emu.ServePTY(ctx, m, tap) })
		addrs := runningClocks(h)
		slices.Sort(addrs)
		bs := bus.New(func(ctx context.Context) (io.ReadWriteCloser, error) {
			return os.OpenFile(path, os.O_RDWR|unix.O_NOCTTY, 0)
		}, bus.Settings{Addresses: addrs, NoBroadcast: true, Rediscover: time.Hour})
		wg.Go(func() { bs.Run(ctx) })
		wg.Go(func() {
			for range bs.Events() {
			}
		})
		taps, buses, halls = append(taps, tap), append(buses, bs), append(halls, h)
	}
	// A benchmark of the lines in real time: the boards are found and read
	// in warm, and the figures are taken over play, both on the wall clock.
	time.Sleep(warm)
	start := time.Now().Add(500 * time.Millisecond)
	for _, h := range halls {
		var addrs []uint16
		for a := range h.boards {
			addrs = append(addrs, a)
		}
		slices.Sort(addrs)
		for i, a := range addrs {
			h.boards[a].Schedule(start.Add(time.Duration(i)*2*time.Second/32), randomScript(b, uint64(i+1), 40, 2*time.Second))
		}
	}
	time.Sleep(play)
	var gaps []time.Duration
	var lineMax time.Duration
	for i, tap := range taps {
		gaps = append(gaps, pollGaps(tap.heardSince(start))...)
		lineMax = max(lineMax, buses[i].Stats().MaxInterval)
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(quantile(gaps, 0.5)), "p50-ms")
	b.ReportMetric(ms(quantile(gaps, 0.99)), "p99-ms")
	b.ReportMetric(ms(quantile(gaps, 1)), "max-ms")
	b.ReportMetric(ms(lineMax), "line-max-ms")
}
