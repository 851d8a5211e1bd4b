package broadcast

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// BenchmarkPublishLatency measures the time from Publish() (the tracker's
// call) to delivery to a subscriber of <p>.game.>, through the durable
// outbox, a JetStream publish with ack on file storage and core delivery.
//
// One iteration is one period of 2 s in which every game source publishes
// one move, spread evenly (500 sources: one every 4 ms). With one source the
// period is shortened to 20 ms (latency of an isolated move on an idle
// system; waiting 2 s between samples would measure nothing more).
// Reports p50-µs, p99-µs and max-µs over all moves of the run.
func BenchmarkPublishLatency(b *testing.B) {
	for _, tc := range []struct {
		sources int
		period  time.Duration
	}{{1, 20 * time.Millisecond}, {500, 2 * time.Second}} {
		b.Run(fmt.Sprintf("sources=%d", tc.sources), func(b *testing.B) {
			benchLatency(b, tc.sources, tc.period)
		})
	}
}

func benchLatency(b *testing.B, sources int, period time.Duration) {
	srv := startServer(b, b.TempDir())
	defer srv.Shutdown()
	p := newPublisher(b, b.TempDir(), srv.Dialer(), 0)
	stop := runPublisher(b, p)
	defer stop()
	nc, err := srv.Connect()
	if err != nil {
		b.Fatal(err)
	}
	defer nc.Close()
	var (
		mu    sync.Mutex
		start = map[string]time.Time{}
		lat   []time.Duration
		n     int
		all   = make(chan struct{})
		total = b.N * sources
	)
	_, err = nc.Subscribe("dgt.game.>", func(m *nats.Msg) {
		now := time.Now()
		mu.Lock()
		if t0, ok := start[m.Header.Get(jetstream.MsgIDHeader)]; ok {
			lat = append(lat, now.Sub(t0))
		}
		n++
		if n == total {
			close(all)
		}
		mu.Unlock()
	})
	if err != nil {
		b.Fatal(err)
	}
	nc.Flush()
	waitFor(b, "publisher connected", 10*time.Second, func() bool { return p.Health() == nil })
	games := make([]game.ID, sources)
	for i := range games {
		games[i] = game.ID{Event: "bench", Round: 1, Board: i + 1}
	}
	gap := period / time.Duration(sources)
	ply := 0
	b.ResetTimer()
	next := time.Now()
	for range b.N {
		ply++
		for _, g := range games {
			if d := time.Until(next); d > 0 {
				time.Sleep(d)
			}
			next = next.Add(gap)
			ev := game.MoveEvent{Game: g, Ply: ply, SAN: "e4", UCI: "e2e4", FEN: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
				Clock: &game.ClockPair{WhiteMS: 5400000, BlackMS: 5400000}, EMTMS: 2000, At: game.T(time.Now())}
			id := fmt.Sprintf("%s.move.%d.0", g, ply)
			mu.Lock()
			start[id] = time.Now()
			mu.Unlock()
			if err := p.PublishMove(ev); err != nil {
				b.Fatal(err)
			}
		}
	}
	select {
	case <-all:
	case <-time.After(30 * time.Second):
		b.Fatal("moves not delivered")
	}
	b.StopTimer()
	mu.Lock()
	defer mu.Unlock()
	slices.Sort(lat)
	q := func(f float64) float64 { return float64(lat[int(f*float64(len(lat)-1))].Microseconds()) }
	b.ReportMetric(q(0.50), "p50-µs")
	b.ReportMetric(q(0.99), "p99-µs")
	b.ReportMetric(q(1), "max-µs")
	b.ReportMetric(float64(len(lat))/float64(b.N), "moves/op")
}

// BenchmarkMemoryPerGame reports the heap one game costs the publisher while
// NATS is unreachable and the public copy is pending: its live and public
// state (a 60-move PGN) and its outbox index entries (60 moves and states,
// each with a delayed copy), in bytes per game.
func BenchmarkMemoryPerGame(b *testing.B) {
	const games = 200
	pgn := "[Event \"bench\"]\n\n" + strings.Repeat("1. e4 {[%clk 1:29:58]} e5 {[%clk 1:29:57]} ", 60) + "*\n"
	for range b.N {
		dir := b.TempDir()
		down := func(context.Context) (*nats.Conn, error) { return nil, fmt.Errorf("down") }
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		p, err := NewPublisher(Options{Prefix: "dgt", Dir: dir, Connect: down, PublicDelay: 15 * time.Minute})
		if err != nil {
			b.Fatal(err)
		}
		for g := 1; g <= games; g++ {
			id := game.ID{Event: "bench", Round: 1, Board: g}
			for ply := 1; ply <= 60; ply++ {
				p.PublishMove(game.MoveEvent{Game: id, Ply: ply, SAN: "e4", UCI: "e2e4", At: game.T(time.Now())})
			}
			p.PublishState(game.GameState{Game: id, Event: "bench", Round: 1, Board: g, PGN: pgn, Moves: make([]string, 120), SAN: make([]string, 120)})
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/games, "B/game")
		runtime.KeepAlive(p)
		p.Close()
	}
}

// BenchmarkPublish is the cost a tracker pays per Publish (journal append
// of the move and its delayed public copy; no fsync, NATS not involved).
func BenchmarkPublish(b *testing.B) {
	down := func(context.Context) (*nats.Conn, error) { return nil, fmt.Errorf("down") }
	p, err := NewPublisher(Options{Prefix: "dgt", Dir: b.TempDir(), Connect: down, PublicDelay: 15 * time.Minute})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	ev := game.MoveEvent{Game: game.ID{Event: "bench", Round: 1, Board: 1}, SAN: "e4", UCI: "e2e4", FEN: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
		Clock: &game.ClockPair{WhiteMS: 5400000, BlackMS: 5400000}, At: game.T(time.Now())}
	b.ReportAllocs()
	for i := range b.N {
		ev.Ply = i + 1
		if err := p.PublishMove(ev); err != nil {
			b.Fatal(err)
		}
	}
}
