package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/dgttest"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/dgt/pty"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// noisyPTY serves dev on a pseudo-terminal through two FaultyPorts on
// the board's side: random faults on the board's bytes (written there)
// and the host's commands (read there) at rate, and burst garbling the
// next n bytes the board sends.
type noisyPTY struct {
	random, bursts *dgttest.FaultyPort
	burst          atomic.Int64
}

func serveNoisyPTY(t *testing.T, dev emu.Device, seed uint64, rate float64) (*noisyPTY, string) {
	t.Helper()
	m, path, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	n := &noisyPTY{}
	n.random = dgttest.NewFaultyPort(emu.PTYPort(m), dgttest.Faults{Seed: seed, Writes: true, Corrupt: rate, Drop: rate, Duplicate: rate})
	n.bursts = dgttest.NewFaultyPort(n.random, dgttest.Faults{Seed: seed + 1, PickWrite: func(int64, byte) dgttest.Fault {
		if n.burst.Load() > 0 {
			n.burst.Add(-1)
			return dgttest.Corrupt
		}
		return dgttest.NoFault
	}})
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { emu.Run(ctx, n.bursts, dev) })
	t.Cleanup(func() { cancel(); wg.Wait() })
	return n, path
}

// injected is how many faults of kind f both ports injected.
func (n *noisyPTY) injected(f dgttest.Fault) int { return n.random.Injected(f) + n.bursts.Injected(f) }

// TestRunNoisyLines is the real-time variant of hall's
// TestNoisyLinesEndToEnd: dgtbridge run (embedded NATS) reads a board
// alone on its pseudo-terminal and a bus line of three boards on another,
// both opened through the daemon's serial code (9600 baud), through lines
// that flip, drop and duplicate bytes both ways, with a burst of 64
// garbled bytes from each line mid-game. Realistic lawful hands play a
// game on every board. Every move reaches the GAMES stream exactly once,
// in order, with a clock time, and the arbiter gets no crit or warn alert.
func TestRunNoisyLines(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: the daemon with noisy pty boards in real time")
	}
	const rate = 1.0 / 10000
	dir := t.TempDir()
	powerUp := time.Now()
	hands := emu.DefaultHands()
	hands.RookFirst, hands.CastleBoth, hands.CaptureBoth = 0, 0, 0
	hands.Think = emu.Span{Min: 400 * time.Millisecond, Max: 1500 * time.Millisecond}
	type board struct {
		g     emu.Game
		e     *emu.Emulator
		ucis  []string
		round int
	}
	lines := [][]string{
		{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7", "f1e1", "b7b5", "a4b3", "d7d6", "c2c3", "e8g8"},
		{"d2d4", "d7d5", "c2c4", "e7e6", "b1c3", "g8f6", "c1g5", "f8e7", "e2e3", "e8g8", "g1f3", "b8d7", "a1c1", "c7c6", "f1d3", "d5c4"},
		{"c2c4", "e7e5", "b1c3", "g8f6", "g1f3", "b8c6", "g2g3", "d7d5", "c4d5", "f6d5", "f1g2", "d5b6", "e1g1", "f8e7", "d2d3", "e8g8"},
		{"e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "a7a6", "c1e3", "e7e5", "d4b3", "c8e6", "f2f3", "f8e7"},
	}
	var boards []*board
	for i, l := range lines {
		pos := rules.Position(chess.StartPosition(chess.Standard))
		var moves []rules.Move
		for _, u := range l {
			m, err := pos.ParseMove(u)
			if err != nil {
				t.Fatal(err)
			}
			moves = append(moves, m)
			pos, _ = pos.Play(m)
		}
		g := emu.Game{Start: chess.StartPosition(chess.Standard), Moves: moves, Hands: hands, Seed: uint64(40 + i),
			Board: emu.Setup{Serial: fmt.Sprintf("%05d", 4101+i)}}
		boards = append(boards, &board{g: g, e: emu.New(g.BoardSetup(), powerUp), ucis: l, round: 1})
	}
	single, singlePath := serveNoisyPTY(t, boards[0].e, 1, rate)
	bus, busPath := serveNoisyPTY(t, emu.NewLine(powerUp, boards[1].e, boards[2].e, boards[3].e), 2, rate)

	natsAddr, httpAddr := freePort(t), freePort(t)
	cfg := filepath.Join(dir, "dgtbridge.yaml")
	var conf strings.Builder
	fmt.Fprintf(&conf, `data_dir: %s
record: false
nats: {prefix: dgt, embedded: {listen: %q}}
http: {listen: %q}
event: {id: noise, ruleset: fide2018-standard, time_control: "5400+30", public_delay: 0s}
boards:
  - {port: %s, round: 1, board: 1, white: "W1", black: "B1"}
`, filepath.Join(dir, "data"), natsAddr, httpAddr, singlePath)
	for i, b := range boards[1:] {
		fmt.Fprintf(&conf, "  - {port: %s, bus_address: %d, round: 1, board: %d, white: \"W%d\", black: \"B%d\"}\n",
			busPath, b.e.Address(), i+2, i+2, i+2)
	}
	if err := os.WriteFile(cfg, []byte(conf.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var logs syncBuffer
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"run", "--config", cfg}, io.Discard, &logs) }()
	defer func() {
		cancel()
		<-done
		if t.Failed() {
			t.Logf("log:\n%s", logs.String())
		}
	}()
	url := "nats://" + natsAddr
	var nc *nats.Conn
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		var err error
		if nc, err = nats.Connect(url); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("NATS: %v", err)
		}
	}
	defer nc.Close()
	alerts := make(chan *nats.Msg, 256)
	if _, err := nc.ChanSubscribe("dgt.arbiter.*.*.*.alert", alerts); err != nil {
		t.Fatal(err)
	}
	nc.Flush()
	// Every board reports its position before the hands start.
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		if strings.Count(logs.String(), "board connected") >= len(boards) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the boards did not connect")
		}
	}
	time.Sleep(2 * time.Second)
	var end time.Duration
	for _, b := range boards {
		now := time.Now()
		script, _, err := b.g.Plan(powerUp, now)
		if err != nil {
			t.Fatal(err)
		}
		b.e.Schedule(now, script)
		end = max(end, script.Duration())
	}
	time.Sleep(end / 2)
	single.burst.Store(64)
	bus.burst.Store(64)
	for i, b := range boards {
		g := fmt.Sprintf("noise.1.%d", i+1)
		evs := streamMoves(t, url, "dgt.game."+g+".move", len(b.ucis), end+60*time.Second)
		var got []string
		for _, ev := range evs {
			got = append(got, fmt.Sprintf("%d:%s", ev.Ply, ev.UCI))
			if ev.Clock == nil {
				t.Errorf("game %s ply %d: no clock time", g, ev.Ply)
			}
		}
		var want []string
		for j, u := range b.ucis {
			want = append(want, fmt.Sprintf("%d:%s", j+1, u))
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("game %s on the stream\n got %v\nwant %v", g, got, want)
		}
	}
	time.Sleep(2 * time.Second)
	for n := len(alerts); n > 0; n-- {
		var a game.Alert
		m := <-alerts
		if err := json.Unmarshal(m.Data, &a); err != nil {
			t.Errorf("alert %s: %v", m.Data, err)
			continue
		}
		if a.Severity != game.Info {
			t.Errorf("alert %s ply %d %s/%s: %s", a.Game, a.Ply, a.Kind, a.Severity, a.Message)
		}
	}
	var injected [4]int
	for _, p := range []*noisyPTY{single, bus} {
		for _, f := range []dgttest.Fault{dgttest.Corrupt, dgttest.Drop, dgttest.Duplicate} {
			injected[f] += p.injected(f)
		}
	}
	t.Logf("bytes flipped %d, dropped %d, duplicated %d (both directions, bursts included)",
		injected[dgttest.Corrupt], injected[dgttest.Drop], injected[dgttest.Duplicate])
}

// streamMoves reads the MoveEvents on subject from the GAMES stream until
// want arrived (or timeout), then a little more so that duplicates show.
func streamMoves(t *testing.T, url, subject string, want int, timeout time.Duration) []game.MoveEvent {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	var got []game.MoveEvent
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
		got = got[:0]
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		cons, err := js.OrderedConsumer(ctx, "DGT_GAMES", jetstream.OrderedConsumerConfig{FilterSubjects: []string{subject}})
		if err == nil {
			for {
				m, err := cons.Next(jetstream.FetchMaxWait(300 * time.Millisecond))
				if err != nil {
					break
				}
				var ev game.MoveEvent
				if err := json.Unmarshal(m.Data(), &ev); err != nil {
					t.Errorf("payload %s: %v", m.Data(), err)
				}
				got = append(got, ev)
			}
		}
		cancel()
		if len(got) >= want {
			break
		}
	}
	return got
}
