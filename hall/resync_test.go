package hall

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/dgttest"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// burstOnly returns open with every connection's board side garbled only
// by the bursts (n.burst): one bit flipped in each of the next n bytes the
// board sends.
func (n *noisyPorts) burstOnly(open func(context.Context) (io.ReadWriteCloser, error)) func(context.Context) (io.ReadWriteCloser, error) {
	return func(ctx context.Context) (io.ReadWriteCloser, error) {
		rwc, err := open(ctx)
		if err != nil {
			return nil, err
		}
		p := dgttest.NewFaultyPort(rwc, dgttest.Faults{Seed: n.seed, Pick: func(int64, byte) dgttest.Fault {
			if n.burst.Load() > 0 {
				n.burst.Add(-1)
				return dgttest.Corrupt
			}
			return dgttest.NoFault
		}})
		n.mu.Lock()
		n.ports = append(n.ports, p)
		n.mu.Unlock()
		return p, nil
	}
}

// countingHandler counts the log records whose message is msg.
type countingHandler struct {
	msg string
	mu  sync.Mutex
	n   int
}

func (h *countingHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *countingHandler) Handle(_ context.Context, r slog.Record) error {
	if r.Message == h.msg {
		h.mu.Lock()
		h.n++
		h.mu.Unlock()
	}
	return nil
}
func (h *countingHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *countingHandler) WithGroup(string) slog.Handler      { return h }

func (h *countingHandler) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.n
}

// TestBusResyncMidMove: a bus line of three boards
// (the games and hands of cmd/dgtbridge's TestRunNoisyLines) gets a burst
// of 64 garbled bytes at moments when it lands on the answers of a board
// whose player is in the middle of a move: the line gives the board's
// changes up and re-reads its log and position with a piece in the hand
// (the bishop lifted for Bg5, ...). Every game is journalled
// exactly, each move once with its clock time, and the arbiter gets no
// crit or warn alert. On main before the fix the log read mid-move made
// the recovery incomplete and the position read a catch-up: the piece in
// the hand was read as four plies made and taken back (ambiguous_move,
// moves never played, corrections, false clock_without_move). At 13.6 s
// and 13.8 s the log holds a castling whose press the garbled answer lost,
// then the knight lifted for Nf3: the castling is recovered with its clock
// time and the record rebuilt, and the rebuilt tracker must keep what the
// old one knew of the clock (Tracker.CarryClock; without it every later
// move of that game went out without a clock time).
func TestBusResyncMidMove(t *testing.T) {
	lines := [][]string{
		{"d2d4", "d7d5", "c2c4", "e7e6", "b1c3", "g8f6", "c1g5", "f8e7", "e2e3", "e8g8", "g1f3", "b8d7", "a1c1", "c7c6", "f1d3", "d5c4"},
		{"c2c4", "e7e5", "b1c3", "g8f6", "g1f3", "b8c6", "g2g3", "d7d5", "c4d5", "f6d5", "f1g2", "d5b6", "e1g1", "f8e7", "d2d3", "e8g8"},
		{"e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "a7a6", "c1e3", "e7e5", "d4b3", "c8e6", "f2f3", "f8e7"},
	}
	// The burst's moment after the hands start: each lands on a board's
	// answers in the middle of a move (found by sweeping every 50 ms).
	offsets := []time.Duration{8100 * time.Millisecond, 8300 * time.Millisecond, 13600 * time.Millisecond,
		13800 * time.Millisecond, 20100 * time.Millisecond, 20200 * time.Millisecond}
	for _, off := range offsets {
		t.Run(fmt.Sprint(off), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				powerUp := time.Now()
				var games []*noisyGame
				var es []*emu.Emulator
				for i, l := range lines {
					ng := newNoisyGame(t, game.ID{Event: "resync", Round: 1, Board: i + 2}, l, fmt.Sprintf("%05d", 4102+i), uint64(41+i), powerUp)
					// The hands think 0.4-1.5 s (the hands do not change
					// the board's set-up).
					ng.g.Hands.Think = emu.Span{Min: 400 * time.Millisecond, Max: 1500 * time.Millisecond}
					games = append(games, ng)
					es = append(es, ng.e)
				}
				bus := newNoisyPorts(1)
				open := bus.burstOnly(servePipe(t, emu.NewLine(powerUp, es...)).Open)
				var boards []Board
				for i, g := range games {
					b := boardFor(t, fmt.Sprintf("r-b%d", i+2), g.id, open)
					b.Port, b.BusAddress = "line1", g.e.Address()
					boards = append(boards, b)
				}
				resyncs := &countingHandler{msg: "dgt bus: changes may have been lost, reading log and position"}
				sh := startSim(t, t.TempDir(), Options{Boards: boards, Logger: slog.New(resyncs)})
				waitConnected(t, sh.h)
				time.Sleep(2 * time.Second)
				var end time.Duration
				for _, g := range games {
					end = max(end, g.play(t, powerUp, time.Now()))
				}
				time.Sleep(off)
				bus.burst.Store(64)
				time.Sleep(end - off + 30*time.Second)
				synctest.Wait()
				if resyncs.count() == 0 {
					t.Fatal("the burst made the line resynchronise no board: the test no longer tests it")
				}
				noFalseAlerts(t, sh, games)
				for _, g := range games {
					g.check(t, sh.journalled(g.id))
				}
				if n := bus.injected(dgttest.Corrupt); n != 64 {
					t.Errorf("%d bytes garbled, want the burst's 64", n)
				}
			})
		})
	}
}
