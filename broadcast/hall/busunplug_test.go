package hall

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
)

// TestHallBusBoardUnplugged: of two boards on one DGT bus line (emulated,
// on a real pty), one is unplugged from the line mid-game and plugged back:
// its game gets exactly one board_disconnected alert (crit) and one info
// alert when the line finds it again; the other game gets none; no move
// of either game is lost.
func TestHallBusBoardUnplugged(t *testing.T) {
	dir := t.TempDir()
	srv := testServer(t, filepath.Join(dir, "nats"))
	defer srv.Shutdown()
	bl := newTestBusLine(t, 5, 200)
	e1, e2, line := bl.e1, bl.e2, bl.line
	g1, g2, b1, b2 := bl.g1, bl.g2, bl.b1, bl.b2

	p, err := broadcast.NewPublisher(broadcast.Options{Prefix: testPrefix, Dir: filepath.Join(dir, "data", "outbox"), Connect: srv.Dialer(),
		MinBackoff: 10 * time.Millisecond, MaxBackoff: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	subj, _ := broadcast.NewSubjects(testPrefix)
	h, err := New(Options{Boards: []Board{b1, b2}, Sink: p, DataDir: filepath.Join(dir, "data"), Subjects: subj,
		Requests: p.Responder(), BusRediscover: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	hctx, hcancel := context.WithCancel(context.Background())
	d := &daemon{h: h, p: p, cancel: hcancel, done: make(chan error, 2)}
	go func() { d.done <- p.Run(hctx) }()
	go func() { d.done <- h.Run(hctx) }()
	t.Cleanup(d.stop)
	waitConnected(t, h)

	arb := connect(t, srv, "arb", "arb-pw", nats.CustomInboxPrefix(broadcast.ArbiterInboxPrefix))
	alerts := make(chan *nats.Msg, 256)
	if _, err := arb.ChanSubscribe(testPrefix+".arbiter.open2026.5.*.alert", alerts); err != nil {
		t.Fatal(err)
	}
	arb.Flush()
	moves := func(g game.ID) int { r, _ := h.Record(g); return len(r.Moves) }

	game1 := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"}
	game2 := []string{"d2d4", "g8f6", "c2c4", "e7e6", "g1f3", "d7d5"}
	e1.Schedule(time.Now(), scriptThink(t, time.Second, game1...))
	e2.Schedule(time.Now(), scriptFrom(t, nil, time.Second, game2[:2]...))
	waitFor(t, 30*time.Second, "board 2's two moves", func() bool { return moves(g2) >= 2 })
	line.Unplug(202)
	waitFor(t, 20*time.Second, "board 2 lost", func() bool { _, dis := h.Summary(); return dis == 1 })
	e2.Schedule(time.Now(), scriptFrom(t, game2[:2], 300*time.Millisecond, game2[2])) // made while it is away
	time.Sleep(2 * time.Second)
	line.Plug(202)
	waitConnected(t, h)
	e2.Schedule(time.Now(), scriptFrom(t, game2[:3], time.Second, game2[3:]...))

	for _, c := range []struct {
		g    game.ID
		want []string
	}{{g1, game1}, {g2, game2}} {
		if !waitUntil(40*time.Second, func() bool { return moves(c.g) >= len(c.want) }) {
			r, _ := h.Record(c.g)
			t.Fatalf("game %s: moves %v, want %v", c.g, r.UCIs(), c.want)
		}
		r, _ := h.Record(c.g)
		if got := strings.Join(r.UCIs(), " "); got != strings.Join(c.want, " ") {
			t.Errorf("game %s: moves %s, want %s", c.g, got, strings.Join(c.want, " "))
		}
	}
	var seen []string
	for done := false; !done; {
		select {
		case m := <-alerts:
			var al game.Alert
			decode(t, m.Data, &al)
			switch al.Kind {
			case game.KindBoardDisconnected, game.KindClockDisconnected:
				seen = append(seen, fmt.Sprintf("%s:%s/%s", al.Game, al.Kind, al.Severity))
			case game.KindClockDefect, game.KindFlagFall:
				t.Errorf("alert %s %s: %s", al.Game, al.Kind, al.Message)
			}
		case <-time.After(2 * time.Second):
			done = true
		}
	}
	want := "open2026.5.2:board_disconnected/crit open2026.5.2:board_disconnected/info"
	if got := strings.Join(seen, " "); got != want {
		t.Errorf("device alerts\n got %s\nwant %s", got, want)
	}
}
