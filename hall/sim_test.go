package hall

import (
	"context"
	"errors"
	"io"
	"net"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
)

// simHall is a hall run inside a testing/synctest bubble: time is the
// bubble's fake clock, which moves only when every goroutine of the test
// waits, so no timing depends on the machine's load. Boards are emulators
// served over in-process pipes (net.Pipe) through the same link and bus
// code a serial port goes through. The sink is a real publisher whose
// outbox journals everything the hall hands it; nothing is sent (NATS
// cannot live in the bubble), and payloads are observed after they were
// persisted and handed to the publisher (Options.Observer).
type simHall struct {
	t      testing.TB
	dir    string
	h      *Hall
	p      *broadcast.Publisher
	cancel context.CancelFunc
	done   chan error

	mu  sync.Mutex
	obs []Observation
}

// errNoNATS is the simulated publisher's Connect: it is never run.
var errNoNATS = errors.New("test: no NATS in a synctest bubble")

// startSim starts a hall with o (Sink and DataDir are set here, and an
// Observer that keeps every payload before it calls o.Observer, if any;
// DataDir is dir/data; o.FS, when set, is the publisher's outbox's too)
// inside the caller's bubble, and stops it when the test ends.
func startSim(t testing.TB, dir string, o Options) *simHall {
	t.Helper()
	s := &simHall{t: t, dir: dir, done: make(chan error, 1)}
	p, err := broadcast.NewPublisher(broadcast.Options{Prefix: testPrefix, Dir: filepath.Join(dir, "data", "outbox"),
		Connect: func(context.Context) (*nats.Conn, error) { return nil, errNoNATS }, Outbox: broadcast.OutboxOptions{FS: o.FS}})
	if err != nil {
		t.Fatal(err)
	}
	s.p = p
	o.Sink = p
	o.DataDir = filepath.Join(dir, "data")
	also := o.Observer // the caller's, called after the payload is kept
	o.Observer = func(ob Observation) {
		s.mu.Lock()
		s.obs = append(s.obs, ob)
		s.mu.Unlock()
		if also != nil {
			also(ob)
		}
	}
	h, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	s.h = h
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	go func() { s.done <- h.Run(ctx) }()
	t.Cleanup(s.stop)
	return s
}

// stop ends the hall (each board persists what it holds) and closes the
// publisher.
func (s *simHall) stop() {
	if s.cancel == nil {
		return
	}
	s.cancel()
	s.cancel = nil
	if err := <-s.done; err != nil {
		s.t.Errorf("hall: %v", err)
	}
	s.p.Close()
}

// observed returns the payloads observed so far.
func (s *simHall) observed() []Observation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Observation(nil), s.obs...)
}

// pipeServer serves an emulated device (a board or a bus line) over
// in-process pipes: every Open is a new "cable"; Close ends them all.
type pipeServer struct {
	dev emu.Device

	mu     sync.Mutex
	cancel []context.CancelFunc
	wg     sync.WaitGroup
}

// Open is the device's port.Opener.
func (p *pipeServer) Open(context.Context) (io.ReadWriteCloser, error) {
	host, dev := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	p.mu.Lock()
	p.cancel = append(p.cancel, cancel)
	p.mu.Unlock()
	p.wg.Go(func() { emu.Run(ctx, dev, p.dev) })
	return host, nil
}

// Close stops serving (the cables are pulled) and waits for the servers.
func (p *pipeServer) Close() {
	p.mu.Lock()
	cs := p.cancel
	p.cancel = nil
	p.mu.Unlock()
	for _, c := range cs {
		c()
	}
	p.wg.Wait()
}

// servePipe serves dev over pipes until the test ends.
func servePipe(t testing.TB, dev emu.Device) *pipeServer {
	p := &pipeServer{dev: dev}
	t.Cleanup(p.Close)
	return p
}

// journalled stops the hall and returns the MoveEvents its publisher
// journalled for game g (what it would send to NATS), in order.
func (s *simHall) journalled(g game.ID) []game.MoveEvent {
	s.t.Helper()
	s.stop()
	ob, err := broadcast.OpenOutbox(filepath.Join(s.dir, "data", "outbox"), broadcast.OutboxOptions{})
	if err != nil {
		s.t.Fatal(err)
	}
	defer ob.Close()
	recs, _, err := ob.NextBatch(time.Now().Add(24*time.Hour), 1<<20)
	if err != nil {
		s.t.Fatal(err)
	}
	var out []game.MoveEvent
	for _, r := range recs {
		if r.Subject != testPrefix+".game."+g.String()+".move" {
			continue
		}
		var ev game.MoveEvent
		if decode(s.t, r.Data, &ev) {
			out = append(out, ev)
		}
	}
	return out
}

// journalledUCIs is journalled as UCI moves.
func (s *simHall) journalledUCIs(g game.ID) []string {
	var out []string
	for _, ev := range s.journalled(g) {
		out = append(out, ev.UCI)
	}
	return out
}
