package link_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/dgt/link"
)

// gatedLine is the daemon's end of a pipe to the board whose writes can
// be held (a process descheduled, a USB adapter's buffer full) and the
// board's end, which keeps every byte the board read.
type gatedLine struct {
	net.Conn // the daemon's end
	mu       sync.Mutex
	held     bool
	open     *sync.Cond
	got      bytes.Buffer // what the board read
}

func newGatedLine(host net.Conn) *gatedLine {
	g := &gatedLine{Conn: host}
	g.open = sync.NewCond(&g.mu)
	return g
}

func (g *gatedLine) Write(p []byte) (int, error) {
	g.mu.Lock()
	for g.held {
		g.open.Wait()
	}
	g.mu.Unlock()
	return g.Conn.Write(p)
}

func (g *gatedLine) hold(h bool) {
	g.mu.Lock()
	g.held = h
	g.mu.Unlock()
	g.open.Broadcast()
}

// boardEnd is the board's end of the line, keeping what it reads.
type boardEnd struct {
	net.Conn
	g *gatedLine
}

func (b boardEnd) Read(p []byte) (int, error) {
	n, err := b.Conn.Read(p)
	b.g.mu.Lock()
	b.g.got.Write(p[:n])
	b.g.mu.Unlock()
	return n, err
}

func (g *gatedLine) count(b []byte) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return bytes.Count(g.got.Bytes(), b)
}

// TestAckWaitingIsNotResent: the clock's ACK has arrived (it waits in the
// link's input) when the ACK time-out fires too, because the daemon was
// busy meanwhile (here: blocked writing to the line; in a hall, a
// descheduled process). Before, the link's select
// took either, and re-sent the acknowledged command about one time in two:
// a second SetNRun sets the clock back to the times of the first. Now
// what has arrived is read before a re-send: the command goes out once.
// Sixteen runs, each with both ready at once.
func TestAckWaitingIsNotResent(t *testing.T) {
	set := dgt.SetNRun{Left: dgt.SettingOf(90 * time.Minute), Right: dgt.SettingOf(90 * time.Minute), Flags: dgt.RunLeft}
	wire, err := set.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 16 {
		t.Run(fmt.Sprint("run ", i), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := emu.New(emu.Setup{Serial: "00555", AckDelay: 100 * time.Millisecond}, time.Now())
				lines := make(chan *gatedLine, 8) // one a connection
				var wg sync.WaitGroup
				ctx, cancel := context.WithCancel(context.Background())
				open := func(context.Context) (io.ReadWriteCloser, error) {
					host, b := net.Pipe()
					line := newGatedLine(host)
					lines <- line
					wg.Go(func() { emu.Run(ctx, boardEnd{b, line}, e) })
					return line, nil
				}
				l := link.New(open, link.Settings{NoLog: true, Verify: -1, Watchdog: time.Minute})
				wg.Go(func() { l.Run(ctx) })
				var rec recorder
				wg.Go(func() { rec.run(l) })
				time.Sleep(10 * time.Second)
				line := <-lines
				clockErr := make(chan error, 1)
				wg.Go(func() { clockErr <- l.Clock(ctx, set) })
				time.Sleep(time.Millisecond) // the board has the command; its ACK comes in 100 ms
				line.hold(true)
				wg.Go(func() { l.Send(ctx, dgt.CmdSendBoard) }) // the link blocks writing it
				time.Sleep(3 * time.Second)                     // the ACK is in, the 2 s time-out has fired
				line.hold(false)
				time.Sleep(10 * time.Second)
				synctest.Wait()
				cancel()
				wg.Wait()
				if err := <-clockErr; err != nil {
					t.Errorf("run %d: Clock: %v", i, err)
				}
				if n := line.count(wire); n != 1 {
					t.Errorf("run %d: the board got the acknowledged command %d times, want once", i, n)
				}
			})
		})
	}
}
