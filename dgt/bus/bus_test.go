package bus_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/bus"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
)

// hall is N emulated boards on one bus line served over a pipe.
type hall struct {
	line   *emu.Line
	boards map[uint16]*emu.Emulator
	wg     sync.WaitGroup
	cancel context.CancelFunc
}

func newHall(n int) *hall {
	h := &hall{boards: map[uint16]*emu.Emulator{}}
	var es []*emu.Emulator
	now := time.Now()
	for i := 1; i <= n; i++ {
		e := emu.New(emu.Setup{Serial: fmt.Sprintf("%05d", 2000+i), Seed: uint64(i)}, now)
		es = append(es, e)
		h.boards[e.Address()] = e
	}
	h.line = emu.NewLine(now, es...)
	return h
}

func (h *hall) open(ctx context.Context) (io.ReadWriteCloser, error) {
	host, dev := net.Pipe()
	rctx, cancel := context.WithCancel(context.Background())
	h.cancel = cancel
	h.wg.Go(func() { emu.Run(rctx, dev, h.line) })
	return host, nil
}

func (h *hall) close() {
	if h.cancel != nil {
		h.cancel()
	}
	h.wg.Wait()
}

// state mirrors every board from the bus events.
type state struct {
	mu       sync.Mutex
	kinds    map[uint16][]string // the board events per address, "Changes" counted once in a row
	logs     map[uint16][]dgt.EELog
	found    map[uint16]int
	lost     map[uint16]int
	fields   map[uint16]*[64]dgt.PieceCode
	clocks   map[uint16]dgt.ClockTimes
	nClock   map[uint16]int
	eeClocks map[uint16]int
}

func newState() *state {
	return &state{kinds: map[uint16][]string{}, logs: map[uint16][]dgt.EELog{}, found: map[uint16]int{}, lost: map[uint16]int{}, fields: map[uint16]*[64]dgt.PieceCode{},
		clocks: map[uint16]dgt.ClockTimes{}, nClock: map[uint16]int{}, eeClocks: map[uint16]int{}}
}

func (s *state) apply(ev bus.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if a, k := boardEvent(ev); k != "" {
		if ks := s.kinds[a]; len(ks) == 0 || ks[len(ks)-1] != k || k != "Changes" {
			s.kinds[a] = append(ks, k)
		}
	}
	switch ev := ev.(type) {
	case bus.Log:
		s.logs[ev.Address] = append(s.logs[ev.Address], ev.Log)
		if s.fields[ev.Address] == nil {
			s.fields[ev.Address] = new([64]dgt.PieceCode)
		}
		f := s.fields[ev.Address]
		for _, r := range ev.Log.Entries {
			switch r.Kind {
			case dgt.EEPiece:
				f[r.Field] = r.Piece
			case dgt.EEClock:
				s.eeClocks[ev.Address]++
			}
		}
	case bus.BoardFound:
		s.found[ev.Address]++
	case bus.BoardLost:
		s.lost[ev.Address]++
	case bus.Position:
		f := ev.Board.Fields
		s.fields[ev.Address] = &f
	case bus.Changes:
		f := s.fields[ev.Address]
		if f == nil {
			f = new([64]dgt.PieceCode)
			s.fields[ev.Address] = f
		}
		for _, r := range ev.Records {
			switch r.Kind {
			case dgt.EEPiece:
				f[r.Field] = r.Piece
			case dgt.EEClock:
				s.eeClocks[ev.Address]++
			}
		}
	case bus.Clock:
		s.clocks[ev.Address] = ev.Clock
		s.nClock[ev.Address]++
	}
}

// boardEvent returns the address and the type name of a board event
// (clock readings left out).
func boardEvent(ev bus.Event) (uint16, string) {
	switch ev := ev.(type) {
	case bus.BoardFound:
		return ev.Address, "BoardFound"
	case bus.BoardLost:
		return ev.Address, "BoardLost"
	case bus.Log:
		return ev.Address, "Log"
	case bus.Position:
		return ev.Address, "Position"
	case bus.Changes:
		return ev.Address, "Changes"
	}
	return 0, ""
}

func (s *state) placement(a uint16) rules.Placement {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := dgt.BoardDump{Fields: *s.fields[a]}
	return d.Placement(dgt.Normal)
}

func run(t *testing.T, h *hall, opts bus.Settings) (*state, func()) {
	b := bus.New(h.open, opts)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { b.Run(ctx) })
	s := newState()
	wg.Go(func() {
		for ev := range b.Events() {
			s.apply(ev)
		}
	})
	return s, func() {
		cancel()
		wg.Wait()
		h.close()
	}
}

func sq(n string) rules.Square {
	s, err := rules.Chess8x8.ParseSquare(n)
	if err != nil {
		panic(err)
	}
	return s
}

// TestThirtyTwoBoards: 32 boards on one line are all found by broadcast
// discovery alone (answers collide, rounds repeat), read in full, and
// then followed: a move on any board arrives as changes, a lever press as
// a clock change.
func TestThirtyTwoBoards(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHall(32)
		s, stop := run(t, h, bus.Settings{})
		defer stop()
		time.Sleep(15 * time.Second)
		synctest.Wait()
		s.mu.Lock()
		nFound := len(s.found)
		s.mu.Unlock()
		if nFound != 32 {
			t.Fatalf("found %d of 32 boards: %v", nFound, s.found)
		}
		for a := range h.boards {
			if p := s.placement(a); p != emu.StartPlacement() {
				t.Fatalf("board %d: %s", a, p.String())
			}
		}
		// The polling cycle, measured on the emulated 9600-baud line (which
		// times the boards' replies, not the host's commands).
		before, _ := h.boards[2001].Received()
		time.Sleep(10 * time.Second)
		after, _ := h.boards[2001].Received()
		polls := 0
		for _, c := range after[len(before):] {
			if c == byte(dgt.BusCmdSendChanges) {
				polls++
			}
		}
		if polls == 0 {
			t.Fatal("board 2001 not polled in 10 s")
		}
		t.Logf("32 boards: %d polls in 10 s, cycle %v", polls, 10*time.Second/time.Duration(polls))
		wn := rules.Piece{Color: rules.White, Kind: rules.Knight}
		bp := rules.Piece{Color: rules.Black, Kind: rules.Pawn}
		now := time.Now()
		i := 0
		for _, e := range h.boards {
			i++
			if i%2 == 0 {
				continue
			}
			e.Schedule(now, emu.Script{
				{At: 0, Kind: emu.Press, Side: emu.Left},
				{At: time.Second, Kind: emu.Lift, Square: sq("g1")},
				{At: 1200 * time.Millisecond, Kind: emu.Place, Square: sq("f3"), Piece: wn},
				{At: 1500 * time.Millisecond, Kind: emu.Press, Side: emu.Right},
				{At: 3 * time.Second, Kind: emu.Lift, Square: sq("e7")},
				{At: 3100 * time.Millisecond, Kind: emu.Place, Square: sq("e5"), Piece: bp},
				{At: 3500 * time.Millisecond, Kind: emu.Press, Side: emu.Left},
			})
		}
		time.Sleep(10 * time.Second)
		synctest.Wait()
		for a, e := range h.boards {
			if got, want := s.placement(a), e.Placement(); got != want {
				t.Fatalf("board %d: mirror %s, board %s", a, got.String(), want.String())
			}
			s.mu.Lock()
			moved := e.Placement() != emu.StartPlacement()
			nc, ee, lost := s.nClock[a], s.eeClocks[a], s.lost[a]
			s.mu.Unlock()
			if lost != 0 {
				t.Fatalf("board %d lost on a clean line", a)
			}
			if moved && (nc < 3 || ee != 2) {
				t.Fatalf("board %d: %d clock readings, %d EEPROM clock records; want ≥ 3 and 2", a, nc, ee)
			}
		}
	})
}

// TestChecksumErrorsLoseNothing: corrupted replies are retried (changes
// with REPEAT_CHANGES), so no change and no board is lost.
func TestChecksumErrorsLoseNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHall(16)
		var addrs []uint16
		for a := range h.boards {
			addrs = append(addrs, a)
		}
		s, stop := run(t, h, bus.Settings{Addresses: addrs, NoBroadcast: true})
		defer stop()
		time.Sleep(5 * time.Second)
		wp := rules.Piece{Color: rules.White, Kind: rules.Pawn}
		for _, e := range h.boards {
			e.Schedule(time.Now(), emu.Script{
				{At: 0, Kind: emu.Lift, Square: sq("d2")},
				{At: 100 * time.Millisecond, Kind: emu.Place, Square: sq("d4"), Piece: wp},
			})
		}
		// Noise: one bad reply every 150 ms for 3 s; a retry takes far less
		// than 150 ms, so no exchange fails more than once.
		for i := 0; i < 20; i++ {
			h.line.Corrupt(1)
			time.Sleep(150 * time.Millisecond)
		}
		time.Sleep(3 * time.Second)
		synctest.Wait()
		repeats := 0
		for a, e := range h.boards {
			if got, want := s.placement(a), e.Placement(); got != want {
				t.Fatalf("board %d: mirror %s, board %s", a, got.String(), want.String())
			}
			cmds, _ := e.Received()
			for _, c := range cmds {
				if c == byte(dgt.BusCmdRepeatChanges) {
					repeats++
				}
			}
		}
		if repeats == 0 {
			t.Fatal("no REPEAT_CHANGES after checksum errors")
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if len(s.found) != 16 || len(s.lost) != 0 {
			t.Fatalf("found %d of 16 expected boards, lost %v", len(s.found), s.lost)
		}
		t.Logf("%d REPEAT_CHANGES", repeats)
	})
}

// TestBoardLostAndFound: a board unplugged from the line is reported lost;
// plugged back (with a move made meanwhile) it is found again by the
// periodic rediscovery and re-read in full.
func TestBoardLostAndFound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHall(16)
		s, stop := run(t, h, bus.Settings{Rediscover: 10 * time.Second})
		defer stop()
		time.Sleep(12 * time.Second)
		h.line.Unplug(2007)
		time.Sleep(2 * time.Second)
		e := h.boards[2007]
		e.Schedule(time.Now(), emu.Script{
			{At: 0, Kind: emu.Lift, Square: sq("b1")},
			{At: 100 * time.Millisecond, Kind: emu.Place, Square: sq("c3"), Piece: rules.Piece{Color: rules.White, Kind: rules.Knight}},
		})
		time.Sleep(time.Second)
		h.line.Plug(2007)
		time.Sleep(25 * time.Second)
		synctest.Wait()
		s.mu.Lock()
		found, lost := s.found[2007], s.lost[2007]
		s.mu.Unlock()
		if lost != 1 || found != 2 {
			t.Fatalf("board 2007 lost %d times and found %d times, want 1 and 2", lost, found)
		}
		if got, want := s.placement(2007), e.Placement(); got != want {
			t.Fatalf("mirror %s, board %s", got.String(), want.String())
		}
	})
}

// TestCancelStopsABlockedWrite: a line that takes no bytes (the device
// side never reads) blocks the bus's first poll; cancelling ctx must
// still stop Run, by closing the port, and close the event channel.
func TestCancelStopsABlockedWrite(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		opened := make(chan net.Conn, 1)
		b := bus.New(func(ctx context.Context) (io.ReadWriteCloser, error) {
			host, dev := net.Pipe() // dev is never read: the first write blocks
			opened <- dev
			return host, nil
		}, bus.Settings{})
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		var runErr error
		wg.Go(func() { runErr = b.Run(ctx) })
		var evs []bus.Event
		wg.Go(func() {
			for e := range b.Events() {
				evs = append(evs, e)
			}
		})
		dev := <-opened
		defer dev.Close()
		synctest.Wait() // Run is blocked writing the first poll
		cancel()
		wg.Wait()
		if runErr != nil {
			t.Fatalf("Run: %v", runErr)
		}
		for _, e := range evs {
			if _, ok := e.(bus.LineUp); !ok {
				t.Errorf("event %T %+v from a line that never answered", e, e)
			}
		}
	})
}

// pingCounter counts the host's pings of one address on the line.
type pingCounter struct {
	*emu.Line
	cmd []byte
	mu  sync.Mutex
	n   int
}

func (c *pingCounter) Input(now time.Time, p []byte) {
	c.mu.Lock()
	c.n += bytes.Count(p, c.cmd)
	c.mu.Unlock()
	c.Line.Input(now, p)
}

func (c *pingCounter) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// TestLostBoardBackWithinSeconds: a board that stops answering for half a
// second (a loose plug: its polls and their retries time out) is lost, and
// found again within two seconds of answering again, not at the next
// discovery round (30 s by default; a minute here). A board unplugged for good is pinged
// at doubling gaps: a handful of pings in 20 s.
func TestLostBoardBackWithinSeconds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHall(16)
		cmd, err := dgt.BusCommand{Cmd: dgt.BusCmdPing, Address: 2016}.AppendBinary(nil)
		if err != nil {
			t.Fatal(err)
		}
		pc := &pingCounter{Line: h.line, cmd: cmd}
		open := func(ctx context.Context) (io.ReadWriteCloser, error) {
			host, dev := net.Pipe()
			rctx, cancel := context.WithCancel(context.Background())
			h.cancel = cancel
			h.wg.Go(func() { emu.Run(rctx, dev, pc) })
			return host, nil
		}
		// No discovery round in the test's minute: only the re-pings.
		b := bus.New(open, bus.Settings{Rediscover: time.Minute})
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { b.Run(ctx) })
		var mu sync.Mutex
		var lostAt, foundAt []time.Time
		wg.Go(func() {
			for ev := range b.Events() {
				mu.Lock()
				switch ev := ev.(type) {
				case bus.BoardLost:
					if ev.Address == 2007 {
						lostAt = append(lostAt, time.Now())
					}
				case bus.BoardFound:
					if ev.Address == 2007 {
						foundAt = append(foundAt, time.Now())
					}
				}
				mu.Unlock()
			}
		})
		defer func() {
			cancel()
			wg.Wait()
			h.close()
		}()
		time.Sleep(15 * time.Second) // discovery: every board found
		h.line.Unplug(2007)
		h.line.Unplug(2016)
		time.Sleep(1500 * time.Millisecond)
		h.line.Plug(2007)
		plugged := time.Now()
		pings := pc.count()
		time.Sleep(20 * time.Second)
		synctest.Wait()
		mu.Lock()
		defer mu.Unlock()
		if len(lostAt) != 1 || len(foundAt) != 2 {
			t.Fatalf("board 2007 lost %d times and found %d times, want 1 and 2", len(lostAt), len(foundAt))
		}
		if back := foundAt[1].Sub(plugged); back > 2*time.Second {
			t.Errorf("board 2007 found again %v after it answered again; want within 2 s", back)
		}
		// 2016 stays unplugged: pinged at 1, 2, 4, 8, 16 s after its loss
		// (the first two perhaps before the counting began).
		if n := pc.count() - pings; n < 3 || n > 5 {
			t.Errorf("board 2016 pinged %d times in 20 s while unplugged; want 3-5 (gaps doubling)", n)
		}
	})
}
