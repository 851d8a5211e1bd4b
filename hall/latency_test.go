package hall

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
)

// latencyLines are the games the latency measurements play (16 plies
// each: an open game, a queen's gambit, an English, a Sicilian), with
// castling and captures.
var latencyLines = [][]string{
	{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7", "f1e1", "b7b5", "a4b3", "d7d6", "c2c3", "e8g8"},
	{"d2d4", "d7d5", "c2c4", "e7e6", "b1c3", "g8f6", "c1g5", "f8e7", "e2e3", "e8g8", "g1f3", "b8d7", "a1c1", "c7c6", "f1d3", "d5c4"},
	{"c2c4", "e7e5", "b1c3", "g8f6", "g1f3", "b8c6", "g2g3", "d7d5", "c4d5", "f6d5", "f1g2", "d5b6", "e1g1", "f8e7", "d2d3", "e8g8"},
	{"e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "a7a6", "c1e3", "e7e5", "d4b3", "c8e6", "f2f3", "f8e7"},
}

// realisticGame is one board's game for the latency figures: lawful
// realistic hands (the lever 80–300 ms after the release, often before
// the board's next scan; fast replies, slides, nudges) and a drawn scan
// (200–250 ms, its own phase), thinking think.
func realisticGame(tb testing.TB, ucis []string, seed uint64, serial string, think emu.Span) emu.Game {
	tb.Helper()
	pos := rules.Position(chess.StartPosition(chess.Standard))
	var moves []rules.Move
	for _, u := range ucis {
		m, err := pos.ParseMove(u)
		if err != nil {
			tb.Fatal(err)
		}
		moves = append(moves, m)
		pos, _ = pos.Play(m)
	}
	h := emu.DefaultHands()
	h.RookFirst, h.CastleBoth, h.CaptureBoth = 0, 0, 0
	h.Think = think
	return emu.Game{Start: chess.StartPosition(chess.Standard), Moves: moves, Hands: h, Seed: seed, Board: emu.Setup{Serial: serial}}
}

// pressLatency is, for a move delivered at at, the time from the mover's
// press and from the board reporting the move (the later of the press and
// the scan that has seen every square the move touched: before that no
// reader can know the move) to the delivery.
func pressLatency(p emu.Ply, at time.Time) (fromPress, fromReport time.Duration) {
	report := p.Settled
	if p.Press.After(report) {
		report = p.Press
	}
	return at.Sub(p.Press), at.Sub(report)
}

// BenchmarkPressToMoveEvent measures, with realistic timing (board scans
// of 200–250 ms, the lever pressed 80–300 ms after the release and often
// before the next scan), the time from a player's clock press to the
// MoveEvent delivered to a NATS subscriber of the live move subject: the
// emulated boards over in-process pipes through the daemon's link or bus
// code, the hall, the publisher (outbox journal with fsync, JetStream) and
// a real in-process nats-server.
//
//   - press-p50/p99-ms: from the press;
//   - report-p50/p99-ms: from the board reporting the move (the later of
//     the press and the scan that saw the move's last square): the goal is
//     one scan period, p99 under 500 ms.
//
// "single": one board alone on its port; "bus": four boards on one DGT
// bus line, all playing (the figure is over the four). One iteration plays
// 16 plies per board, thinking 0.5–2.5 s (2 plies thinking 0.2–0.6 s under
// -short: CI's smoke run).
func BenchmarkPressToMoveEvent(b *testing.B) {
	for _, bus := range []bool{false, true} {
		name := "single"
		if bus {
			name = "bus"
		}
		b.Run(name, func(b *testing.B) {
			var press, report []time.Duration
			for range b.N {
				p, r := latencyRun(b, bus)
				press, report = append(press, p...), append(report, r...)
			}
			reportPercentiles(b, press, "press-")
			reportPercentiles(b, report, "report-")
		})
	}
}

func reportPercentiles(b *testing.B, d []time.Duration, prefix string) {
	slices.Sort(d)
	if len(d) == 0 {
		return
	}
	b.ReportMetric(float64(d[len(d)/2].Microseconds())/1000, prefix+"p50-ms")
	b.ReportMetric(float64(d[min(len(d)-1, len(d)*99/100)].Microseconds())/1000, prefix+"p99-ms")
}

// latencyRun plays one game per board in real time and returns the
// latencies of every move delivered.
func latencyRun(b *testing.B, bus bool) (press, report []time.Duration) {
	dir := b.TempDir()
	srv, err := broadcast.StartServer(broadcast.ServerOptions{Prefix: testPrefix, StoreDir: filepath.Join(dir, "nats")})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Shutdown()
	sub, err := srv.Connect()
	if err != nil {
		b.Fatal(err)
	}
	defer sub.Close()
	plies := len(latencyLines[0])
	think := emu.Span{Min: 500 * time.Millisecond, Max: 2500 * time.Millisecond}
	if testing.Short() {
		plies, think = 2, emu.Span{Min: 200 * time.Millisecond, Max: 600 * time.Millisecond}
	}
	n := 1
	if bus {
		n = len(latencyLines)
	}
	powerUp := time.Now()
	games := make([]emu.Game, n)
	es := make([]*emu.Emulator, n)
	for i := range n {
		games[i] = realisticGame(b, latencyLines[i][:plies], uint64(i+1), fmt.Sprintf("%05d", 700+i), think)
		es[i] = emu.New(games[i].BoardSetup(), powerUp)
	}
	var boards []Board
	if bus {
		srvLine := servePipe(b, emu.NewLine(powerUp, es...))
		for i, e := range es {
			bd := boardFor(b, fmt.Sprintf("lat%d", i+1), game.ID{Event: "lat", Round: 1, Board: i + 1}, srvLine.Open)
			bd.Port, bd.BusAddress = "line1", e.Address()
			boards = append(boards, bd)
		}
	} else {
		boards = append(boards, boardFor(b, "lat1", game.ID{Event: "lat", Round: 1, Board: 1}, servePipe(b, es[0]).Open))
	}
	p, err := broadcast.NewPublisher(broadcast.Options{Prefix: testPrefix, Dir: filepath.Join(dir, "outbox"), Connect: srv.Dialer(),
		Streams: broadcast.StreamOptions{Memory: true}})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	subj, _ := broadcast.NewSubjects(testPrefix)
	h, err := New(Options{Boards: boards, Sink: p, DataDir: filepath.Join(dir, "data"), Subjects: subj})
	if err != nil {
		b.Fatal(err)
	}
	var mu sync.Mutex
	delivered := map[[2]int]time.Time{}
	done := make(chan struct{})
	sub.Subscribe(testPrefix+".game.*.*.*.move", func(m *nats.Msg) {
		now := time.Now()
		var ev game.MoveEvent
		if json.Unmarshal(m.Data, &ev) != nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		k := [2]int{ev.Game.Board, ev.Ply}
		if _, ok := delivered[k]; !ok {
			delivered[k] = now
			if len(delivered) == n*plies {
				close(done)
			}
		}
	})
	sub.Flush()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { p.Run(ctx) })
	wg.Go(func() { h.Run(ctx) })
	defer func() { cancel(); wg.Wait() }()
	waitConnected(b, h)
	time.Sleep(time.Second) // the boards' first reads
	start := time.Now()
	planned, end := scheduleGames(b, games, es, powerUp, start)
	select {
	case <-done:
	case <-time.After(end + 30*time.Second):
		mu.Lock()
		b.Errorf("%d of %d moves delivered", len(delivered), n*plies)
		mu.Unlock()
	}
	mu.Lock()
	defer mu.Unlock()
	for i, pl := range planned {
		for j, ply := range pl {
			at, ok := delivered[[2]int{i + 1, j + 1}]
			if !ok {
				continue
			}
			fp, fr := pressLatency(ply, at)
			press, report = append(press, fp), append(report, fr)
		}
	}
	return press, report
}

// scheduleGames plans each game for its board from start (the boards
// powered up at powerUp) and schedules it: the plies as planned, per
// board, and how long the longest game lasts.
func scheduleGames(tb testing.TB, games []emu.Game, es []*emu.Emulator, powerUp, start time.Time) (planned [][]emu.Ply, end time.Duration) {
	tb.Helper()
	for i, g := range games {
		s, pl, err := g.Plan(powerUp, start)
		if err != nil {
			tb.Fatal(err)
		}
		es[i].Schedule(start, s)
		planned = append(planned, pl)
		end = max(end, s.Duration())
	}
	return planned, end
}
