package hall

import (
	"context"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/broadcast/storage/storagetest"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/gamestore"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
)

// benchStorage measures the storage path alone (writer.go) for n boards,
// each making a move every 2 s (the boards' starts spread over 2 s), for
// 10 s, on the real disk (b.TempDir), with the real publisher's outbox
// (not sent: no NATS):
//
//   - handoff-p50/p99-ms: what a board waits (apply hands the change
//     over and returns);
//   - durable-p50/p99/max-ms: from the hand-off to the move handed to
//     the publisher, after its record change is durable in the journal
//     (group commit) — the "save latency";
//   - fsyncs/s: fsync and directory fsync calls of the journal, the
//     record files and the outbox, per second.
//
// Before this writer (the group saver: each board waited for its record
// file's write, fsync and rename, and a directory fsync per batch) the
// same load measured, on the same machine: 500 boards p50 1.3 ms, p99
// 11.6 ms, max 90 ms, ≈ 500 fsyncs/s; 2,000 boards p50 2.2 ms, p99 61 ms,
// max 110 ms, ≈ 1,300 fsyncs/s — all of it waited by the board's goroutine.
func benchStorage(b *testing.B, n int) {
	const interval = 2 * time.Second
	d := 10 * time.Second
	if testing.Short() {
		d = 2 * time.Second // CI's run-once smoke (-short), not the figure
	}
	dir := b.TempDir()
	fs := storagetest.New(nil)
	p, err := broadcast.NewPublisher(broadcast.Options{Prefix: testPrefix, Dir: filepath.Join(dir, "outbox"), Outbox: broadcast.OutboxOptions{FS: fs},
		Connect: func(context.Context) (*nats.Conn, error) { return nil, errNoNATS }})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	var mu sync.Mutex
	handed := map[game.ID][]time.Time{} // per game, the hand-off of each ply
	var durable []time.Duration
	j, l, err := gamestore.Open(fs, filepath.Join(dir, "games", "journal"), filepath.Join(dir, "games"))
	if err != nil {
		b.Fatal(err)
	}
	w := newWriter(writerOptions{fs: fs, gamesDir: filepath.Join(dir, "games"), sink: p, log: discardLog(), now: time.Now,
		window: DefaultCommitWindow, compactEvery: DefaultCompactEvery, compactBytes: DefaultCompactBytes, drain: 10 * time.Second,
		observer: func(ob Observation) {
			if ev, ok := ob.Payload.(game.MoveEvent); ok {
				now := time.Now()
				mu.Lock()
				durable = append(durable, now.Sub(handed[ev.Game][ev.Ply-1]))
				mu.Unlock()
			}
		}}, j, l)
	go w.run()
	start := time.Now()
	syncs0 := fs.Calls(storagetest.Sync) + fs.Calls(storagetest.SyncDir)
	var wg sync.WaitGroup
	var handoff []time.Duration
	for i := range n {
		wg.Go(func() {
			g := game.ID{Event: "bench", Round: 1, Board: i + 1}
			rec, _ := playedRecord(b, g)
			var mine []time.Duration
			next := start.Add(time.Duration(i) * interval / time.Duration(n))
			for ply := 1; ; ply++ {
				time.Sleep(time.Until(next))
				if time.Since(start) > d {
					break
				}
				at := time.Now()
				rec.Moves = append(rec.Moves, gamerecord.Ply{UCI: "e2e4", SAN: "e4", FEN: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
					EMTMS: 1000, At: at, Clock: &game.ClockPair{WhiteMS: 5400000, BlackMS: 5400000}})
				rec.UpdatedAt = at
				mu.Lock()
				handed[g] = append(handed[g], at)
				mu.Unlock()
				d := &delta{from: ply - 1, rec: *rec}
				d.rec.Moves = rec.SharedMoves()
				state := rec.State()
				w.submit(&change{game: g, delta: d, out: []game.Payload{rec.MoveEvent(ply)}, state: &state})
				mine = append(mine, time.Since(at))
				next = next.Add(interval)
			}
			mu.Lock()
			handoff = append(handoff, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	waitUntil(30*time.Second, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(durable) == len(handoff)
	})
	elapsed := time.Since(start)
	syncs := fs.Calls(storagetest.Sync) + fs.Calls(storagetest.SyncDir) - syncs0
	w.stop()
	mu.Lock()
	defer mu.Unlock()
	if len(durable) != len(handoff) {
		b.Fatalf("%d of %d moves published", len(durable), len(handoff))
	}
	pct := func(v []time.Duration, prefix string, q ...int) {
		slices.Sort(v)
		for _, p := range q {
			i := min(len(v)*p/100, len(v)-1)
			b.ReportMetric(float64(v[i].Microseconds())/1000, prefix+map[int]string{50: "p50", 99: "p99", 100: "max"}[p]+"-ms")
		}
	}
	pct(handoff, "handoff-", 50, 99)
	pct(durable, "durable-", 50, 99, 100)
	b.ReportMetric(float64(syncs)/elapsed.Seconds(), "fsyncs/s")
	b.ReportMetric(float64(len(handoff))/d.Seconds(), "moves/s")
}

// BenchmarkStorage500Boards: 500 boards, a move each every 2 s.
func BenchmarkStorage500Boards(b *testing.B) {
	for range b.N {
		benchStorage(b, 500)
	}
}

// BenchmarkStorage2000Boards: 2,000 boards, a move each every 2 s.
func BenchmarkStorage2000Boards(b *testing.B) {
	for range b.N {
		benchStorage(b, 2000)
	}
}
