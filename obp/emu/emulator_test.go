package emu

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/obp"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi"
)

var t0 = time.Date(2026, 2, 8, 8, 0, 0, 0, time.UTC)

// host is a test host: it decodes what the board sends, mirrors the
// board from the lifts and puts, and keeps the lines.
type host struct {
	d      *obp.Decoder
	msgs   []obp.Message
	errs   []error
	mirror rules.Placement
}

func newHost(g rules.Geometry) *host {
	return &host{d: obp.NewDecoder(g), mirror: StartArray(g)}
}

func (h *host) read(b []byte) {
	h.d.Feed(b)
	for {
		m, err := h.d.Next()
		if errors.Is(err, obp.ErrNeedMore) {
			return
		}
		if err != nil {
			h.errs = append(h.errs, err)
			continue
		}
		h.msgs = append(h.msgs, m)
		switch m := m.(type) {
		case obp.Lift:
			h.mirror.Sq[m.Square] = rules.NoPiece
		case obp.Put:
			h.mirror.Sq[m.Square] = m.Piece
		case obp.Board:
			h.mirror = m.Placement
		}
	}
}

// run advances e from its start to end in steps, feeding h.
func run(e *Emulator, h *host, end time.Duration) {
	for d := time.Duration(0); d <= end; d += 37 * time.Millisecond {
		e.Advance(t0.Add(d))
		h.read(e.Output())
	}
}

func mustNew(t *testing.T, o Options) *Emulator {
	t.Helper()
	e, err := New(o, t0)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestHostCommands: I, B and C are answered; the board ignores what it
// does not understand.
func TestHostCommands(t *testing.T) {
	for _, tc := range []struct {
		o     Options
		ident string
		clock string
	}{
		{Options{Serial: "XQ0042"}, "I OBP/1 9x10 XQ0042 id", "C 900000 900000 0"},
		{Options{Geo: rules.Chess8x8, Serial: "DIY", Occupancy: true, NoClock: true}, "I OBP/1 8x8 DIY occupancy", "C none"},
	} {
		e := mustNew(t, tc.o)
		e.Input(t0.Add(time.Second), []byte("\nI\r\nX\nB\nC\n"))
		lines := strings.Split(strings.TrimSpace(string(e.Output())), "\n")
		if len(lines) != 3 {
			t.Fatalf("answers %q, want 3 lines", lines)
		}
		if !strings.HasPrefix(lines[0], tc.ident+"*") || !strings.HasPrefix(lines[2], tc.clock+" @1000*") {
			t.Errorf("answers %q, want %q and %q", lines, tc.ident, tc.clock)
		}
		h := newHost(e.Geometry())
		h.mirror = rules.NewPlacement(e.Geometry())
		h.read([]byte(lines[1] + "\n"))
		b, ok := h.msgs[0].(obp.Board)
		switch {
		case !ok:
			t.Errorf("B answered %q", lines[1])
		case tc.o.Occupancy && (len(b.Unidentified) != 32 || b.Placement != rules.NewPlacement(e.Geometry())):
			t.Errorf("occupancy board answered %q", lines[1])
		case !tc.o.Occupancy && b.Placement != StartArray(e.Geometry()):
			t.Errorf("board answered %q", lines[1])
		}
		if got := e.Received(); len(got) != 3 {
			t.Errorf("received %v", got)
		}
	}
}

// replay plays a game through GameScript and the emulator and checks that
// a host mirroring the lifts and puts ends at the final position, with
// one lever press per move, board timestamps that never go back, and the
// clock's lines at least once a second while it runs.
func replay(t *testing.T, start rules.Position, moves []rules.Move, o GameOptions) *host {
	t.Helper()
	s, err := GameScript(start, moves, o)
	if err != nil {
		t.Fatal(err)
	}
	e := mustNew(t, Options{Geo: start.Geometry(), Base: 10 * time.Minute, Increment: 5 * time.Second})
	e.Schedule(t0, s)
	h := newHost(start.Geometry())
	run(e, h, s.Duration()+3*time.Second)
	if e.Pending() != 0 {
		t.Fatalf("%d actions left", e.Pending())
	}
	final := start
	for _, m := range moves {
		final, _ = final.Play(m)
	}
	if h.mirror != final.Placement() || e.Placement() != final.Placement() {
		t.Fatalf("host mirror %s, board %s, want %s", str(h.mirror), str(e.Placement()), str(final.Placement()))
	}
	var last uint64
	switches := 0
	running := rules.NoColor
	var lastClock uint64
	for _, m := range h.msgs {
		st := m.BoardTime()
		if !st.Set || st.MS < last {
			t.Fatalf("line %#v: stamp %v after %d", m, st, last)
		}
		if c, ok := m.(obp.Clock); ok {
			if lastClock > 0 && st.MS-lastClock > 1000 {
				t.Errorf("clock silent from %d to %d ms", lastClock, st.MS)
			}
			lastClock = st.MS
			if c.Running != running {
				switches++
				running = c.Running
			}
		}
		last = st.MS
	}
	if switches != len(moves)+1 {
		t.Errorf("the running clock changed %d times, want %d (the start and one lever per move)", switches, len(moves)+1)
	}
	if len(h.errs) != 0 {
		t.Errorf("errors %v", h.errs)
	}
	return h
}

// TestXiangqiGame: the opening of the worked examples of Art. 11.2 and a capture,
// with incidents on every move.
func TestXiangqiGame(t *testing.T) {
	p := xiangqi.StartPosition()
	var moves []rules.Move
	q := p
	for _, u := range []string{"h2e2", "b9c7", "b0c2", "h7e7", "e2e6", "c7e6", "i0i1", "a9a8", "i1f1", "e7e3"} {
		m, err := q.ParseMove(u)
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		moves = append(moves, m)
		q, _ = q.PlayMove(m)
	}
	h := replay(t, p, moves, GameOptions{Seed: 3, Speed: 4, Incidents: 0.5})
	lifts := 0
	for _, m := range h.msgs {
		if _, ok := m.(obp.Lift); ok {
			lifts++
		}
	}
	if lifts <= len(moves)+2 {
		t.Errorf("%d lifts for %d moves with two captures and incidents: the hands are too tidy", lifts, len(moves))
	}
}

// TestChessGame: castling on both wings, en passant and a promotion come
// out as the squares change.
func TestChessGame(t *testing.T) {
	start, err := chess.NewPosition(chess.Standard, "r3k3/8/8/3Pp3/8/8/Pp6/4K2R w Kq e6 0 1")
	if err != nil {
		t.Fatal(err)
	}
	var moves []rules.Move
	var q rules.Position = start
	for _, u := range []string{"d5e6", "e8c8", "e1g1", "b2b1q"} {
		m, err := q.ParseMove(u)
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		moves = append(moves, m)
		q, _ = q.Play(m)
	}
	s, err := GameScript(start, moves, GameOptions{Seed: 1, Speed: 4})
	if err != nil {
		t.Fatal(err)
	}
	e := mustNew(t, Options{Geo: rules.Chess8x8, Placement: ptr(start.Placement())})
	e.Schedule(t0, s)
	h := newHost(rules.Chess8x8)
	h.mirror = start.Placement()
	run(e, h, s.Duration()+time.Second)
	if h.mirror != q.Placement() {
		t.Fatalf("mirror %s, want %s", str(h.mirror), str(q.Placement()))
	}
}

func ptr[T any](v T) *T { return &v }

// TestBadLines: with a noisy wire some lines are lost; the board's answer
// to B still gives the host the whole position.
func TestBadLines(t *testing.T) {
	p := xiangqi.StartPosition()
	var moves []rules.Move
	q := p
	for i := 0; i < 20; i++ {
		ms := q.LegalMoves(nil)
		m := ms[(i*7)%len(ms)]
		moves = append(moves, m)
		q, _ = q.PlayMove(m)
	}
	s, err := GameScript(p, moves, GameOptions{Seed: 5, Speed: 8})
	if err != nil {
		t.Fatal(err)
	}
	e := mustNew(t, Options{BadLines: 0.2, Seed: 9})
	e.Schedule(t0, s)
	h := newHost(rules.Xiangqi9x10)
	run(e, h, s.Duration()+time.Second)
	sent, damaged := e.Lines()
	if damaged == 0 || len(h.errs) != damaged {
		t.Fatalf("%d of %d lines damaged, host saw %d bad lines", damaged, sent, len(h.errs))
	}
	e.Input(t0.Add(s.Duration()+2*time.Second), []byte("B\n"))
	for i := 0; i < 20 && h.mirror != q.Placement(); i++ {
		h.read(e.Output())
		e.Input(t0.Add(s.Duration()+2*time.Second), []byte("B\n")) // the answer may be damaged too
	}
	if h.mirror != q.Placement() {
		t.Fatalf("after B the host has %s, want %s", str(h.mirror), str(q.Placement()))
	}
}

// TestClock: the lever starts the other side's clock, time runs down,
// the increment is added to the side that pressed, and a running clock
// reports itself every second.
func TestClock(t *testing.T) {
	e := mustNew(t, Options{Base: time.Minute, Increment: 2 * time.Second})
	e.Schedule(t0, Script{
		{At: time.Second, Action: Lever{Side: rules.Black}},
		{At: 11 * time.Second, Action: Lever{Side: rules.White}},
		{At: 12 * time.Second, Action: Lever{Side: rules.White}}, // already down: nothing
		{At: 14 * time.Second, Action: Lever{Side: rules.Black}},
	})
	h := newHost(rules.Xiangqi9x10)
	run(e, h, 20*time.Second)
	e.Advance(t0.Add(20 * time.Second))
	first, second, running := e.Clock()
	// White: 60 − 10 (1 s to 11 s) + 2 − 6 (14 s to 20 s); Black: 60 − 3 + 2.
	if first != 46*time.Second || second != 59*time.Second || running != rules.White {
		t.Errorf("clock %v %v %v", first, second, running)
	}
	var clocks int
	for _, m := range h.msgs {
		if _, ok := m.(obp.Clock); ok {
			clocks++
		}
	}
	if clocks < 19 || clocks > 22 {
		t.Errorf("%d clock lines in 19 s of running clock", clocks)
	}
}

func str(p rules.Placement) string { return p.String() }
