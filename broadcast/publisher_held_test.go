package broadcast

import (
	"context"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// slowReplies opens in-process connections to a real server whose replies
// (everything the server sends the client: acks, PONGs) can be held back
// and let go later: acknowledgements that come late, as from a server or a
// link under load. What the client sends goes through at once.
type slowReplies struct {
	ns   *server.Server
	mu   sync.Mutex
	cond *sync.Cond
	held bool
}

func newSlowReplies(ns *server.Server) *slowReplies {
	s := &slowReplies{ns: ns}
	s.cond = sync.NewCond(&s.mu)
	return s
}

func (s *slowReplies) hold(on bool) {
	s.mu.Lock()
	s.held = on
	s.mu.Unlock()
	s.cond.Broadcast()
}

// InProcessConn makes slowReplies a nats.InProcessConnProvider.
func (s *slowReplies) InProcessConn() (net.Conn, error) {
	c, err := s.ns.InProcessConn()
	if err != nil {
		return nil, err
	}
	return &slowConn{Conn: c, s: s}, nil
}

func (s *slowReplies) dial(context.Context) (*nats.Conn, error) {
	return nats.Connect("", nats.InProcessServer(s), nats.MaxReconnects(0))
}

// slowConn is one connection: a read's bytes reach the client once the
// replies are no longer held (or the connection is closed).
type slowConn struct {
	net.Conn
	s      *slowReplies
	closed bool // under s.mu
}

func (c *slowConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	c.s.mu.Lock()
	for c.s.held && !c.closed {
		c.s.cond.Wait()
	}
	c.s.mu.Unlock()
	return n, err
}

func (c *slowConn) Close() error {
	c.s.mu.Lock()
	c.closed = true
	c.s.mu.Unlock()
	c.s.cond.Broadcast()
	return c.Conn.Close()
}

// deliveries counts, per subject and Nats-Msg-Id, the messages a plain (core)
// subscriber of the game and public feeds and of the KV bucket's puts (a
// KV watcher) receives, as spectators' pages and the load test subscribe.
type deliveries struct {
	nc *nats.Conn
	mu sync.Mutex
	n  map[string]int
}

func countDeliveries(t *testing.T, srv *Server) *deliveries {
	t.Helper()
	d := &deliveries{nc: srv.mustConnect(t), n: map[string]int{}}
	for _, subj := range []string{testPrefix + ".game.>", testPrefix + ".public.>", "$KV." + testPrefix + "_games.>"} {
		if _, err := d.nc.Subscribe(subj, func(m *nats.Msg) {
			d.mu.Lock()
			d.n[m.Subject+" "+m.Header.Get(jetstream.MsgIDHeader)]++
			d.mu.Unlock()
		}); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.nc.Flush(); err != nil {
		t.Fatal(err)
	}
	return d
}

func (d *deliveries) count() (ids, total int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, n := range d.n {
		total += n
	}
	return len(d.n), total
}

// check fails for every message delivered more than once, after the
// subscriber has received everything the server sent it so far.
func (d *deliveries) check(t *testing.T, want int) {
	t.Helper()
	if err := d.nc.Flush(); err != nil {
		t.Fatal(err)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	dups := 0
	for id, n := range d.n {
		if n > 1 {
			dups += n - 1
			t.Errorf("%s delivered %d times to a core subscriber", id, n)
		}
	}
	if len(d.n) != want {
		t.Errorf("%d messages delivered, want %d", len(d.n), want)
	}
	t.Logf("%d messages, %d repeats", len(d.n), dups)
}

// play publishes ply's move and the game's state after it (with their
// public copies: four messages).
func play(t *testing.T, p *Publisher, ply int) {
	t.Helper()
	if err := p.PublishMove(move(ply, 0)); err != nil {
		t.Fatal(err)
	}
	st := game.GameState{Game: testGame, Event: "open2026", Round: 1, Board: 1, Result: "*",
		UpdatedAt: game.T(time.Date(2026, 2, 8, 8, 1, 0, 0, time.UTC).Add(time.Duration(ply) * time.Second))}
	for range ply {
		st.SAN, st.Moves = append(st.SAN, "Nf3"), append(st.Moves, "g1f3")
	}
	if err := p.PublishState(st); err != nil {
		t.Fatal(err)
	}
}

func slowPublisher(t *testing.T, dir string, dial func(context.Context) (*nats.Conn, error)) *Publisher {
	t.Helper()
	p, err := NewPublisher(Options{
		Prefix: testPrefix, Dir: dir, Connect: dial,
		MinBackoff: 10 * time.Millisecond, MaxBackoff: 100 * time.Millisecond,
		PublishTimeout: 300 * time.Millisecond,
	})
	if err != nil {
		t.Fatalf("NewPublisher: %v", err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// TestLateAcksNotSentAgain: the streams store a batch but their
// acknowledgements come after the publisher's time-out (a server or link
// under load). The publisher must not send those messages again: the
// streams would drop the repeats by message id, but a core subscriber (a
// spectator's page, the load test) would receive each twice. Before, every
// message of the batch was sent again after the time-out (10 of 10
// the load test counted 111 at 2,000 boards under load).
func TestLateAcksNotSentAgain(t *testing.T) {
	srv := startServer(t, t.TempDir())
	defer srv.Shutdown()
	slow := newSlowReplies(srv.NATS())
	p := slowPublisher(t, t.TempDir(), slow.dial)
	runPublisher(t, p)
	subs := countDeliveries(t, srv)

	play(t, p, 1) // streams set up, the connection working
	waitFor(t, "ply 1 sent", 10*time.Second, func() bool { return p.Pending() == 0 })
	slow.hold(true)
	for ply := 2; ply <= 6; ply++ {
		play(t, p, ply) // 20 messages
	}
	// The first batch reaches the streams; its acknowledgements do not
	// come in time.
	waitFor(t, "a batch stored", 10*time.Second, func() bool { ids, _ := subs.count(); return ids > 4 })
	waitFor(t, "the publisher's time-out", 10*time.Second, func() bool { return p.Health() != nil })
	// More passes fail while the replies are held: the wall clock against
	// the 300-ms PublishTimeout is what this exercises.
	time.Sleep(500 * time.Millisecond)
	slow.hold(false)
	waitFor(t, "the outbox empty", 10*time.Second, func() bool { return p.Pending() == 0 })
	subs.check(t, 24)
	nc := srv.mustConnect(t)
	if got := plies(t, streamMsgs(t, nc, "DGT_GAMES", "", 6, 5*time.Second)); fmt.Sprint(got) != fmt.Sprint(seq(1, 6)) {
		t.Errorf("GAMES holds plies %v", got)
	}
}

// TestRestartWithMessagesInFlight: the daemon stops while a batch is in
// flight (stored by the streams, not yet acknowledged). The next run must
// not send those messages again to core subscribers. Before, it sent them
// all again.
func TestRestartWithMessagesInFlight(t *testing.T) {
	srv := startServer(t, t.TempDir())
	defer srv.Shutdown()
	slow := newSlowReplies(srv.NATS())
	dir := t.TempDir()
	p1 := slowPublisher(t, dir, slow.dial)
	stop := runPublisher(t, p1)
	subs := countDeliveries(t, srv)

	play(t, p1, 1)
	waitFor(t, "ply 1 sent", 10*time.Second, func() bool { return p1.Pending() == 0 })
	slow.hold(true)
	for ply := 2; ply <= 6; ply++ {
		play(t, p1, ply)
	}
	waitFor(t, "a batch stored", 10*time.Second, func() bool { ids, _ := subs.count(); return ids > 4 })
	stop()
	if err := p1.Close(); err != nil {
		t.Fatal(err)
	}
	slow.hold(false)

	p2 := slowPublisher(t, dir, srv.Dialer())
	if n := p2.Pending(); n != 20 {
		t.Fatalf("the outbox holds %d messages after the restart, want the 20 unacknowledged", n)
	}
	runPublisher(t, p2)
	play(t, p2, 7)
	waitFor(t, "the outbox empty", 10*time.Second, func() bool { return p2.Pending() == 0 })
	subs.check(t, 28)
}

// TestUnsureMessageNotInTheStreamIsSent: a message that was sent but never
// reached its stream (the ask finds nothing) is sent again, not lost.
func TestUnsureMessageNotInTheStreamIsSent(t *testing.T) {
	srv := startServer(t, t.TempDir())
	defer srv.Shutdown()
	dir := t.TempDir()
	// The last run journalled ply 1..3 and crashed before sending them.
	down := func(context.Context) (*nats.Conn, error) { return nil, fmt.Errorf("test: unreachable") }
	p1 := slowPublisher(t, dir, down)
	for ply := 1; ply <= 3; ply++ {
		p1.PublishMove(move(ply, 0))
	}
	if err := p1.Close(); err != nil {
		t.Fatal(err)
	}
	subs := countDeliveries(t, srv)
	time.Sleep(2 * time.Millisecond) // the next run starts after they were due
	p2 := slowPublisher(t, dir, srv.Dialer())
	runPublisher(t, p2)
	waitFor(t, "the outbox empty", 10*time.Second, func() bool { return p2.Pending() == 0 })
	subs.check(t, 6)
	nc := srv.mustConnect(t)
	if got := plies(t, streamMsgs(t, nc, "DGT_GAMES", "", 3, 5*time.Second)); fmt.Sprint(got) != fmt.Sprint(seq(1, 3)) {
		t.Errorf("GAMES holds plies %v", got)
	}
}
