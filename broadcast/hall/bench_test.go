package hall

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/nats-io/nats.go"
)

// pipeBoard serves an emulator over in-process pipes (net.Pipe) through
// the same link code a serial port goes through: ptys for 500 boards
// would hit the descriptor limit of a test machine.
type pipeBoard struct {
	e  *emu.Emulator
	wg sync.WaitGroup
}

func (p *pipeBoard) Open(ctx context.Context) (io.ReadWriteCloser, error) {
	host, dev := net.Pipe()
	p.wg.Go(func() { emu.Run(ctx, dev, p.e) })
	return host, nil
}

// timedSink records when each MoveEvent was handed to the publisher (after
// the record was persisted).
type timedSink struct {
	Sink
	mu sync.Mutex
	at map[string]time.Time
}

func (t *timedSink) PublishMove(ev broadcast.MoveEvent) error {
	t.mu.Lock()
	t.at[fmt.Sprintf("%s.%d", ev.Game, ev.Ply)] = time.Now()
	t.mu.Unlock()
	return t.Sink.PublishMove(ev)
}

func (t *timedSink) since(ev broadcast.MoveEvent, now time.Time) (time.Duration, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	at, ok := t.at[fmt.Sprintf("%s.%d", ev.Game, ev.Ply)]
	return now.Sub(at), ok
}

// benchGame: 8 plies, no captures of note; every board plays it.
var benchGame = []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6"}

// benchHall measures, for n boards each moving every interval:
//
//   - sensor-p50/p99-ms: from the sensor message that completed a move
//     (MoveEvent.At: the link's receipt of the clock press) to the
//     MoveEvent's delivery to a NATS subscriber. This includes the
//     tracker's settle window (500 ms: a placement is judged once it has
//     not changed that long, and the emulated hand presses the clock about
//     350 ms after putting the piece down), which is a property of reading
//     sensors, not of the pipeline;
//   - p50/p99-ms: from the board goroutine handing the move to the
//     publisher (the record already persisted) to delivery: outbox
//     journal, JetStream publish and acknowledgement, fan-out;
//   - heap-B/board: the daemon's heap per board once every board is
//     connected (emulators excluded).
func benchHall(b *testing.B, n int, interval time.Duration) {
	var lat, pipe []time.Duration
	var perBoard float64
	for it := 0; it < b.N; it++ {
		dir := b.TempDir()
		srv, err := broadcast.StartServer(broadcast.ServerOptions{Prefix: testPrefix, StoreDir: filepath.Join(dir, "nats")})
		if err != nil {
			b.Fatal(err)
		}
		sub, err := srv.Connect()
		if err != nil {
			b.Fatal(err)
		}
		var mu sync.Mutex
		ts := &timedSink{at: map[string]time.Time{}}
		want := n * len(benchGame)
		got := 0
		done := make(chan struct{})
		sub.Subscribe(testPrefix+".game.*.*.*.move", func(m *nats.Msg) {
			now := time.Now()
			var ev broadcast.MoveEvent
			if json.Unmarshal(m.Data, &ev) != nil {
				return
			}
			mu.Lock()
			lat = append(lat, now.Sub(ev.At.Time))
			if d, ok := ts.since(ev, now); ok {
				pipe = append(pipe, d)
			}
			got++
			if got == want {
				close(done)
			}
			mu.Unlock()
		})
		sub.Flush()

		pbs := make([]*pipeBoard, n)
		boards := make([]Board, n)
		for i := range n {
			pbs[i] = &pipeBoard{e: emu.New(emu.Options{Serial: fmt.Sprintf("%05d", i+1)}, time.Now())}
			g := broadcast.GameID{Event: "bench", Round: 1, Board: i + 1}
			boards[i] = boardFor(b, fmt.Sprintf("b%d", i+1), g, pbs[i].Open)
		}
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		p, err := broadcast.NewPublisher(broadcast.Options{Prefix: testPrefix, Dir: filepath.Join(dir, "outbox"), Connect: srv.Dialer(),
			Streams: broadcast.StreamOptions{Memory: true}})
		if err != nil {
			b.Fatal(err)
		}
		subj, _ := broadcast.NewSubjects(testPrefix)
		ts.Sink = p
		h, err := New(Options{Boards: boards, Sink: ts, DataDir: filepath.Join(dir, "data"), Subjects: subj})
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { p.Run(ctx) })
		wg.Go(func() { h.Run(ctx) })
		waitConnected(b, h)
		runtime.GC()
		runtime.ReadMemStats(&after)
		perBoard = float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(n)

		// Every board plays the game, moving every interval, the boards'
		// starts spread over one interval.
		s := scriptThink(b, interval-500*time.Millisecond, benchGame...)
		start := time.Now()
		for i, pb := range pbs {
			pb.e.Schedule(start.Add(time.Duration(i)*interval/time.Duration(n)), s)
		}
		select {
		case <-done:
		case <-time.After(s.Duration() + interval + 60*time.Second):
			mu.Lock()
			b.Errorf("%d of %d moves delivered", got, want)
			mu.Unlock()
		}
		cancel()
		wg.Wait()
		p.Close()
		for _, pb := range pbs {
			pb.wg.Wait()
		}
		sub.Close()
		srv.Shutdown()
	}
	report := func(d []time.Duration, prefix string) {
		slices.Sort(d)
		if len(d) > 0 {
			b.ReportMetric(float64(d[len(d)/2].Microseconds())/1000, prefix+"p50-ms")
			b.ReportMetric(float64(d[len(d)*99/100].Microseconds())/1000, prefix+"p99-ms")
		}
	}
	report(lat, "sensor-")
	report(pipe, "")
	b.ReportMetric(perBoard, "heap-B/board")
}

// BenchmarkLatency1Board: one board, a move every 2 s.
func BenchmarkLatency1Board(b *testing.B) { benchHall(b, 1, 2*time.Second) }

// BenchmarkLatency500Boards: 500 boards in one daemon, each moving every
// 2 s (250 moves/s), over in-process pipes. One iteration plays 8 plies
// per board: about 17 s of play plus start-up.
func BenchmarkLatency500Boards(b *testing.B) { benchHall(b, 500, 2*time.Second) }
