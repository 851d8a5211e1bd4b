package link_test

import (
	"context"
	"errors"
	"io"
	"os"
	"sync"
	"testing"
	"time"

	dgtemu "github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/dgt/pty"
	"github.com/dgtbridge/dgtbridge/obp"
	"github.com/dgtbridge/dgtbridge/obp/emu"
	"github.com/dgtbridge/dgtbridge/obp/link"
	"github.com/dgtbridge/dgtbridge/port"
	"golang.org/x/sys/unix"
)

// device is an emulated board that can be struck dumb (it hears nothing
// and says nothing, as a hung microcontroller) or swapped for another.
type device struct {
	mu   sync.Mutex
	e    *emu.Emulator
	mute bool
}

func (d *device) get() (*emu.Emulator, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.e, d.mute
}

func (d *device) set(e *emu.Emulator, mute bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.e, d.mute = e, mute
}

func (d *device) Input(now time.Time, p []byte) {
	if e, mute := d.get(); !mute {
		e.Input(now, p)
	}
}
func (d *device) Advance(now time.Time) { e, _ := d.get(); e.Advance(now) }
func (d *device) Output() []byte {
	e, mute := d.get()
	out := e.Output()
	if mute {
		return nil
	}
	return out
}
func (d *device) NextEvent() (time.Time, bool) { e, _ := d.get(); return e.NextEvent() }

// servePTY serves dev on a new pseudo-terminal until the test ends and
// returns an opener of its slave side.
func servePTY(t *testing.T, dev dgtemu.Device) port.Opener {
	t.Helper()
	m, path, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { dgtemu.ServePTY(ctx, m, dev) })
	t.Cleanup(func() { cancel(); wg.Wait() })
	return func(context.Context) (io.ReadWriteCloser, error) {
		return os.OpenFile(path, os.O_RDWR|unix.O_NOCTTY, 0)
	}
}

func newEmu(t *testing.T, o emu.Options) *emu.Emulator {
	t.Helper()
	e, err := emu.New(o, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// runLink starts l until the test ends.
func runLink(t *testing.T, l *link.Link) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { l.Run(ctx) })
	t.Cleanup(func() {
		cancel()
		wg.Wait()
		for range l.Events() {
		}
	})
}

// TestWatchdog: a board that hangs is found dead by the watchdog's poll
// and reconnected once it answers again; a poll answered by another
// board ends the connection and the new board is identified; a silent
// board that answers the polls stays connected.
func TestWatchdog(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: real pseudo-terminals in real time")
	}
	e1 := newEmu(t, emu.Options{Serial: "ONE", NoClock: true})
	d := &device{e: e1}
	l := link.New(servePTY(t, d), link.Settings{Watchdog: 300 * time.Millisecond, BackoffMin: 50 * time.Millisecond, BackoffMax: 100 * time.Millisecond, IdentifyInterval: 200 * time.Millisecond})
	runLink(t, l)
	var m mirror
	follow(t, l, &m, "connect", func() bool { return len(m.connected) == 1 })
	time.Sleep(time.Second) // three polls, all answered
	if len(m.disconn) != 0 || countIdents(e1) < 3 {
		t.Fatalf("a silent board that answers: %d disconnects, %d I commands", len(m.disconn), countIdents(e1))
	}
	d.set(e1, true)
	follow(t, l, &m, "disconnect", func() bool { return len(m.disconn) == 1 })
	if !errors.Is(m.disconn[0].Err, link.ErrDead) {
		t.Errorf("hung board: %v, want ErrDead", m.disconn[0].Err)
	}
	d.set(e1, false)
	follow(t, l, &m, "reconnect", func() bool { return len(m.connected) == 2 })
	d.set(newEmu(t, emu.Options{Serial: "TWO", NoClock: true}), false)
	follow(t, l, &m, "the new board", func() bool { return len(m.connected) == 3 })
	if !errors.Is(m.disconn[1].Err, link.ErrBoardChanged) || m.connected[2].Ident.Serial != "TWO" {
		t.Errorf("swapped board: %v, then %+v", m.disconn[1].Err, m.connected[2].Ident)
	}
}

func countIdents(e *emu.Emulator) int {
	n := 0
	for _, c := range e.Received() {
		if c == obp.CmdIdent {
			n++
		}
	}
	return n
}

// TestNoBoard: a port where nothing answers is retried, never reported
// connected; commands meanwhile fail with ErrNotConnected; after Run
// returns they fail with ErrStopped.
func TestNoBoard(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: real pseudo-terminals in real time")
	}
	d := &device{e: newEmu(t, emu.Options{}), mute: true}
	opens := make(chan struct{}, 100)
	open := servePTY(t, d)
	l := link.New(func(ctx context.Context) (io.ReadWriteCloser, error) {
		opens <- struct{}{}
		return open(ctx)
	}, link.Settings{IdentifyInterval: 50 * time.Millisecond, BackoffMin: 10 * time.Millisecond, BackoffMax: 20 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { l.Run(ctx); close(done) }()
	for range 3 {
		select {
		case <-opens:
		case <-time.After(30 * time.Second):
			t.Fatal("the port was not reopened")
		}
	}
	if err := l.Send(ctx, obp.CmdBoard); !errors.Is(err, link.ErrNotConnected) {
		t.Errorf("Send with no board: %v", err)
	}
	cancel()
	<-done
	for ev := range l.Events() {
		t.Errorf("event %T with no board", ev)
	}
	if err := l.Send(context.Background(), obp.CmdBoard); !errors.Is(err, link.ErrStopped) {
		t.Errorf("Send after Run: %v", err)
	}
}
