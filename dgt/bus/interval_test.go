package bus_test

import (
	"context"
	"fmt"
	"net"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/bus"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/port"
)

// TestFullLineIsPolledWithinPollInterval: on a line of 32 boards with
// running clocks (the wire at 9600 baud both ways, as emu.Line models it)
// every board's changes are polled at least every 900 ms (as the line
// counts, [bus.Stats].MaxInterval), and every clock is still read at least
// every other cycle (a reading that shows the same second as the one
// before is not reported: 3 s at most between reports).
func TestFullLineIsPolledWithinPollInterval(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHall(32)
		addrs := runningClocks(h)
		b, cancel, wg := runLine(h.open, addrs)
		var mu sync.Mutex
		since := time.Now().Add(15 * time.Second) // after finding and reading the boards
		last := map[uint16]time.Time{}
		gap := map[uint16]time.Duration{}
		wg.Go(func() {
			for ev := range b.Events() {
				if c, ok := ev.(bus.Clock); ok {
					mu.Lock()
					if p, seen := last[c.Address]; seen && p.After(since) {
						gap[c.Address] = max(gap[c.Address], c.At.Sub(p))
					}
					last[c.Address] = c.At
					mu.Unlock()
				}
			}
		})
		time.Sleep(15 * time.Second) // finding and reading 32 boards takes about 10 s
		st0 := b.Stats()
		time.Sleep(30 * time.Second)
		st := b.Stats()
		cancel()
		wg.Wait()
		h.close()
		cycles := st.Cycles - st0.Cycles
		t.Logf("in 30 s: %d cycles, the last %v, the longest %v, a board's longest interval %v; %.0f bytes/s in, %.0f out; %.1f clock reads per cycle",
			cycles, st.LastCycle, st.MaxCycle, st.MaxInterval, float64(st.BytesIn-st0.BytesIn)/30, float64(st.BytesOut-st0.BytesOut)/30,
			float64(st.ClockReads-st0.ClockReads)/float64(cycles))
		if st.MaxInterval > 900*time.Millisecond || cycles < 33 {
			t.Fatalf("%d cycles in 30 s, a board polled up to %v apart: want every board polled at least every 900 ms", cycles, st.MaxInterval)
		}
		mu.Lock()
		defer mu.Unlock()
		for _, a := range addrs {
			if g := gap[a]; g == 0 || g > 3*time.Second {
				t.Errorf("board %d: clock readings up to %v apart", a, g)
			}
		}
	})
}

// TestReadingsAreStampedAtThePoll: a consumer that falls behind (it takes
// a second per event) gets every reading with the time its reply came off
// the line, not the time it was handed over, so its lag never shows as
// clock time lost.
func TestReadingsAreStampedAtThePoll(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHall(4)
		e := h.boards[2001]
		b := bus.New(h.open, bus.Settings{Addresses: []uint16{2001, 2002, 2003, 2004}, NoBroadcast: true, EventBuffer: 1})
		ctx, cancel := contextWithCancel()
		var wg sync.WaitGroup
		wg.Go(func() { b.Run(ctx) })
		time.Sleep(3 * time.Second)
		pressed := time.Now()
		e.Do(pressed, emu.Action{Kind: emu.Press, Side: emu.Left})
		var stamps []time.Duration
		wg.Go(func() {
			for ev := range b.Events() {
				if c, ok := ev.(bus.Clock); ok && c.Address == 2001 && c.At.After(pressed) && len(stamps) < 10 {
					stamps = append(stamps, c.At.Sub(pressed))
				}
				time.Sleep(time.Second) // a slow consumer
			}
		})
		time.Sleep(40 * time.Second)
		cancel()
		wg.Wait()
		h.close()
		if len(stamps) < 3 {
			t.Fatalf("%d clock readings after the press", len(stamps))
		}
		if stamps[0] > time.Second {
			t.Fatalf("the first reading after the press is stamped %v after it, want within a poll (the consumer's lag is not the board's)", stamps[0])
		}
		t.Logf("stamps after the press: %v", fmt.Sprint(stamps))
	})
}

func contextWithCancel() (context.Context, context.CancelFunc) {
	return context.WithCancel(context.Background())
}

// runningClocks starts every board's clock in h and returns the boards'
// addresses.
func runningClocks(h *hall) []uint16 {
	var addrs []uint16
	for a, e := range h.boards {
		e.Do(time.Now(), emu.Action{Kind: emu.Press, Side: emu.Left})
		addrs = append(addrs, a)
	}
	return addrs
}

// runLine runs a line polling the boards at addrs through open (no
// broadcast discovery, no log reads) on wg; cancel stops it.
func runLine(open port.Opener, addrs []uint16) (*bus.Bus, context.CancelFunc, *sync.WaitGroup) {
	return runLineWith(open, bus.Settings{Addresses: addrs})
}

// runLineWith is runLine with more settings s (its addresses included).
func runLineWith(open port.Opener, s bus.Settings) (*bus.Bus, context.CancelFunc, *sync.WaitGroup) {
	s.NoBroadcast, s.NoLog, s.Rediscover = true, true, time.Hour
	b := bus.New(open, s)
	ctx, cancel := contextWithCancel()
	wg := &sync.WaitGroup{}
	wg.Go(func() { b.Run(ctx) })
	return b, cancel, wg
}

// TestPressReadInItsPoll: on a full line (32 boards, their clocks running,
// so that not every clock fits in every cycle) a press is reported with
// the clock reading that shows it no later than right after the changes
// that carried the board's clock record (the board writes one at every
// press), not up to two cycles later when the board's turn in the clock
// rotation comes.
func TestPressReadInItsPoll(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHall(32)
		addrs := runningClocks(h)
		b, cancel, wg := runLine(h.open, addrs)
		const addr = 2007
		var mu sync.Mutex
		var records, readings []time.Time // of board addr: changes with a clock record, readings with a new running side
		lastRun := dgt.RightSide
		wg.Go(func() {
			for ev := range b.Events() {
				mu.Lock()
				switch e := ev.(type) {
				case bus.Changes:
					for _, r := range e.Records {
						if e.Address == addr && r.Kind == dgt.EEClock {
							records = append(records, e.At)
						}
					}
				case bus.Clock:
					if run := e.Clock.RunningSide(); e.Address == addr && run != lastRun {
						readings = append(readings, e.At)
						lastRun = run
					}
				}
				mu.Unlock()
			}
		})
		time.Sleep(15 * time.Second) // finding and reading 32 boards takes about 10 s
		e := h.boards[addr]
		side := emu.Right
		var presses []time.Time
		for i := 0; i < 20; i++ {
			// Presses at every phase of the cycle: 3.3 s apart.
			time.Sleep(2300 * time.Millisecond)
			presses = append(presses, time.Now())
			e.Do(time.Now(), emu.Action{Kind: emu.Press, Side: side})
			side = side.Other()
			time.Sleep(time.Second)
		}
		cancel()
		wg.Wait()
		h.close()
		mu.Lock()
		defer mu.Unlock()
		if len(records) != 20 || len(readings) != 20 {
			t.Fatalf("%d clock records and %d readings for 20 presses", len(records), len(readings))
		}
		var late []time.Duration
		for i, p := range presses {
			late = append(late, readings[i].Sub(p))
			if readings[i].Before(p) || readings[i].After(records[i].Add(100*time.Millisecond)) {
				t.Errorf("press %d at %v: read %v after it, %v after the changes that carried its record (want no later than right after them)",
					i+1, p.Format("05.000"), readings[i].Sub(p), readings[i].Sub(records[i]))
			}
		}
		t.Logf("press to the reading that shows it: %v", late)
	})
}

// slowPort delays every read that brings bytes by lat: a USB-serial
// adapter's latency timer (the FTDI chips of bus adapters hold what came
// in for up to their timer, 1-16 ms).
type slowPort struct {
	net.Conn
	lat time.Duration
}

func (p slowPort) Read(b []byte) (int, error) {
	n, err := p.Conn.Read(b)
	if n > 0 {
		time.Sleep(p.lat)
	}
	return n, err
}

// TestPressesKeepThePollInterval: a full line whose boards play fast (a
// press on each of 24 boards every 2 s, 10 presses a cycle: fifteen times
// a hall's pace; on the other 8 the game is over and the clock runs on)
// behind an adapter with a 6 ms latency timer: the clock reads that
// presses call for are made only in the slack the polls leave (the oldest
// press first), so every board's changes are still polled within the poll
// interval, as the boards hear the polls, and no board's clock goes unread
// for long, the idle boards' included. (Read right after its changes
// whatever the budget, the cycle took 1.24 s; with the presses always
// first, the idle boards' clocks were not read once in 40 s: the daemon
// said their clocks were disconnected.)
func TestPressesKeepThePollInterval(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, tap, open := tappedHall(32, 6*time.Millisecond)
		addrs := runningClocks(h)
		b, cancel, wg := runLine(open, addrs)
		var mu sync.Mutex
		since := time.Now().Add(20 * time.Second)
		last := map[uint16]time.Time{}
		gap := map[uint16]time.Duration{}
		wg.Go(func() {
			for ev := range b.Events() {
				if c, ok := ev.(bus.Clock); ok {
					mu.Lock()
					if p, seen := last[c.Address]; seen && p.After(since) {
						gap[c.Address] = max(gap[c.Address], c.At.Sub(p))
					}
					last[c.Address] = c.At
					mu.Unlock()
				}
			}
		})
		time.Sleep(20 * time.Second)
		st0, start := b.Stats(), time.Now()
		side := map[uint16]emu.Side{}
		slices.Sort(addrs)
		for i := 0; i < 640; i++ { // 40 s
			time.Sleep(2 * time.Second / 32)
			a := addrs[i%32]
			if i%32 >= 24 {
				continue // eight games over: their clocks run on, nobody presses
			}
			if side[a] == 0 {
				side[a] = emu.Right
			}
			h.boards[a].Do(time.Now(), emu.Action{Kind: emu.Press, Side: side[a]})
			side[a] = side[a].Other()
		}
		st := b.Stats()
		cancel()
		wg.Wait()
		h.close()
		cycles := st.Cycles - st0.Cycles
		longest, text := summary(pollGaps(tap.heardSince(start)))
		t.Logf("%d cycles, the longest %v; %.1f clock reads a cycle; polls: %s", cycles, st.MaxCycle, float64(st.ClockReads-st0.ClockReads)/float64(cycles), text)
		if longest > 900*time.Millisecond {
			t.Errorf("a board's changes were polled %v apart: want every board polled within 900 ms", longest)
		}
		mu.Lock()
		defer mu.Unlock()
		for _, a := range addrs {
			if g := gap[a]; g == 0 || g > 5*time.Second {
				t.Errorf("board %d: clock readings up to %v apart", a, g)
			}
		}
	})
}
