package bus_test

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/bus"
	"github.com/dgtbridge/dgtbridge/dgt/dgttest"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/port"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
)

// seen collects, per board, every position a consumer of the bus events
// can see: after each Position, each piece record of Changes, each step
// of a Log's replay.
type seen struct {
	mu     sync.Mutex
	mirror map[uint16]*[dgt.NumFields]dgt.PieceCode
	states map[uint16]map[[dgt.NumFields]dgt.PieceCode]bool
	logs   int
}

func (s *seen) apply(ev bus.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	add := func(a uint16, f [dgt.NumFields]dgt.PieceCode) {
		if s.states[a] == nil {
			s.states[a] = map[[dgt.NumFields]dgt.PieceCode]bool{}
		}
		s.states[a][f] = true
	}
	mirror := func(a uint16) *[dgt.NumFields]dgt.PieceCode {
		if s.mirror[a] == nil {
			s.mirror[a] = new([dgt.NumFields]dgt.PieceCode)
		}
		return s.mirror[a]
	}
	switch ev := ev.(type) {
	case bus.Position:
		m := mirror(ev.Address)
		*m = ev.Board.Fields
		add(ev.Address, *m)
	case bus.Changes:
		m := mirror(ev.Address)
		for _, r := range ev.Records {
			if r.Kind == dgt.EEPiece {
				m[r.Field] = r.Piece
				add(ev.Address, *m)
			}
		}
	case bus.Log:
		s.logs++
		var b [dgt.NumFields]dgt.PieceCode
		for _, r := range ev.Log.Entries {
			switch r.Kind {
			case dgt.EEPowerUp, dgt.EEStartTag:
				b = [dgt.NumFields]dgt.PieceCode{}
			case dgt.EEPiece:
				b[r.Field] = r.Piece
				add(ev.Address, b)
			}
		}
	}
}

// TestEveryMoveArrivesThroughANoisyBusLine: eight boards on one bus line,
// each playing a game with realistic hands, over a line that corrupts,
// drops and duplicates bytes both ways: every position of every game shows
// in the bus's events, and each board's mirror ends on its final position.
func TestEveryMoveArrivesThroughANoisyBusLine(t *testing.T) {
	total := 0
	for seed := uint64(1); seed <= 4; seed++ {
		synctest.Test(t, func(t *testing.T) {
			powerUp := time.Now()
			type game struct {
				e         *emu.Emulator
				g         emu.Game
				positions []rules.Position
			}
			var games []game
			var es []*emu.Emulator
			var addrs []uint16
			r := rand.New(rand.NewPCG(seed, 9))
			for i := 0; i < 8; i++ {
				start := chess.StartPosition(chess.Standard)
				pos := rules.Position(start)
				var moves []rules.Move
				positions := []rules.Position{pos}
				for len(moves) < 30 {
					legal := pos.LegalMoves(nil)
					if len(legal) == 0 {
						break
					}
					m := legal[r.IntN(len(legal))]
					pos, _ = pos.Play(m)
					moves, positions = append(moves, m), append(positions, pos)
				}
				h := emu.DefaultHands()
				h.Think = emu.Span{Min: 500 * time.Millisecond, Max: 3 * time.Second}
				g := emu.Game{Start: start, Moves: moves, Seed: seed*100 + uint64(i), Hands: h,
					Board: emu.Setup{Serial: fmt.Sprintf("%05d", 3001+i)}}
				e := emu.New(g.BoardSetup(), powerUp)
				games = append(games, game{e, g, positions})
				es = append(es, e)
				addrs = append(addrs, e.Address())
			}
			line := emu.NewLine(powerUp, es...)
			var port *dgttest.FaultyPort
			var srv sync.WaitGroup
			srvCtx, stopSrv := context.WithCancel(context.Background())
			open := func(ctx context.Context) (io.ReadWriteCloser, error) {
				host, dev := net.Pipe()
				srv.Go(func() { emu.Run(srvCtx, dev, line) })
				port = dgttest.NewFaultyPort(host, dgttest.Faults{Seed: seed, Corrupt: 1.0 / 1500, Drop: 1.0 / 1500, Duplicate: 1.0 / 1500, Writes: true})
				return port, nil
			}
			b := bus.New(open, bus.Settings{Addresses: addrs, NoBroadcast: true, Rediscover: 5 * time.Second})
			ctx, cancel := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			wg.Go(func() { b.Run(ctx) })
			s := &seen{mirror: map[uint16]*[dgt.NumFields]dgt.PieceCode{}, states: map[uint16]map[[dgt.NumFields]dgt.PieceCode]bool{}}
			wg.Go(func() {
				for ev := range b.Events() {
					s.apply(ev)
				}
			})
			time.Sleep(10 * time.Second)
			end := time.Duration(0)
			for _, gm := range games {
				now := time.Now()
				script, _, err := gm.g.Plan(powerUp, now)
				if err != nil {
					t.Fatal(err)
				}
				gm.e.Schedule(now, script)
				end = max(end, script.Duration())
			}
			time.Sleep(end + 30*time.Second)
			synctest.Wait()
			cancel()
			wg.Wait()
			stopSrv()
			srv.Wait()
			faults := port.Injected(dgttest.Corrupt) + port.Injected(dgttest.Drop) + port.Injected(dgttest.Duplicate)
			total += faults
			s.mu.Lock()
			defer s.mu.Unlock()
			t.Logf("seed %d: %d faults injected, %d logs read", seed, faults, s.logs)
			for _, gm := range games {
				a := gm.e.Address()
				for i, p := range gm.positions {
					pl := p.Placement()
					d, _ := dgt.DumpOf(&pl, dgt.Normal)
					if !s.states[a][d.Fields] {
						t.Errorf("seed %d board %d: the position after ply %d never showed in the bus events", seed, a, i)
					}
				}
				fin := gm.positions[len(gm.positions)-1].Placement()
				d, _ := dgt.DumpOf(&fin, dgt.Normal)
				if m := s.mirror[a]; m == nil || *m != d.Fields {
					t.Errorf("seed %d board %d: the mirror ends wrong", seed, a)
				}
			}
		})
	}
	if total < 100 {
		t.Fatalf("only %d faults injected", total)
	}
}

// lineWith serves emulators on a line through a FaultyPort with faults f;
// it returns the opener and a stop function.
func lineWith(line *emu.Line, f dgttest.Faults) (port.Opener, func()) {
	var srv sync.WaitGroup
	ctx, stop := context.WithCancel(context.Background())
	return func(context.Context) (io.ReadWriteCloser, error) {
			host, dev := net.Pipe()
			srv.Go(func() { emu.Run(ctx, dev, line) })
			return dgttest.NewFaultyPort(host, f), nil
		}, func() {
			stop()
			srv.Wait()
		}
}

// TestLostCommandIsNotMistakenForALostReply: a SEND_CHANGES that never
// reaches the board (its command byte lost on the way) times out like a
// lost reply; REPEAT_CHANGES then returns the packet already taken, which
// must not be reported again (its clock record would count twice): the bus
// asks anew and every clock record is reported once.
func TestLostCommandIsNotMistakenForALostReply(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := emu.New(emu.Setup{Serial: "04001"}, time.Now())
		line := emu.NewLine(time.Now(), e)
		var mu sync.Mutex
		arm, dropped, clocks := 0, 0, 0
		open, stop := lineWith(line, dgttest.Faults{PickWrite: func(_ int64, b byte) dgttest.Fault {
			mu.Lock()
			defer mu.Unlock()
			if arm > 0 && b == byte(dgt.BusCmdSendChanges) {
				arm--
				dropped++
				return dgttest.Drop
			}
			return dgttest.NoFault
		}})
		defer stop()
		b := bus.New(open, bus.Settings{Addresses: []uint16{4001}, NoBroadcast: true})
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { b.Run(ctx) })
		wg.Go(func() {
			for ev := range b.Events() {
				if c, ok := ev.(bus.Changes); ok {
					for _, r := range c.Records {
						if r.Kind == dgt.EEClock {
							mu.Lock()
							clocks++
							arm = 1 // the next poll's command is lost
							mu.Unlock()
						}
					}
				}
			}
		})
		time.Sleep(3 * time.Second)
		e.Schedule(time.Now(), knightDance(4)) // 3 presses halt a clock
		time.Sleep(10 * time.Second)
		synctest.Wait()
		cancel()
		wg.Wait()
		mu.Lock()
		defer mu.Unlock()
		if dropped < 3 || clocks != 3 {
			t.Fatalf("%d clock records reported with %d SEND_CHANGES lost, want 3 (none repeated)", clocks, dropped)
		}
	})
}

// TestGarbledChangesResynchronise: when every try to read a board's
// changes comes back garbled, the board is not given up: its log and
// position are read at the next poll, and nothing is lost.
func TestGarbledChangesResynchronise(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := emu.New(emu.Setup{Serial: "04002"}, time.Now())
		line := emu.NewLine(time.Now(), e)
		open, stop := lineWith(line, dgttest.Faults{})
		defer stop()
		b := bus.New(open, bus.Settings{Addresses: []uint16{4002}, NoBroadcast: true, Cycle: time.Second})
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { b.Run(ctx) })
		s := newState()
		wg.Go(func() {
			for ev := range b.Events() {
				s.apply(ev)
			}
		})
		// The board is polled every second from its first read, 0.04 s
		// after the start: the lift (scanned within 0.25 s) is polled at
		// 4.04 s, the rest at the next poll, 5.04 s.
		time.Sleep(3700 * time.Millisecond)
		e.Schedule(time.Now(), knightDance(1))
		time.Sleep(600 * time.Millisecond)
		line.Corrupt(4) // the next poll: SEND_CHANGES and its three REPEAT_CHANGES
		time.Sleep(5 * time.Second)
		synctest.Wait()
		s.mu.Lock()
		kinds := s.kinds[4002] // before the line goes down with cancel
		s.mu.Unlock()
		cancel()
		wg.Wait()
		// The move's lift is polled before the noise, its placement is in
		// the garbled packet: it comes back with the log.
		if want := "[BoardFound Log Position Changes Log Position]"; fmt.Sprint(kinds) != want {
			t.Fatalf("events %v, want %s (no BoardLost: log and position read again)", kinds, want)
		}
		if got, want := s.placement(4002), e.Placement(); got != want {
			t.Fatalf("mirror %s, board %s", got.String(), want.String())
		}
	})
}

// starvedPort holds the first read after each command for longer than
// the reply time-out before it reads: the line's goroutine not run (a
// starved process) while the board's reply arrives in time.
type starvedPort struct {
	net.Conn
	hold    time.Duration
	written bool
}

func (p *starvedPort) Write(b []byte) (int, error) {
	p.written = true
	return p.Conn.Write(b)
}

func (p *starvedPort) Read(b []byte) (int, error) {
	if p.written {
		p.written = false
		time.Sleep(p.hold)
	}
	return p.Conn.Read(b)
}

// TestStarvedLineReadsRepliesInTime: a line whose goroutine does not run
// until after each reply's deadline (150 ms, the time-out 100 ms) still
// takes the replies that came in time: every board is found, none is
// lost, and the clocks are read. (Before, a read whose deadline had passed failed at once
// without looking at the reply the kernel held: every exchange timed out
// and was retried, and no board was ever found.)
func TestStarvedLineReadsRepliesInTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHall(4)
		addrs := runningClocks(h)
		starved := func(ctx context.Context) (io.ReadWriteCloser, error) {
			c, err := h.open(ctx)
			if err != nil {
				return nil, err
			}
			return &starvedPort{Conn: c.(net.Conn), hold: 150 * time.Millisecond}, nil
		}
		b, cancel, wg := runLine(starved, addrs)
		s := newState()
		wg.Go(func() {
			for ev := range b.Events() {
				s.apply(ev)
			}
		})
		time.Sleep(30 * time.Second)
		synctest.Wait()
		st := b.Stats()
		s.mu.Lock()
		lost, clocks, found := 0, 0, len(s.found) // before the line goes down with cancel
		for _, a := range addrs {
			lost, clocks = lost+s.lost[a], clocks+s.nClock[a]
		}
		s.mu.Unlock()
		cancel()
		wg.Wait()
		h.close()
		t.Logf("%d boards found, %d lost; %d cycles, %d clock reads; %d clock readings reported", found, lost, st.Cycles, st.ClockReads, clocks)
		if found != 4 || lost > 0 || st.Cycles < 20 || clocks < 30 {
			t.Errorf("%d boards found, %d lost, %d cycles, %d clock readings: want every reply taken", found, lost, st.Cycles, clocks)
		}
	})
}
