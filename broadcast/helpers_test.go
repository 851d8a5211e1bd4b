package broadcast

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

const testPrefix = "dgt"

var testGame = game.ID{Event: "open2026", Round: 1, Board: 1}

// startServer starts a real embedded server (no TCP listener) on dir.
func startServer(t testing.TB, dir string, users ...User) *Server {
	t.Helper()
	s, err := StartServer(ServerOptions{Prefix: testPrefix, StoreDir: dir, Users: users})
	if err != nil {
		t.Fatalf("StartServer: %v", err)
	}
	return s
}

// switchable is a dialer whose server can be replaced (restart tests).
type switchable struct {
	mu  sync.Mutex
	srv *Server
}

func (d *switchable) set(s *Server) {
	d.mu.Lock()
	d.srv = s
	d.mu.Unlock()
}

func (d *switchable) dial(context.Context) (*nats.Conn, error) {
	d.mu.Lock()
	s := d.srv
	d.mu.Unlock()
	if s == nil {
		return nil, errors.New("test: no server")
	}
	return s.Connect()
}

// runPublisher starts p.Run and stops it at cleanup (or when stop is called).
func runPublisher(t testing.TB, p *Publisher) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Run: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

func newPublisher(t testing.TB, dir string, dial func(context.Context) (*nats.Conn, error), delay time.Duration) *Publisher {
	t.Helper()
	p, err := NewPublisher(Options{
		Prefix: testPrefix, Dir: dir, Connect: dial, PublicDelay: delay,
		MinBackoff: 10 * time.Millisecond, MaxBackoff: 100 * time.Millisecond,
		PublishTimeout: 2 * time.Second,
	})
	if err != nil {
		t.Fatalf("NewPublisher: %v", err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// newDaemonPublisher is a publisher wired to srv as the daemon wires it:
// the staff connection and the public account's.
func newDaemonPublisher(t testing.TB, srv *Server, delay time.Duration) *Publisher {
	t.Helper()
	p, err := NewPublisher(Options{
		Prefix: testPrefix, Dir: t.TempDir(), Connect: srv.Dialer(), ConnectPublic: srv.PublicDialer(), PublicDelay: delay,
		MinBackoff: 10 * time.Millisecond, MaxBackoff: 100 * time.Millisecond, PublishTimeout: 2 * time.Second,
	})
	if err != nil {
		t.Fatalf("NewPublisher: %v", err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func move(ply, rev int) game.MoveEvent {
	return game.MoveEvent{
		Game: testGame, Ply: ply, SAN: "e4", UCI: "e2e4", FEN: "fen",
		Clock: &game.ClockPair{WhiteMS: 5400000, BlackMS: 5400000}, EMTMS: 3000,
		At: game.T(time.Date(2026, 2, 8, 8, 1, 2, 345e6, time.UTC).Add(time.Duration(ply) * time.Second)), Revision: rev,
	}
}

// streamMsgs reads every message of a stream (subject filter optional) with
// an ordered consumer, waiting until want messages arrived or timeout.
func streamMsgs(t testing.TB, nc *nats.Conn, stream, filter string, want int, timeout time.Duration) []jetstream.Msg {
	t.Helper()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cfg := jetstream.OrderedConsumerConfig{}
	if filter != "" {
		cfg.FilterSubjects = []string{filter}
	}
	var out []jetstream.Msg
	for ctx.Err() == nil && len(out) < want {
		c, err := js.OrderedConsumer(ctx, stream, cfg)
		if err != nil {
			time.Sleep(20 * time.Millisecond) // stream not created yet
			continue
		}
		for ctx.Err() == nil && len(out) < want {
			b, err := c.Fetch(want-len(out), jetstream.FetchMaxWait(200*time.Millisecond))
			if err != nil {
				break
			}
			for m := range b.Messages() {
				out = append(out, m)
			}
		}
	}
	// one more short fetch: more than want would be a duplicate
	if c, err := js.OrderedConsumer(context.Background(), stream, jetstream.OrderedConsumerConfig{FilterSubjects: cfg.FilterSubjects, DeliverPolicy: jetstream.DeliverAllPolicy}); err == nil {
		n := 0
		if b, err := c.Fetch(want+10, jetstream.FetchMaxWait(300*time.Millisecond)); err == nil {
			for range b.Messages() {
				n++
			}
		}
		if n > len(out) {
			t.Errorf("stream %s holds %d messages, want %d", stream, n, want)
		}
	}
	return out
}

func waitFor(t testing.TB, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// mustConnect is a staff connection as the daemon's user, closed at cleanup.
func (s *Server) mustConnect(t testing.TB) *nats.Conn {
	t.Helper()
	nc, err := s.Connect()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}
