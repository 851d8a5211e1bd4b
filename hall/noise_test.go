package hall

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/dgttest"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// noiseRate is the probability, per byte and per fault kind (a bit
// flipped, the byte lost, the byte doubled), of the noisy lines of the
// corruption tests, in both directions: one byte in 3,300 damaged, a
// damaged message every minute or two per board and one 8 KB EEPROM dump
// in ten intact. A healthy USB cable loses nothing; this is a long bus
// line with a bad crimp or an adapter next to a motor. On top of it each
// line gets a burst of 64 garbled bytes mid-game.
const noiseRate = 1.0 / 10000

// noisyPorts wraps every connection an opener makes in a FaultyPort with
// the same faults, and sums what they injected. Burst garbles the next n
// bytes the board sends (one bit flipped in each): a cable moved, a
// motor started next to the line.
type noisyPorts struct {
	burst atomic.Int64
	mu    sync.Mutex
	ports []*dgttest.FaultyPort
	seed  uint64
}

func newNoisyPorts(seed uint64) *noisyPorts {
	return &noisyPorts{seed: seed}
}

// wrap returns open with every connection garbled.
func (n *noisyPorts) wrap(open func(context.Context) (io.ReadWriteCloser, error)) func(context.Context) (io.ReadWriteCloser, error) {
	return func(ctx context.Context) (io.ReadWriteCloser, error) {
		rwc, err := open(ctx)
		if err != nil {
			return nil, err
		}
		n.mu.Lock()
		defer n.mu.Unlock()
		seed := n.seed + uint64(len(n.ports))*1000
		r := rand.New(rand.NewPCG(seed, 77)) // drawn under the port's lock
		f := dgttest.Faults{Seed: seed, Writes: true, Corrupt: noiseRate, Drop: noiseRate, Duplicate: noiseRate,
			Pick: func(int64, byte) dgttest.Fault {
				if n.burst.Load() > 0 {
					n.burst.Add(-1)
					return dgttest.Corrupt
				}
				switch u := r.Float64(); {
				case u < noiseRate:
					return dgttest.Corrupt
				case u < 2*noiseRate:
					return dgttest.Drop
				case u < 3*noiseRate:
					return dgttest.Duplicate
				}
				return dgttest.NoFault
			}}
		p := dgttest.NewFaultyPort(rwc, f)
		n.ports = append(n.ports, p)
		return p, nil
	}
}

// injected sums the faults of kind f over every connection.
func (n *noisyPorts) injected(f dgttest.Fault) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	s := 0
	for _, p := range n.ports {
		s += p.Injected(f)
	}
	return s
}

// noisyGame is one board's game in a corruption test: the moves, the
// realistic hands' plan, and the emulated board.
type noisyGame struct {
	id    game.ID
	e     *emu.Emulator
	g     emu.Game
	ucis  []string
	plies []emu.Ply
	// clocks are the mover's time on the emulated clock right after each
	// press, read from the clock itself (the oracle of the record's clock
	// times).
	mu     sync.Mutex
	clocks []time.Duration
}

// noisyGames returns n games of up to plies plies for the boards: the
// real games of the captures first, then random legal games.
func noisyGames(t testing.TB, n, plies int, seed uint64) [][]string {
	var out [][]string
	for _, name := range []string{dgttest.Game1, dgttest.Game2, dgttest.GameJohan} {
		if len(out) == n {
			return out
		}
		m := dgttest.Moves(t, name)
		out = append(out, m[:min(plies, len(m))])
	}
	r := rand.New(rand.NewPCG(seed, 5))
	for len(out) < n {
		pos := rules.Position(chess.StartPosition(chess.Standard))
		var g []string
		for len(g) < plies {
			legal := pos.LegalMoves(nil)
			if len(legal) == 0 || pos.HalfmoveClock() > 60 || !pos.CanMate(rules.White) && !pos.CanMate(rules.Black) {
				break
			}
			m := legal[r.IntN(len(legal))]
			g = append(g, pos.UCI(m))
			pos, _ = pos.Play(m)
		}
		out = append(out, g)
	}
	return out
}

// newNoisyGame makes the emulated board of one game, lawful realistic
// hands (decision 1: no rule-breaking habits) and a drawn scan.
func newNoisyGame(t testing.TB, id game.ID, ucis []string, serial string, seed uint64, powerUp time.Time) *noisyGame {
	t.Helper()
	pos := rules.Position(chess.StartPosition(chess.Standard))
	start := pos
	var moves []rules.Move
	for _, u := range ucis {
		m, err := pos.ParseMove(u)
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, m)
		pos, _ = pos.Play(m)
	}
	h := emu.DefaultHands()
	h.RookFirst, h.CastleBoth, h.CaptureBoth = 0, 0, 0
	g := emu.Game{Start: start, Moves: moves, Hands: h, Seed: seed, Board: emu.Setup{Serial: serial}}
	return &noisyGame{id: id, e: emu.New(g.BoardSetup(), powerUp), g: g, ucis: ucis}
}

// play schedules the game's hands at now (the board powered up at powerUp)
// and notes, as each press happens, the mover's time on the clock.
func (ng *noisyGame) play(t testing.TB, powerUp, now time.Time) time.Duration {
	t.Helper()
	script, plies, err := ng.g.Plan(powerUp, now)
	if err != nil {
		t.Fatal(err)
	}
	ng.plies = plies
	ng.e.Schedule(now, script)
	go func() {
		for i, p := range plies {
			time.Sleep(time.Until(p.Press.Add(time.Millisecond)))
			c := ng.e.Clock(time.Now())
			d := c.Left // White on the left
			if i%2 == 1 {
				d = c.Right
			}
			ng.mu.Lock()
			ng.clocks = append(ng.clocks, d)
			ng.mu.Unlock()
		}
	}()
	return script.Duration()
}

// check compares the moves journalled for NATS with the game: every ply
// once, in order, with the mover's clock time within the clock's one
// second resolution.
func (ng *noisyGame) check(t testing.TB, evs []game.MoveEvent) {
	t.Helper()
	var got, want []string
	for _, ev := range evs {
		got = append(got, fmt.Sprintf("%d:%s", ev.Ply, ev.UCI))
	}
	for i, u := range ng.ucis {
		want = append(want, fmt.Sprintf("%d:%s", i+1, u))
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("game %s: published\n got %v\nwant %v", ng.id, got, want)
		return
	}
	ng.mu.Lock()
	defer ng.mu.Unlock()
	for i, ev := range evs {
		if i >= len(ng.clocks) {
			break
		}
		if ev.Clock == nil {
			t.Errorf("game %s ply %d: no clock time", ng.id, i+1)
			continue
		}
		ms := ev.Clock.WhiteMS
		if i%2 == 1 {
			ms = ev.Clock.BlackMS
		}
		if d := time.Duration(ms)*time.Millisecond - ng.clocks[i]; d < -time.Second || d > time.Second {
			t.Errorf("game %s ply %d: clock %v, the clock showed %v", ng.id, i+1, time.Duration(ms)*time.Millisecond, ng.clocks[i])
		}
	}
}

// noFalseAlerts fails t for each alert falseAlerts finds on games, each
// game played to its last ply.
func noFalseAlerts(t *testing.T, sh *simHall, games []*noisyGame) {
	t.Helper()
	last := map[game.ID]int{}
	for _, g := range games {
		last[g.id] = len(g.ucis)
	}
	for _, a := range falseAlerts(sh.observed(), last) {
		t.Errorf("alert %s", a)
	}
}

// falseAlerts returns the crit and warn alerts among the payloads
// observed: on these clean games every one is false (a game's real end,
// checkmate or stalemate at its last ply, excepted).
func falseAlerts(obs []Observation, last map[game.ID]int) []string {
	var out []string
	for _, ob := range obs {
		a, ok := ob.Payload.(game.Alert)
		if !ok || a.Severity == game.Info {
			continue
		}
		switch a.Kind {
		case game.KindCheckmate, game.KindStalemate, game.KindDeadPosition:
			if a.Ply == last[a.Game] {
				continue
			}
		}
		out = append(out, fmt.Sprintf("%s ply %d at %s %s/%s: %s", a.Game, a.Ply, a.At.Time.Format("15:04:05.000"), a.Kind, a.Severity, a.Message))
	}
	return out
}

// TestNoisyLinesEndToEnd: a board alone on its
// port and a bus line of four boards, each playing a game with realistic
// lawful hands (the lever often before the scan), through lines that flip,
// drop and duplicate bytes both ways at noiseRate, with a burst of 64
// garbled bytes mid-game on each line, in simulated time through the
// daemon's link, bus, tracker and hall: every move is journalled for NATS
// exactly once, in order, with the clock time the clock showed, and no
// crit or warn alert is raised.
func TestNoisyLinesEndToEnd(t *testing.T) {
	dgttest.Dir(t) // the games are the real captures: stop here without them, not inside a bubble
	plies := 60
	seeds := []uint64{1, 2, 3}
	if testing.Short() {
		plies, seeds = 40, seeds[:1]
	}
	var flipped, dropped, doubled, published, expected int
	for _, seed := range seeds {
		synctest.Test(t, func(t *testing.T) {
			powerUp := time.Now()
			lines := noisyGames(t, 5, plies, seed)
			var games []*noisyGame
			for i, l := range lines {
				id := game.ID{Event: "noise", Round: int(seed), Board: i + 1}
				games = append(games, newNoisyGame(t, id, l, fmt.Sprintf("%05d", 400+i), seed*10+uint64(i), powerUp))
			}
			single, bus := newNoisyPorts(seed), newNoisyPorts(seed+100)
			boards := []Board{boardFor(t, "n-b1", games[0].id, single.wrap(servePipe(t, games[0].e).Open))}
			var es []*emu.Emulator
			for _, g := range games[1:] {
				es = append(es, g.e)
			}
			busOpen := bus.wrap(servePipe(t, emu.NewLine(powerUp, es...)).Open)
			for i, g := range games[1:] {
				b := boardFor(t, fmt.Sprintf("n-b%d", i+2), g.id, busOpen)
				b.Port, b.BusAddress = "line1", g.e.Address()
				boards = append(boards, b)
			}
			sh := startSim(t, t.TempDir(), Options{Boards: boards, BusRediscover: time.Second})
			waitConnected(t, sh.h)
			time.Sleep(5 * time.Second)
			var end time.Duration
			for _, g := range games {
				end = max(end, g.play(t, powerUp, time.Now()))
			}
			time.Sleep(end / 2)
			single.burst.Store(64)
			bus.burst.Store(64)
			time.Sleep(end/2 + 30*time.Second)
			synctest.Wait()
			noFalseAlerts(t, sh, games)
			for _, g := range games {
				evs := sh.journalled(g.id)
				g.check(t, evs)
				published += len(evs)
				expected += len(g.ucis)
			}
			for _, n := range []*noisyPorts{single, bus} {
				flipped += n.injected(dgttest.Corrupt)
				dropped += n.injected(dgttest.Drop)
				doubled += n.injected(dgttest.Duplicate)
			}
		})
	}
	t.Logf("bytes flipped %d, dropped %d, duplicated %d (both directions, bursts included); moves published %d of %d",
		flipped, dropped, doubled, published, expected)
	if flipped+dropped+doubled < 100 {
		t.Errorf("only %d faults injected: the test proves nothing", flipped+dropped+doubled)
	}
}
