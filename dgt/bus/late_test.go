package bus_test

import (
	"context"
	"io"
	"net"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/emu"
)

// deafLine is a bus line whose boards hear nothing the host sends for
// hold after each of the moments in at: what the host sends meanwhile
// reaches them in one go when the stall ends (the boards' process held
// up, as the load test's emulator on a busy machine), after the host's
// time-out; the command after that is heard hold/3 late (held up again).
type deafLine struct {
	*emu.Line
	mu    sync.Mutex
	at    []time.Time // when the next stalls begin, in order
	hold  time.Duration
	until time.Time // the current stall's end; zero: none
	held  []byte
	again bool // the stall ended: the next command is heard late too
}

func (d *deafLine) Input(now time.Time, p []byte) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.release(now)
	switch {
	case d.until.IsZero() && d.again:
		d.again, d.until = false, now.Add(d.hold/3)
	case d.until.IsZero() && len(d.at) > 0 && !now.Before(d.at[0]):
		d.at, d.until, d.again = d.at[1:], now.Add(d.hold), true
	}
	if !d.until.IsZero() {
		d.held = append(d.held, p...)
		return
	}
	d.Line.Input(now, p)
}

// release hands the held bytes to the boards once the stall is over.
func (d *deafLine) release(now time.Time) {
	if d.until.IsZero() || now.Before(d.until) {
		return
	}
	d.until = time.Time{}
	if len(d.held) > 0 {
		d.Line.Input(now, d.held)
		d.held = nil
	}
}

func (d *deafLine) Advance(now time.Time) {
	d.mu.Lock()
	d.release(now)
	d.mu.Unlock()
	d.Line.Advance(now)
}

func (d *deafLine) NextEvent() (time.Time, bool) {
	t, ok := d.Line.NextEvent()
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.until.IsZero() && (!ok || d.until.Before(t)) {
		return d.until, true
	}
	return t, ok
}

// lateRepliesGame plays a 30-ply game on one board of a line whose board
// is deaf for hold after each of stalls (offsets from the game's start),
// and returns what the line reported and the board.
func lateRepliesGame(t *testing.T, stalls []time.Duration, hold time.Duration) (*state, *hall, []uint16) {
	h := newHall(8)
	addrs := runningClocks(h)
	start := time.Now().Add(5 * time.Second)
	d := &deafLine{Line: h.line, hold: hold}
	for _, s := range stalls {
		d.at = append(d.at, start.Add(s))
	}
	var wg sync.WaitGroup
	rctx, stop := context.WithCancel(context.Background())
	open := func(ctx context.Context) (io.ReadWriteCloser, error) {
		host, dev := net.Pipe()
		wg.Go(func() { emu.Run(rctx, dev, d) })
		return host, nil
	}
	b, cancel, bwg := runLine(open, addrs)
	s := newState()
	bwg.Go(func() {
		for ev := range b.Events() {
			s.apply(ev)
		}
	})
	for i, a := range addrs {
		h.boards[a].Schedule(start.Add(time.Duration(i)*250*time.Millisecond), randomScript(t, uint64(i+1), 30, 2*time.Second))
	}
	time.Sleep(5*time.Second + 70*time.Second)
	synctest.Wait()
	cancel()
	bwg.Wait()
	stop()
	wg.Wait()
	return s, h, addrs
}

// TestLateReplyAfterTimeOutTakenOnce: a board that hears a SEND_CHANGES
// only after the host's time-out (its process held up 150 ms) answers it
// and the REPEAT_CHANGES sent meanwhile one after the other, with the same
// packet. The host takes the packet once: the line reports every record
// the board wrote exactly once (the same clock records as without the
// stalls, the board's position), not the second copy as the reply to its
// next SEND_CHANGES, whose own records were then dropped as a stray frame
// (load test at 2,000 boards, a 110-ms stall of the emulator: a move's
// lift lost, the game read as displaced pieces from then on).
func TestLateReplyAfterTimeOutTakenOnce(t *testing.T) {
	want := map[uint16]int{}
	synctest.Test(t, func(t *testing.T) {
		s, h, addrs := lateRepliesGame(t, nil, 0)
		for _, a := range addrs {
			want[a] = s.eeClocks[a]
			if got, b := s.placement(a), h.boards[a].Placement(); got != b {
				t.Fatalf("without stalls: the line shows %s, the board %s", got.String(), b.String())
			}
		}
	})
	synctest.Test(t, func(t *testing.T) {
		var stalls []time.Duration
		for i := range 170 {
			stalls = append(stalls, time.Duration(i)*397*time.Millisecond+300*time.Millisecond)
		}
		s, h, addrs := lateRepliesGame(t, stalls, 150*time.Millisecond)
		for _, a := range addrs {
			if got, b := s.placement(a), h.boards[a].Placement(); got != b {
				t.Errorf("board %d: the line shows %s, the board %s: records lost", a, got.String(), b.String())
			}
			if got, w := s.eeClocks[a], want[a]; got != w {
				t.Errorf("board %d: %d clock records reported, %d without the stalls: records lost or taken twice", a, got, w)
			}
		}
	})
}
