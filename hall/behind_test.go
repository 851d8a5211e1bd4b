package hall

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// stallingClock is a hall's clock that holds the calling goroutine for
// hold every every-th call: the board's goroutine (it reads the clock at
// every tick) stops for that long now and then, as on a saturated CPU,
// while its link goes on reading and queueing the board's messages.
type stallingClock struct {
	n       atomic.Int64
	every   int64
	hold    time.Duration
	stalled atomic.Int64
}

func (c *stallingClock) now() time.Time {
	if c.n.Add(1)%c.every == 0 {
		time.Sleep(c.hold)
		c.stalled.Add(1)
	}
	return time.Now()
}

// TestHallBehindNoFalseAlerts: a board's goroutine stopped for 2 s
// every 1.5 s or so of ticks (so the board's messages and clock readings wait, read
// but not handled, while ticks keep coming) plays 12 plies of a clean game
// with a DGT 3000: every move is recorded once and in order, judged by the
// times the messages were read, and no clock or board alert is raised; the
// hall says it is behind while it is. Before (a tick stamped at the time it
// was handled, ahead of the messages waiting), the clock model judged the
// wait: clock_defect and clock_setting alerts on this clean game.
func TestHallBehindNoFalseAlerts(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: a 25 s game on a pty")
	}
	ucis := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7", "f1e1", "b7b5"}
	dir := t.TempDir()
	srv := testServer(t, filepath.Join(dir, "nats"))
	defer srv.Shutdown()
	b := newPTYBoard(t, emu.Setup{Serial: "00061"})
	g := game.ID{Event: "open2026", Round: 6, Board: 1}
	hb := boardFor(t, "r6-b1", g, b.Open)
	p, err := broadcast.NewPublisher(broadcast.Options{Prefix: testPrefix, Dir: filepath.Join(dir, "data", "outbox"), Connect: srv.Dialer(),
		MinBackoff: 10 * time.Millisecond, MaxBackoff: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	subj, _ := broadcast.NewSubjects(testPrefix)
	clk := &stallingClock{every: 30, hold: 2 * time.Second}
	h, err := New(Options{Boards: []Board{hb}, Sink: p, Now: clk.now,
		DataDir: filepath.Join(dir, "data"), Subjects: subj, Requests: p.Responder()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	d := &daemon{h: h, p: p, cancel: cancel, done: make(chan error, 2)}
	go func() { d.done <- p.Run(ctx) }()
	go func() { d.done <- h.Run(ctx) }()
	t.Cleanup(d.stop)
	waitConnected(t, h)
	f := &hallFixture{srv: srv, g: g, d: d, b: b}
	_, alerts := f.alerts(t)

	var behind sync.Once
	sawBehind := false
	b.e.Schedule(time.Now(), script(t, ucis...))
	if !waitUntil(90*time.Second, func() bool {
		if len(h.Backlog()) > 0 {
			behind.Do(func() { sawBehind = true })
		}
		return f.moves() >= len(ucis)
	}) {
		r, _ := h.Record(g)
		t.Fatalf("moves %v, want %v", r.UCIs(), ucis)
	}
	time.Sleep(2 * time.Second) // room for a late alert or a stray completion
	r, _ := h.Record(g)
	if got := strings.Join(r.UCIs(), " "); got != strings.Join(ucis, " ") {
		t.Errorf("record\n got %s\nwant %s", got, strings.Join(ucis, " "))
	}
	var false_ []string
	for len(alerts) > 0 {
		var a game.Alert
		if decode(t, (<-alerts).Data, &a) {
			false_ = append(false_, a.Kind+": "+a.Message)
		}
	}
	if len(false_) > 0 {
		t.Errorf("%d alert(s) on a clean game:\n%s", len(false_), strings.Join(false_, "\n"))
	}
	if !sawBehind {
		t.Errorf("the hall never said it was behind (%d stalls, max lag %v s, %d drained)", clk.stalled.Load(), h.pace.lag.Quantile(1), h.pace.drained.Load())
	}
}
