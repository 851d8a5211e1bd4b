package link_test

import (
	"context"
	"io"
	"math/rand/v2"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/dgttest"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/dgt/link"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
)

// faultyBoard serves an emulator over net.Pipe with a FaultyPort on the
// host's side.
type faultyBoard struct {
	e      *emu.Emulator
	f      dgttest.Faults
	wg     sync.WaitGroup
	cancel context.CancelFunc
	port   *dgttest.FaultyPort
}

func (b *faultyBoard) open(ctx context.Context) (io.ReadWriteCloser, error) {
	host, dev := net.Pipe()
	rctx, cancel := context.WithCancel(context.Background())
	b.cancel = cancel
	b.wg.Go(func() { emu.Run(rctx, dev, b.e) })
	b.port = dgttest.NewFaultyPort(host, b.f)
	return b.port, nil
}

func (b *faultyBoard) close() {
	if b.cancel != nil {
		b.cancel()
	}
	b.wg.Wait()
}

// TestOneGarbledByteDoesNotStopTheGame reproduces a bug once seen: "one
// garbled byte on the line stopped a game for good": the header byte of one field
// update is lost mid-game. The link must notice (the rest of the frame is
// garbage), ask the board for its position, and the mirror of its events
// must end equal to the board.
func TestOneGarbledByteDoesNotStopTheGame(t *testing.T) {
	for _, fault := range []dgttest.Fault{dgttest.Drop, dgttest.Corrupt, dgttest.Duplicate} {
		t.Run(fault.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := emu.New(emu.Setup{}, time.Now())
				var armed, done atomic.Bool
				fb := &faultyBoard{e: e, f: dgttest.Faults{Seed: 1, Pick: func(off int64, b byte) dgttest.Fault {
					// the second field update after the connection: the
					// destination of 1.e4 or the origin, in scan order
					if armed.Load() && b == byte(dgt.MsgFieldUpdate) && !done.Swap(true) {
						return fault
					}
					return dgttest.NoFault
				}}}
				l := link.New(fb.open, link.Settings{NoLog: true})
				ctx, cancel := context.WithCancel(context.Background())
				var wg sync.WaitGroup
				wg.Go(func() { l.Run(ctx) })
				var m mirror
				var mu sync.Mutex
				wg.Go(func() {
					for ev := range l.Events() {
						mu.Lock()
						m.apply(ev)
						mu.Unlock()
					}
				})
				time.Sleep(5 * time.Second)
				armed.Store(true)
				script, final := gameScript(t, ruyLopez[:6]...)
				e.Schedule(time.Now(), script)
				time.Sleep(script.Duration() + 5*time.Second)
				synctest.Wait()
				mu.Lock()
				got, resyncs := m.placement(), m.resyncs
				mu.Unlock()
				cancel()
				wg.Wait()
				fb.close()
				if !done.Load() {
					t.Fatal("no fault injected")
				}
				if resyncs == 0 {
					t.Fatal("the garbled byte went unnoticed")
				}
				if got != final {
					t.Fatalf("after one garbled byte the link's events say %s, the board holds %s", got.String(), final.String())
				}
			})
		})
	}
}

// randomMoves returns up to n legal moves from start drawn from seed.
func randomMoves(t *testing.T, start rules.Position, seed uint64, n int) ([]rules.Move, []rules.Position) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 3))
	pos := start
	var moves []rules.Move
	positions := []rules.Position{start}
	for len(moves) < n {
		legal := pos.LegalMoves(nil)
		if len(legal) == 0 {
			break
		}
		m := legal[r.IntN(len(legal))]
		next, err := pos.Play(m)
		if err != nil {
			t.Fatal(err)
		}
		moves, pos = append(moves, m), next
		positions = append(positions, pos)
	}
	return moves, positions
}

// observed collects every position a consumer of the link's events can
// see: the mirror after each dump and field update, and each step of the
// replay of every log.
type observed struct {
	mu     sync.Mutex
	mirror [dgt.NumFields]dgt.PieceCode
	seen   map[[dgt.NumFields]dgt.PieceCode]bool
	logs   int
}

func (o *observed) apply(ev link.Event) {
	o.mu.Lock()
	defer o.mu.Unlock()
	switch ev := ev.(type) {
	case link.Message:
		switch m := ev.Msg.(type) {
		case dgt.BoardDump:
			o.mirror = m.Fields
		case dgt.FieldUpdate:
			o.mirror[m.Field] = m.Piece
		default:
			return
		}
		o.seen[o.mirror] = true
	case link.Log:
		o.logs++
		var b [dgt.NumFields]dgt.PieceCode
		for _, r := range ev.Log.Entries {
			switch r.Kind {
			case dgt.EEPowerUp, dgt.EEStartTag:
				b = [dgt.NumFields]dgt.PieceCode{}
			case dgt.EEPiece:
				b[r.Field] = r.Piece
				o.seen[b] = true
			}
		}
	}
}

// frameAware returns a Pick that faults bytes at rate (each fault kind
// equally likely) outside EEPROM dumps: dense noise on the short messages
// that carry the moves, while the 8 s logs that repair them get through.
func frameAware(seed uint64, rate float64) func(int64, byte) dgttest.Fault {
	r := rand.New(rand.NewPCG(seed, 5))
	inDump := 0
	return func(_ int64, b byte) dgttest.Fault {
		if inDump > 0 {
			inDump--
			return dgttest.NoFault
		}
		if b == byte(dgt.MsgEEMoves) {
			inDump = 0x1F00 + 2
			return dgttest.NoFault
		}
		if r.Float64() < rate {
			return dgttest.Fault(1 + r.IntN(3))
		}
		return dgttest.NoFault
	}
}

// TestEveryMoveArrivesThroughANoisyLine: games played by realistic hands
// over a line that corrupts, drops and duplicates bytes reach the link's
// consumer whole: every position of each game shows in the events (the
// mirror of dumps and updates, or the replay of a log read after the
// damage), and the mirror ends on the final position. Two kinds of noise:
// dense noise on the short messages that carry the moves (about one byte
// in 150), and sparse noise on everything, the 8 s logs included (one byte
// in 3,300, far noisier than a working cable).
func TestEveryMoveArrivesThroughANoisyLine(t *testing.T) {
	for _, tc := range []struct {
		name   string
		faults func(seed uint64) dgttest.Faults
	}{
		{"dense noise on moves", func(seed uint64) dgttest.Faults {
			return dgttest.Faults{Seed: seed, Pick: frameAware(seed, 1.0/150)}
		}},
		{"sparse noise everywhere", func(seed uint64) dgttest.Faults {
			return dgttest.Faults{Seed: seed, Corrupt: 1.0 / 10000, Drop: 1.0 / 10000, Duplicate: 1.0 / 10000}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			faults, logs := 0, 0
			for seed := uint64(1); seed <= 30; seed++ {
				f, l := noisyGame(t, seed, tc.faults(seed))
				faults += f
				logs += l
			}
			t.Logf("30 games of 40 plies: %d faults injected, %d logs read", faults, logs)
			if faults < 100 {
				t.Fatalf("only %d faults injected in 30 games", faults)
			}
		})
	}
}

// noisyGame plays one game over a line with faults f and checks that
// every position reached the link's events; it returns the faults
// injected and the logs read.
func noisyGame(t *testing.T, seed uint64, f dgttest.Faults) (faults, logs int) {
	synctest.Test(t, func(t *testing.T) {
		start := chess.StartPosition(chess.Standard)
		moves, positions := randomMoves(t, start, seed, 40)
		h := emu.DefaultHands()
		h.Think = emu.Span{Min: 300 * time.Millisecond, Max: 2 * time.Second}
		g := emu.Game{Start: start, Moves: moves, Seed: seed, Hands: h}
		powerUp := time.Now()
		e := emu.New(g.BoardSetup(), powerUp)
		fb := &faultyBoard{e: e, f: f}
		l := link.New(fb.open, link.Settings{BackoffMin: 100 * time.Millisecond, BackoffMax: time.Second})
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { l.Run(ctx) })
		o := &observed{seen: map[[dgt.NumFields]dgt.PieceCode]bool{}}
		wg.Go(func() {
			for ev := range l.Events() {
				o.apply(ev)
			}
		})
		time.Sleep(20 * time.Second)
		now := time.Now()
		script, _, err := g.Plan(powerUp, now)
		if err != nil {
			t.Fatal(err)
		}
		e.Schedule(now, script)
		time.Sleep(script.Duration() + 60*time.Second)
		synctest.Wait()
		cancel()
		wg.Wait()
		fb.close()
		faults = fb.port.Injected(dgttest.Corrupt) + fb.port.Injected(dgttest.Drop) + fb.port.Injected(dgttest.Duplicate)
		o.mu.Lock()
		defer o.mu.Unlock()
		logs = o.logs
		for i, p := range positions {
			pl := p.Placement()
			d, _ := dgt.DumpOf(&pl, dgt.Normal)
			if !o.seen[d.Fields] {
				t.Errorf("seed %d (%d faults): the position after ply %d never showed in the link's events", seed, faults, i)
			}
		}
		fin := positions[len(positions)-1].Placement()
		d, _ := dgt.DumpOf(&fin, dgt.Normal)
		if o.mirror != d.Fields {
			t.Fatalf("seed %d: the mirror ends on %v, the board on %v", seed, o.mirror, d.Fields)
		}
	})
	return faults, logs
}
