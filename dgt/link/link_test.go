package link_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/dgt/link"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
)

// pipeBoard serves an emulator over net.Pipe connections: every Open
// makes a new pipe and serves the same emulator on it (state kept across
// reconnects); Unplug ends the current connection.
type pipeBoard struct {
	e      *emu.Emulator
	wg     sync.WaitGroup
	mu     sync.Mutex
	cancel context.CancelFunc
	opens  int
	absent bool // Open fails while absent
}

func (p *pipeBoard) Open(ctx context.Context) (io.ReadWriteCloser, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.absent {
		return nil, errors.New("no such device")
	}
	p.opens++
	host, board := net.Pipe()
	rctx, cancel := context.WithCancel(context.Background())
	p.cancel = cancel
	p.wg.Go(func() { emu.Run(rctx, board, p.e) })
	return host, nil
}

// Unplug ends the current connection; the board stays away until Plug.
func (p *pipeBoard) Unplug() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.absent = true
	if p.cancel != nil {
		p.cancel()
	}
}

func (p *pipeBoard) Plug() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.absent = false
}

func (p *pipeBoard) Close() {
	p.Unplug()
	p.wg.Wait()
}

// mirror rebuilds the board from a link's events: dumps replace it, field
// updates change one field.
type mirror struct {
	fields    [dgt.NumFields]dgt.PieceCode
	dumps     int
	connected []link.Connected
	disconn   []link.Disconnected
	clockMsgs int
	lastClock dgt.ClockTimes
	fieldMsgs int
	resyncs   int
}

func (m *mirror) apply(ev link.Event) {
	switch ev := ev.(type) {
	case link.Connected:
		m.connected = append(m.connected, ev)
	case link.Disconnected:
		m.disconn = append(m.disconn, ev)
	case link.Resync:
		m.resyncs++
	case link.Message:
		switch msg := ev.Msg.(type) {
		case dgt.BoardDump:
			m.fields = msg.Fields
			m.dumps++
		case dgt.FieldUpdate:
			m.fields[msg.Field] = msg.Piece
			m.fieldMsgs++
		case dgt.ClockTimes:
			m.clockMsgs++
			m.lastClock = msg
		}
	}
}

func (m *mirror) placement() rules.Placement {
	d := dgt.BoardDump{Fields: m.fields}
	return d.Placement(dgt.Normal)
}

func gameScript(t *testing.T, ucis ...string) (emu.Script, rules.Placement) {
	t.Helper()
	start := chess.StartPosition(chess.Standard)
	var pos rules.Position = start
	var moves []rules.Move
	for _, u := range ucis {
		m, err := pos.ParseMove(u)
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, m)
		if pos, err = pos.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	styles := []emu.Style{emu.Clean, emu.DestinationFirst, emu.CaptureFirst, emu.Slow}
	s, err := emu.GameScript(start, moves, emu.GameOptions{
		Think:    func(int) time.Duration { return 700 * time.Millisecond },
		Handling: func(ply int) emu.Handling { return emu.Handling{Style: styles[ply%4], Speed: 2} },
	})
	if err != nil {
		t.Fatal(err)
	}
	return s, pos.Placement()
}

var ruyLopez = []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6", "d7c6", "e1g1", "f7f6", "d2d4", "e5d4", "f3d4", "c6c5"}

// TestFollowGameAcrossUnplug connects to an emulated board, follows a game
// (field updates and clock), has clock commands acknowledged (with one
// lost ACK retried), and survives the board vanishing mid-game: after the
// reconnect the dump re-reads the position and the mirror ends equal to
// the board.
func TestFollowGameAcrossUnplug(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := emu.New(emu.Setup{Serial: "12345", Clock: emu.ClockSetting{Base: 5 * time.Minute, Increment: 3 * time.Second}}, time.Now())
		pb := &pipeBoard{e: e}
		l := link.New(pb.Open, link.Settings{Watchdog: time.Second, AckTimeout: 500 * time.Millisecond, BackoffMin: 100 * time.Millisecond, Verify: -1})
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { l.Run(ctx) })
		var m mirror
		evDone := make(chan struct{})
		var mu sync.Mutex
		go func() {
			defer close(evDone)
			for ev := range l.Events() {
				mu.Lock()
				m.apply(ev)
				mu.Unlock()
			}
		}()
		snapshot := func() mirror { mu.Lock(); defer mu.Unlock(); return m }
		defer func() {
			cancel()
			wg.Wait()
			<-evDone
			pb.Close()
		}()

		time.Sleep(5 * time.Second)
		synctest.Wait()
		got := snapshot()
		if len(got.connected) != 1 {
			t.Fatalf("connected events %v, want 1", got.connected)
		}
		c := got.connected[0]
		if c.Serial != "12345" || c.Version != (dgt.Version{Major: 1, Minor: 7}) || !c.Clock || c.ClockVersion != [2]uint8{2, 0} || c.LongSerial != "0000012345" {
			t.Fatalf("connected %+v", c)
		}
		if p := got.placement(); got.dumps != 1 || p != emu.StartPlacement() {
			t.Fatalf("after connect: %d dumps, board %s", got.dumps, p.String())
		}

		script, final := gameScript(t, ruyLopez...)
		e.Schedule(time.Now(), script)
		// Clock commands while the game runs; one ACK is lost and retried.
		e.DropAcks(1)
		if err := l.Clock(ctx, dgt.ClockText{Text: "TEST"}); err != nil {
			t.Fatalf("clock text: %v", err)
		}
		if err := l.Clock(ctx, dgt.ClockRequest{Cmd: dgt.ClockCmdEnd}); err != nil {
			t.Fatalf("clock end: %v", err)
		}
		// Pull the cable in the middle of the game, plug it back 3 s later.
		time.Sleep(script.Duration() / 2)
		pb.Unplug()
		err := l.Clock(ctx, dgt.ClockRequest{Cmd: dgt.ClockCmdVersion})
		if !errors.Is(err, link.ErrNotConnected) && !errors.Is(err, link.ErrAckTimeout) {
			t.Fatalf("clock command while unplugged: %v", err)
		}
		time.Sleep(3 * time.Second)
		pb.Plug()
		time.Sleep(script.Duration()/2 + 5*time.Second)
		synctest.Wait()

		got = snapshot()
		if len(got.connected) != 2 || len(got.disconn) != 1 {
			t.Fatalf("%d connects, %d disconnects, want 2 and 1", len(got.connected), len(got.disconn))
		}
		if got.dumps != 2 {
			t.Fatalf("%d dumps, want one per connection", got.dumps)
		}
		if p, ep := got.placement(), e.Placement(); p != final || ep != final {
			t.Fatalf("mirror %s, emulator %s, want %s", p.String(), ep.String(), final.String())
		}
		if got.fieldMsgs < 2*len(ruyLopez) || got.clockMsgs < len(ruyLopez) {
			t.Fatalf("%d field updates and %d clock messages for %d moves", got.fieldMsgs, got.clockMsgs, len(ruyLopez))
		}
		// Black (right) pressed last: the right display is stopped and the
		// last clock message shows its time (rounded up to the second).
		if cs := e.Clock(time.Now()); got.lastClock.Right.Duration() != (cs.Right + time.Second - 1).Truncate(time.Second) {
			t.Fatalf("last clock message right %v, emulator %v", got.lastClock.Right, cs.Right)
		}
		if got.lastClock.RunningSide() != dgt.LeftSide {
			t.Fatalf("last clock %v, want left (White) running after Black's move", got.lastClock)
		}
		if got.resyncs != 0 {
			t.Fatalf("%d resyncs on a clean line", got.resyncs)
		}
		_, clockCmds := e.Received()
		n := 0
		for _, c := range clockCmds {
			if c == byte(dgt.ClockCmdASCII) {
				n++
			}
		}
		if n != 2 {
			t.Fatalf("ASCII command sent %d times, want 2 (one lost ACK)", n)
		}
	})
}

func TestClockErrors(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, tc := range []struct {
			name string
			opts emu.Setup
			drop int
			cmd  dgt.Command
			want error
		}{
			{"no clock", emu.Setup{NoClock: true}, 0, dgt.ClockRequest{Cmd: dgt.ClockCmdEnd}, link.ErrNoClock},
			{"ack lost every time", emu.Setup{}, 100, dgt.ClockRequest{Cmd: dgt.ClockCmdEnd}, link.ErrAckTimeout},
			{"rejected", emu.Setup{ClockVersion: [2]byte{1, 14}}, 0, dgt.ClockText{Text: "XL"}, link.ErrRejected},
		} {
			e := emu.New(tc.opts, time.Now())
			pb := &pipeBoard{e: e}
			l := link.New(pb.Open, link.Settings{AckTimeout: 300 * time.Millisecond})
			ctx, cancel := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			wg.Go(func() { l.Run(ctx) })
			wg.Go(func() {
				for range l.Events() {
				}
			})
			time.Sleep(5 * time.Second)
			e.DropAcks(tc.drop)
			err := l.Clock(ctx, tc.cmd)
			var ce *link.ClockError
			if !errors.Is(err, tc.want) || !errors.As(err, &ce) {
				t.Errorf("%s: %v, want a *ClockError wrapping %v", tc.name, err, tc.want)
			}
			if err := l.Clock(ctx, dgt.CmdSendBoard); !errors.Is(err, link.ErrNotClockCommand) {
				t.Errorf("%s: Clock(0x42) = %v", tc.name, err)
			}
			cancel()
			wg.Wait()
			pb.Close()
		}
	})
}

// TestSilentPortIsNoBoard: a port that never answers is not a board; the
// link keeps retrying with back-off and never reports Connected.
func TestSilentPortIsNoBoard(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		opens := 0
		var ends []net.Conn
		l := link.New(func(ctx context.Context) (io.ReadWriteCloser, error) {
			mu.Lock()
			defer mu.Unlock()
			opens++
			a, b := net.Pipe()
			ends = append(ends, b)
			go io.Copy(io.Discard, b)
			return a, nil
		}, link.Settings{IdentifyInterval: time.Second, IdentifyTries: 2, BackoffMin: time.Second, BackoffMax: 4 * time.Second})
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { l.Run(ctx) })
		var evs []link.Event
		wg.Go(func() {
			for ev := range l.Events() {
				evs = append(evs, ev)
			}
		})
		// attempts at 0, 2+1, 5+2, 9+4, 15+4, … (identify 2 s + back-off)
		time.Sleep(30 * time.Second)
		cancel()
		wg.Wait()
		for _, c := range ends {
			c.Close()
		}
		if len(evs) != 0 {
			t.Fatalf("events from a silent port: %v", evs)
		}
		if opens < 4 || opens > 6 {
			t.Fatalf("%d opens in 30 s with back-off 1 s … 4 s, want 4–6", opens)
		}
	})
}

// muteConn drops what the board writes once muted: a hung board.
type muteConn struct {
	net.Conn
	muted *atomic.Bool
}

func (c muteConn) Write(p []byte) (int, error) {
	if c.muted.Load() {
		return len(p), nil
	}
	return c.Conn.Write(p)
}

// TestDeadBoardIsDetected: a board that hangs (the port stays open, no
// byte comes back) is found by the watchdog's poll and reported as
// Disconnected{ErrDead}; the link then reopens the port.
func TestDeadBoardIsDetected(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := emu.New(emu.Setup{NoClock: true}, time.Now())
		var muted atomic.Bool
		var srv sync.WaitGroup
		srvCtx, stopSrv := context.WithCancel(context.Background())
		opens := 0
		l := link.New(func(ctx context.Context) (io.ReadWriteCloser, error) {
			opens++
			host, board := net.Pipe()
			srv.Go(func() { emu.Run(srvCtx, muteConn{board, &muted}, e) })
			return host, nil
		}, link.Settings{Watchdog: time.Second, IdentifyInterval: time.Second, BackoffMin: time.Hour})
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { l.Run(ctx) })
		var evs []link.Event
		wg.Go(func() {
			for ev := range l.Events() {
				evs = append(evs, ev)
			}
		})
		time.Sleep(3 * time.Second)
		muted.Store(true)
		time.Sleep(10 * time.Second)
		synctest.Wait()
		cancel()
		wg.Wait()
		stopSrv()
		srv.Wait()
		var kinds []string
		var last link.Event
		for _, ev := range evs {
			if _, ok := ev.(link.Message); !ok {
				last = ev
				kinds = append(kinds, fmt.Sprintf("%T", ev))
			}
		}
		d, ok := last.(link.Disconnected)
		if !ok || !errors.Is(d.Err, link.ErrDead) || fmt.Sprint(kinds) != "[link.Connected link.Log link.Disconnected]" {
			t.Fatalf("events %v, last %v; want Connected, Log, then Disconnected{ErrDead}", kinds, last)
		}
		if opens != 1 {
			t.Fatalf("%d opens, want 1 (back-off of an hour)", opens)
		}
	})
}

func TestDetectOrientation(t *testing.T) {
	start := emu.StartPlacement()
	normal, _ := dgt.DumpOf(&start, dgt.Normal)
	rotated, _ := dgt.DumpOf(&start, dgt.Rotated)
	c960 := chess.Chess960Start(518 - 100).Placement()
	d960, _ := dgt.DumpOf(&c960, dgt.Rotated)
	mid := normal
	mid.Fields[52], mid.Fields[36] = dgt.Empty, dgt.WhitePawn
	for _, tc := range []struct {
		name string
		d    dgt.BoardDump
		o    dgt.Orientation
		ok   bool
	}{
		{"normal", normal, dgt.Normal, true},
		{"rotated", rotated, dgt.Rotated, true},
		{"chess960 rotated", d960, dgt.Rotated, true},
		{"after e4", mid, dgt.Normal, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, ok := link.DetectOrientation(tc.d)
			if o != tc.o || ok != tc.ok {
				t.Fatalf("got %v %v, want %v %v", o, ok, tc.o, tc.ok)
			}
		})
	}
}

var emuVersionRequest = dgt.ClockRequest{Cmd: dgt.ClockCmdVersion}

func TestProbe(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := emu.New(emu.Setup{Serial: "33333", ClockVersion: [2]byte{1, 14}}, time.Now())
		pb := &pipeBoard{e: e}
		defer pb.Close()
		rwc, _ := pb.Open(context.Background())
		c, err := link.Probe(context.Background(), rwc, link.Settings{})
		if err != nil {
			t.Fatal(err)
		}
		if c.Serial != "33333" || !c.Clock || c.ClockVersion != [2]uint8{1, 14} {
			t.Fatalf("probe %+v", c)
		}
		// A silent port is no board.
		a, b := net.Pipe()
		defer b.Close()
		go io.Copy(io.Discard, b)
		if _, err := link.Probe(context.Background(), a, link.Settings{IdentifyTries: 1}); !errors.Is(err, link.ErrNoBoard) {
			t.Fatalf("probe of a silent port: %v", err)
		}
	})
}

// TestCancelStopsABlockedWrite: a port that takes no bytes (the device
// side never reads) blocks the link's write; cancelling ctx must still
// stop Run, by closing the port, and close the event channel.
func TestCancelStopsABlockedWrite(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		opened := make(chan net.Conn, 1)
		l := link.New(func(ctx context.Context) (io.ReadWriteCloser, error) {
			a, b := net.Pipe() // b is never read: the first write blocks
			opened <- b
			return a, nil
		}, link.Settings{})
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		var runErr error
		wg.Go(func() { runErr = l.Run(ctx) })
		dev := <-opened
		defer dev.Close()
		synctest.Wait() // Run is blocked writing the reset command
		cancel()
		wg.Wait()
		if runErr != nil {
			t.Fatalf("Run: %v", runErr)
		}
		if _, ok := <-l.Events(); ok {
			t.Fatal("an event from a port that never answered")
		}
	})
}
