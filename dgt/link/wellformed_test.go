package link_test

import (
	"context"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/dgttest"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/dgt/link"
	"github.com/dgtbridge/dgtbridge/port"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
)

// xorPort flips chosen bits of the bytes the board sends: flip returns,
// for the byte at offset off of the board→host stream, the bits to flip
// (0: none). Unlike dgttest.FaultyPort it picks the bit, so a test can
// make a damaged message that is still well-formed.
type xorPort struct {
	io.ReadWriteCloser
	mu   sync.Mutex
	off  int64
	flip func(off int64, b byte) byte
}

func (p *xorPort) Read(b []byte) (int, error) {
	n, err := p.ReadWriteCloser.Read(b)
	p.mu.Lock()
	for i := range b[:n] {
		b[i] ^= p.flip(p.off, b[i])
		p.off++
	}
	p.mu.Unlock()
	return n, err
}

// serveWith serves e over a pipe through wrap (the host's side).
func serveWith(e *emu.Emulator, wrap func(io.ReadWriteCloser) io.ReadWriteCloser) (port.Opener, func()) {
	var wg sync.WaitGroup
	ctx, cancel := context.WithCancel(context.Background())
	return func(context.Context) (io.ReadWriteCloser, error) {
			host, dev := net.Pipe()
			wg.Go(func() { emu.Run(ctx, dev, e) })
			return wrap(host), nil
		}, func() {
			cancel()
			wg.Wait()
		}
}

// collect runs l until stop and returns every event, in order.
func collect(l *link.Link) (events func() []link.Event, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var mu sync.Mutex
	var evs []link.Event
	wg.Go(func() { l.Run(ctx) })
	wg.Go(func() {
		for ev := range l.Events() {
			mu.Lock()
			evs = append(evs, ev)
			mu.Unlock()
		}
	})
	return func() []link.Event {
			mu.Lock()
			defer mu.Unlock()
			return append([]link.Event(nil), evs...)
		}, func() {
			cancel()
			wg.Wait()
		}
}

// TestDoubledByteInADumpIsNotBelieved: a byte doubled in the middle of a
// board dump shifts every square after it by one and pushes the dump's
// last byte out of its frame; the frame itself has the right length and
// valid piece codes. The link must not pass that dump on (before, the
// consumer saw a board with a dozen pieces on wrong squares, which the
// tracker reported as displaced pieces): it asks again, and the consumer
// only ever sees real positions.
func TestDoubledByteInADumpIsNotBelieved(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := emu.New(emu.Setup{}, time.Now())
		var armed, done atomic.Bool
		dumpAt := int64(-1)
		f := dgttest.Faults{Seed: 1, Pick: func(off int64, b byte) dgttest.Fault {
			if !armed.Load() || done.Load() {
				return dgttest.NoFault
			}
			if b == byte(dgt.MsgBoardDump) && dumpAt < 0 {
				dumpAt = off
			}
			if dumpAt >= 0 && off == dumpAt+20 { // a square of rank 6
				done.Store(true)
				return dgttest.Duplicate
			}
			return dgttest.NoFault
		}}
		open, stopBoard := serveWith(e, func(rwc io.ReadWriteCloser) io.ReadWriteCloser { return dgttest.NewFaultyPort(rwc, f) })
		l := link.New(open, link.Settings{NoLog: true})
		events, stop := collect(l)
		time.Sleep(5 * time.Second)
		armed.Store(true)
		script, final := gameScript(t, "e2e4")
		e.Schedule(time.Now(), script)
		// The link checks the changed position with a dump (Verify): the
		// doubled byte lands in it.
		time.Sleep(script.Duration() + 10*time.Second)
		synctest.Wait()
		stop()
		stopBoard()
		if !done.Load() {
			t.Fatal("no byte doubled")
		}
		start := chess.StartPosition(chess.Standard).Placement()
		lifted := start
		lifted.Sq[start.Geo.Square(4, 1)] = rules.NoPiece // e2 in the hand
		real := map[rules.Placement]bool{start: true, final: true, lifted: true}
		var m mirror
		resyncs := 0
		for _, ev := range events() {
			m.apply(ev)
			if msg, ok := ev.(link.Message); ok {
				if d, ok := msg.Msg.(dgt.BoardDump); ok && !real[d.Placement(dgt.Normal)] {
					pl := d.Placement(dgt.Normal)
					t.Errorf("a dump no board showed was passed on:\n%s", pl.String())
				}
			}
			if _, ok := ev.(link.Resync); ok {
				resyncs++
			}
		}
		if resyncs == 0 {
			t.Error("the damage went unnoticed")
		}
		if got := m.placement(); got != final {
			t.Errorf("the link's events end on\n%s\nthe board holds\n%s", got.String(), final.String())
		}
	})
}

// TestFlippedClockDigitIsNotBelieved: one flipped bit in a clock
// message's minutes (the single-board protocol has no checksum) makes a
// well-formed reading four minutes off. Before, it was passed on, and the
// daemon told the arbiter of a clock that gained time and then of a clock
// defect (a crit alert) when the next reading was right again. Now the
// link asks the clock again and passes on only what the clock confirms:
// the consumer never sees the false time, and a time really set on the
// clock (the next reading agrees) still gets through.
func TestFlippedClockDigitIsNotBelieved(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := emu.New(emu.Setup{Clock: emu.ClockSetting{Base: 90 * time.Minute, Increment: 30 * time.Second, Mode: emu.Fischer}}, time.Now())
		var armed atomic.Bool
		var flipped atomic.Int32
		clockAt := int64(-1)
		open, stopBoard := serveWith(e, func(rwc io.ReadWriteCloser) io.ReadWriteCloser {
			return &xorPort{ReadWriteCloser: rwc, flip: func(off int64, b byte) byte {
				if !armed.Load() || flipped.Load() > 0 {
					return 0
				}
				if b == byte(dgt.MsgClock) {
					clockAt = off
				}
				if clockAt >= 0 && off == clockAt+4 { // the right side's minutes (BCD)
					flipped.Add(1)
					return 0x04
				}
				return 0
			}}
		})
		l := link.New(open, link.Settings{NoLog: true})
		events, stop := collect(l)
		time.Sleep(3 * time.Second)
		e.Schedule(time.Now(), emu.Script{{Kind: emu.Press, Side: emu.Left}}) // the right side runs
		time.Sleep(3 * time.Second)
		armed.Store(true)
		time.Sleep(5 * time.Second)
		synctest.Wait()
		stop()
		stopBoard()
		if flipped.Load() == 0 {
			t.Fatal("no bit flipped")
		}
		var prev time.Duration
		readings, resyncs := 0, 0
		for _, ev := range events() {
			if _, ok := ev.(link.Resync); ok {
				resyncs++
			}
			msg, ok := ev.(link.Message)
			if !ok {
				continue
			}
			c, ok := msg.Msg.(dgt.ClockTimes)
			if !ok || c.RunningSide() != dgt.RightSide {
				continue
			}
			readings++
			if d := c.Right.Duration(); prev > 0 && (d > prev || d < prev-2*time.Second) {
				t.Errorf("the right side read %v after %v: a time no clock showed was passed on", d, prev)
			}
			prev = c.Right.Duration()
		}
		if readings < 5 || resyncs == 0 {
			t.Errorf("%d readings of the running clock, %d resyncs: want the clock followed and the damage noted", readings, resyncs)
		}
	})
}
