package link_test

import (
	"context"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/dgt/link"
	"github.com/dgtbridge/dgtbridge/dgt/pty"
	"golang.org/x/sys/unix"
)

// ptyBoard serves one emulator on successive pseudo-terminals: Replug
// closes the current one (the board vanishes) and opens a new one (it
// comes back under a new device path, as a re-enumerated USB board does).
type ptyBoard struct {
	e      *emu.Emulator
	path   atomic.Value
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

func (p *ptyBoard) serve(t *testing.T) {
	t.Helper()
	m, path, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	p.cancel = cancel
	p.path.Store(path)
	p.wg.Go(func() { emu.ServePTY(ctx, m, p.e) })
}

func (p *ptyBoard) unplug() {
	p.cancel()
	p.wg.Wait()
}

// open opens the current slave path the way a serial port is opened:
// O_NOCTTY, read/write, no cgo.
func (p *ptyBoard) open(ctx context.Context) (io.ReadWriteCloser, error) {
	return os.OpenFile(p.path.Load().(string), os.O_RDWR|unix.O_NOCTTY, 0)
}

// TestPTYGameAcrossReplug runs the link against the emulator over real
// pseudo-terminals in real time: connect, follow a short game, acknowledge
// a clock command, lose the board mid-game and find it again on a new
// device path, with the position re-read.
func TestPTYGameAcrossReplug(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: real pseudo-terminals in real time")
	}
	e := emu.New(emu.Setup{Serial: "20001"}, time.Now())
	pb := &ptyBoard{e: e}
	pb.serve(t)
	l := link.New(pb.open, link.Settings{BackoffMin: 50 * time.Millisecond, BackoffMax: 200 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { l.Run(ctx) })
	defer func() {
		cancel()
		wg.Wait()
		pb.unplug()
	}()
	var m mirror
	next := func(what string, done func() bool) {
		t.Helper()
		deadline := time.After(30 * time.Second)
		for !done() {
			select {
			case ev, ok := <-l.Events():
				if !ok {
					t.Fatalf("events closed waiting for %s", what)
				}
				m.apply(ev)
			case <-deadline:
				t.Fatalf("no %s within 30 s (%d connects, %d dumps)", what, len(m.connected), m.dumps)
			}
		}
	}
	next("connect", func() bool { return m.dumps == 1 })
	if m.connected[0].Serial != "20001" {
		t.Fatalf("connected %+v", m.connected[0])
	}
	script, final := gameScript(t, ruyLopez[:8]...)
	for i := range script {
		script[i].At /= 4
	}
	begin := time.Now()
	e.Schedule(begin, script)
	if err := l.Clock(ctx, emuVersionRequest); err != nil {
		t.Fatalf("clock version over pty: %v", err)
	}
	// The game is played on the wall clock (this test is the real-time
	// one): the board is lost half-way through it, and the final position
	// is due when the script's last action is.
	time.Sleep(time.Until(begin.Add(script.Duration() / 2)))
	pb.unplug()
	next("disconnect", func() bool { return len(m.disconn) == 1 })
	pb.serve(t)
	next("reconnect", func() bool { return m.dumps == 2 })
	time.Sleep(time.Until(begin.Add(script.Duration())))
	e.Advance(time.Now())
	want := e.Placement()
	if want != final {
		t.Fatalf("emulator board %s, want %s: script not finished", want.String(), final.String())
	}
	next("final position", func() bool { return m.placement() == final })
}
