package link_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	dgtemu "github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/dgt/pty"
	"github.com/dgtbridge/dgtbridge/dgt/recording"
	"github.com/dgtbridge/dgtbridge/obp"
	"github.com/dgtbridge/dgtbridge/obp/emu"
	"github.com/dgtbridge/dgtbridge/obp/link"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi"
	"golang.org/x/sys/unix"
)

// ptyBoard serves one emulated OBP board on successive pseudo-terminals:
// unplug closes the current one (the board vanishes), serve opens a new
// one (it comes back under a new device path, as a re-enumerated USB
// board does).
type ptyBoard struct {
	e      *emu.Emulator
	path   atomic.Value
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

func (p *ptyBoard) serve(t *testing.T) {
	t.Helper()
	m, path, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	p.cancel = cancel
	p.path.Store(path)
	p.wg.Go(func() { dgtemu.ServePTY(ctx, m, p.e) })
}

func (p *ptyBoard) unplug() {
	p.cancel()
	p.wg.Wait()
}

// open opens the current slave path the way a serial port is opened.
func (p *ptyBoard) open(ctx context.Context) (io.ReadWriteCloser, error) {
	return os.OpenFile(p.path.Load().(string), os.O_RDWR|unix.O_NOCTTY, 0)
}

// mirror is a consumer: it follows the board from the link's events.
type mirror struct {
	connected []link.Connected
	disconn   []link.Disconnected
	bad       int
	boards    int // Board answers after Connected
	board     rules.Placement
	msgs      []obp.Message
}

func (m *mirror) apply(ev link.Event) {
	switch ev := ev.(type) {
	case link.Connected:
		m.connected = append(m.connected, ev)
		m.board = ev.Board.Placement
	case link.Disconnected:
		m.disconn = append(m.disconn, ev)
	case link.BadLine:
		m.bad++
	case link.Message:
		m.msgs = append(m.msgs, ev.Msg)
		switch msg := ev.Msg.(type) {
		case obp.Lift:
			m.board.Sq[msg.Square] = rules.NoPiece
		case obp.Put:
			m.board.Sq[msg.Square] = msg.Piece
		case obp.Board:
			m.boards++
			m.board = msg.Placement
		}
	}
}

// follow drains l's events into m until done, failing after 30 s.
func follow(t *testing.T, l *link.Link, m *mirror, what string, done func() bool) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for !done() {
		select {
		case ev, ok := <-l.Events():
			if !ok {
				t.Fatalf("events closed waiting for %s", what)
			}
			m.apply(ev)
		case <-deadline:
			t.Fatalf("no %s within 30 s (%d connects, %d disconnects)", what, len(m.connected), len(m.disconn))
		}
	}
}

// game returns n plies of a fixed xiangqi game and its final position.
func game(t *testing.T, n int) ([]rules.Move, rules.Placement) {
	t.Helper()
	p := xiangqi.StartPosition()
	var moves []rules.Move
	for i := 0; i < n; i++ {
		ms := p.LegalMoves(nil)
		m := ms[(i*11+3)%len(ms)]
		for _, c := range ms {
			if c.IsCapture() {
				m = c
				break
			}
		}
		moves = append(moves, m)
		p, _ = p.PlayMove(m)
	}
	return moves, p.Placement()
}

// TestPTYGame runs the link against the emulated board over real
// pseudo-terminals in real time: connect, follow a game with lines
// damaged on the wire (each bad line answered by a B that repairs the
// picture), lose the board mid-game and find it again on a new device
// path with the position re-read, and record everything so that the
// recording decodes to the same lines.
func TestPTYGame(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: real pseudo-terminals in real time")
	}
	start := time.Now()
	e, err := emu.New(emu.Options{Serial: "XQ0042", BadLines: 0.08, Seed: 4}, start)
	if err != nil {
		t.Fatal(err)
	}
	pb := &ptyBoard{e: e}
	pb.serve(t)
	var recMu sync.Mutex
	var rec bytes.Buffer
	lw := recording.NewLogWriter(&rec)
	l := link.New(pb.open, link.Settings{BackoffMin: 50 * time.Millisecond, BackoffMax: 200 * time.Millisecond,
		Record: func(at time.Time, d link.Dir, p []byte) {
			recMu.Lock()
			defer recMu.Unlock()
			lw.Log(at, recording.Dir(d), p)
		}})
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { l.Run(ctx) })
	defer func() {
		cancel()
		wg.Wait()
		pb.unplug()
	}()
	var m mirror
	follow(t, l, &m, "connect", func() bool { return len(m.connected) == 1 })
	c := m.connected[0]
	if c.Ident.Serial != "XQ0042" || c.Ident.Geo != rules.Xiangqi9x10 || c.Board.Placement != emu.StartArray(rules.Xiangqi9x10) || c.Clock.None || c.Clock.First != 15*time.Minute {
		t.Fatalf("connected %+v", c)
	}
	moves, final := game(t, 16)
	script, err := emu.GameScript(xiangqi.StartPosition(), moves, emu.GameOptions{Seed: 2, Speed: 8, Incidents: 0.3,
		Think: func(int) time.Duration { return 100 * time.Millisecond }})
	if err != nil {
		t.Fatal(err)
	}
	e.Schedule(time.Now(), script)
	time.Sleep(script.Duration() / 2)
	pb.unplug()
	follow(t, l, &m, "disconnect", func() bool { return len(m.disconn) == 1 })
	pb.serve(t)
	follow(t, l, &m, "reconnect", func() bool { return len(m.connected) == 2 })
	follow(t, l, &m, "the final position", func() bool { return e.Pending() == 0 && m.board == final })
	if _, damaged := e.Lines(); damaged == 0 || m.bad == 0 || m.boards == 0 {
		t.Errorf("%d lines damaged, %d bad lines reported, %d B answers: the wire was not noisy enough to test", damaged, m.bad, m.boards)
	}

	// The recording decodes to the lines the link reported (after the
	// last connect's B, which is in Connected).
	cancel()
	wg.Wait()
	for range l.Events() {
	}
	recMu.Lock()
	defer recMu.Unlock()
	if err := lw.Flush(); err != nil { // the LogWriter batches its lines
		t.Fatal(err)
	}
	r, err := recording.NewReader(bytes.NewReader(rec.Bytes()), recording.Hexlog)
	if err != nil {
		t.Fatal(err)
	}
	d := obp.NewDecoder(rules.Xiangqi9x10)
	var fromRec []obp.Message
	for {
		ch, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if ch.Dir != recording.FromBoard {
			continue
		}
		d.Feed(ch.Bytes)
		for {
			msg, err := d.Next()
			if errors.Is(err, obp.ErrNeedMore) {
				break
			}
			if err == nil {
				fromRec = append(fromRec, msg)
			}
		}
	}
	if len(fromRec) < len(m.msgs) {
		t.Fatalf("recording holds %d lines, the link reported %d", len(fromRec), len(m.msgs))
	}
	tail := fromRec[len(fromRec)-len(m.msgs[len(m.msgs)-10:]):]
	for i, msg := range m.msgs[len(m.msgs)-10:] {
		if string(msg.AppendLine(nil, rules.Xiangqi9x10)) != string(tail[i].AppendLine(nil, rules.Xiangqi9x10)) {
			t.Errorf("recorded line %v, reported %v", tail[i], msg)
		}
	}
}
