package hall

import (
	"fmt"
	"slices"
	"sync"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// twoHourGame returns plies legal moves from the start, drawn from seed,
// avoiding early ends (no mate, stalemate or dead position before the
// last ply; the fifty-move count kept low by preferring captures and
// pawn moves when it grows).
func twoHourGame(tb testing.TB, plies int, seed uint64) []string {
	tb.Helper()
	for s := seed; ; s += 1000 {
		if g := tryLongGame(plies, s); g != nil {
			return g
		}
	}
}

func tryLongGame(plies int, seed uint64) []string {
	pos := rules.Position(chess.StartPosition(chess.Standard))
	var out []string
	x := seed*6364136223846793005 + 1442695040888963407
	for len(out) < plies {
		legal := pos.LegalMoves(nil)
		if len(legal) == 0 || !pos.CanMate(rules.White) && !pos.CanMate(rules.Black) {
			return nil
		}
		x = x*6364136223846793005 + 1442695040888963407
		m := legal[int(x>>33)%len(legal)]
		if pos.HalfmoveClock() > 30 {
			for _, c := range legal {
				if pos.At(c.To) != rules.NoPiece {
					m = c
					break
				}
			}
		}
		next, err := pos.Play(m)
		if err != nil {
			return nil
		}
		out = append(out, pos.UCI(m))
		pos = next
	}
	if pos.Status() != rules.Ongoing {
		return nil
	}
	return out
}

// TestLagOverTwoHours ("the live lag over a 2-hour game"): a
// board alone on its port and a board on a bus line each play a game of
// 120 plies over two hours (simulated time: each player thinks 45–90 s a
// move) with realistic lawful hands. The lag of each move (from the board
// reporting it, the later of the press and the scan that saw it, to the
// hall handing the persisted MoveEvent to the publisher) must not grow:
// its median over the last 20 plies may exceed that over the first 20 by
// at most 150 ms, and no move may wait more than 3 s (the largest lags
// are reported: they depend on where a press falls in the board's scan or
// the line's poll, not on the game's length). The CPU the process spends
// per ply (the hall, the tracker, the emulated boards) is reported for
// the same stretches: simulated time hides the cost of the work, the CPU
// shows whether it grows with the game.
func TestLagOverTwoHours(t *testing.T) {
	if testing.Short() {
		t.Skip("two simulated hours: about 10 s of CPU (run without -short)")
	}
	const plies = 120
	synctest.Test(t, func(t *testing.T) {
		powerUp := time.Now()
		think := emu.Span{Min: 45 * time.Second, Max: 90 * time.Second}
		var games []emu.Game
		var es []*emu.Emulator
		for i := range 2 {
			g := realisticGame(t, twoHourGame(t, plies, uint64(i+1)), uint64(i+1), fmt.Sprintf("%05d", 800+i), think)
			games, es = append(games, g), append(es, emu.New(g.BoardSetup(), powerUp))
		}
		ids := []game.ID{{Event: "lag", Round: 1, Board: 1}, {Event: "lag", Round: 1, Board: 2}}
		single := boardFor(t, "lag1", ids[0], servePipe(t, es[0]).Open)
		other := emu.New(emu.Setup{Serial: "00899"}, powerUp)
		line := servePipe(t, emu.NewLine(powerUp, es[1], other))
		onBus := boardFor(t, "lag2", ids[1], line.Open)
		onBus.Port, onBus.BusAddress = "line1", es[1].Address()
		idle := boardFor(t, "lag3", game.ID{Event: "lag", Round: 1, Board: 3}, line.Open)
		idle.Port, idle.BusAddress = "line1", other.Address()

		var mu sync.Mutex
		handed := map[[2]int]time.Time{}
		cpu := map[[2]int]time.Duration{}
		o := Options{Boards: []Board{single, onBus, idle}, BusRediscover: time.Second}
		o.Observer = func(ob Observation) {
			if ev, ok := ob.Payload.(game.MoveEvent); ok {
				mu.Lock()
				k := [2]int{ev.Game.Board, ev.Ply}
				if _, seen := handed[k]; !seen {
					handed[k], cpu[k] = time.Now(), processCPU()
				}
				mu.Unlock()
			}
		}
		sh := startSim(t, t.TempDir(), o)
		waitConnected(t, sh.h)
		time.Sleep(5 * time.Second)
		start := time.Now()
		planned, end := scheduleGames(t, games, es, powerUp, start)
		if end < 2*time.Hour {
			t.Fatalf("the games last %v, want two hours", end)
		}
		time.Sleep(end + 30*time.Second)
		synctest.Wait()
		mu.Lock()
		defer mu.Unlock()
		for i, pl := range planned {
			var lags []time.Duration
			for j, p := range pl {
				at, ok := handed[[2]int{i + 1, j + 1}]
				if !ok {
					t.Errorf("board %d ply %d never handed to the publisher", i+1, j+1)
					continue
				}
				_, lag := pressLatency(p, at)
				lags = append(lags, lag)
			}
			if len(lags) != plies {
				continue
			}
			first, last := slices.Max(lags[:20]), slices.Max(lags[plies-20:])
			cpuFirst := (cpu[[2]int{i + 1, 20}] - cpu[[2]int{i + 1, 1}]) / 19
			cpuLast := (cpu[[2]int{i + 1, plies}] - cpu[[2]int{i + 1, plies - 19}]) / 19
			name := []string{"single board", "bus board"}[i]
			t.Logf("%s, %v of play: lag (board's report → MoveEvent handed) plies 1–20 p50 %v max %v; plies 101–120 p50 %v max %v; all max %v; process CPU per ply %v at the start, %v at the end",
				name, end.Round(time.Minute), median(lags[:20]), first, median(lags[plies-20:]), last, slices.Max(lags), cpuFirst, cpuLast)
			if m0, m1 := median(lags[:20]), median(lags[plies-20:]); m1 > m0+150*time.Millisecond || slices.Max(lags) > 3*time.Second {
				t.Errorf("%s: the lag grows (p50 %v over plies 1–20, %v over plies 101–120) or a move waited more than 3 s (%v)", name, m0, m1, slices.Max(lags))
			}
		}
	})
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// processCPU is the CPU time the test process has used (user and system):
// real time, unlike the bubble's clock.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
