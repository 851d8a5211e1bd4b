package hall

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
)

// startSpareDaemon is startDaemon with spares.
func startSpareDaemon(t testing.TB, dataDir string, srv *broadcast.Server, spares []Spare, boards ...Board) *daemon {
	t.Helper()
	p, err := broadcast.NewPublisher(broadcast.Options{Prefix: testPrefix, Dir: dataDir + "/outbox", Connect: srv.Dialer(), RenderPGN: gamerecord.StatePGN,
		ConnectPublic: srv.PublicDialer(), MinBackoff: 10 * time.Millisecond, MaxBackoff: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	subj, _ := broadcast.NewSubjects(testPrefix)
	h, err := New(Options{Boards: boards, Spares: spares, Sink: p, DataDir: dataDir, Record: true, Subjects: subj, Requests: p.Responder(), History: p.History})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	d := &daemon{h: h, p: p, cancel: cancel, done: make(chan error, 2)}
	go func() { d.done <- p.Run(ctx) }()
	go func() { d.done <- h.Run(ctx) }()
	t.Cleanup(d.stop)
	waitConnected(t, h)
	deadline := time.Now().Add(20 * time.Second)
	for p.Health() != nil {
		if time.Now().After(deadline) {
			t.Fatalf("publisher not up after 20 s: %v", p.Health())
		}
		time.Sleep(10 * time.Millisecond)
	}
	return d
}

// TestSwitchBoardOnlyArbiters: switch_board over NATS, on pseudo-terminal
// boards. An organiser, a public user and a client without a user are
// refused (the game stays on its board); the arbiter's command is
// answered ok, and the spare is then read: the board status names its
// port. A spare that does not exist is refused with the spares named. The
// old board, plugged in again, is not read: a move on it is not the
// game's, a move on the spare is.
func TestSwitchBoardOnlyArbiters(t *testing.T) {
	integration(t)
	dir := t.TempDir()
	srv := testServer(t, filepath.Join(dir, "nats"))
	t.Cleanup(srv.Shutdown)
	own := newPTYBoard(t, emu.Setup{Serial: "04711"})
	spare := newPTYBoard(t, emu.Setup{Serial: "05000"})
	g := game.ID{Event: "open2026", Round: 1, Board: 1}
	d := startSpareDaemon(t, filepath.Join(dir, "data"), srv, []Spare{{ID: "spare-1", Port: "pty-spare", Open: spare.Open, Link: patientLink}},
		boardFor(t, "r1-b1", g, own.Open))
	subject := testPrefix + ".arbiter." + g.String() + ".cmd"
	cmd := []byte(`{"cmd":"switch_board","to":"spare-1"}`)

	org := connect(t, srv, "hall", "hall-pw")
	if _, err := org.Request(subject, cmd, 2*time.Second); err == nil {
		t.Error("an organiser's switch_board was answered")
	}
	pub := connect(t, srv, "viewer", "viewer-pw", nats.CustomInboxPrefix(broadcast.PublicInboxPrefix))
	if _, err := pub.Request(subject, cmd, 2*time.Second); err == nil {
		t.Error("a public user's switch_board was answered")
	}
	if nc, err := nats.Connect("", nats.InProcessServer(srv.NATS()), nats.Timeout(5*time.Second)); err == nil {
		if _, err := nc.Request(subject, cmd, 2*time.Second); err == nil {
			t.Error("a client without a user sent switch_board")
		}
		nc.Close()
	}
	if r, _ := d.h.Record(g); r.Spare != "" || d.h.portOf(g) != "pty" {
		t.Fatalf("after the refused commands the game is read from %q (%s)", r.Spare, d.h.portOf(g))
	}

	arb := connect(t, srv, "arb", "arb-pw", nats.CustomInboxPrefix(broadcast.ArbiterInboxPrefix))
	reply := func(body string) CommandReply {
		t.Helper()
		m, err := arb.Request(subject, []byte(body), 20*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		var cr CommandReply
		if err := json.Unmarshal(m.Data, &cr); err != nil {
			t.Fatal(err)
		}
		return cr
	}
	if cr := reply(`{"cmd":"switch_board","to":"spare-2"}`); cr.OK || !strings.Contains(cr.Error, "spare-1") {
		t.Errorf("a spare that does not exist: %+v, want refused naming spare-1", cr)
	}
	if cr := reply(string(cmd)); !cr.OK {
		t.Fatalf("the arbiter's switch_board: %+v", cr)
	}
	waitFor(t, 20*time.Second, "the spare connected", func() bool { _, dis := d.h.Summary(); return dis == 0 && d.h.portOf(g) == "pty-spare" })
	if r, _ := d.h.Record(g); r.Spare != "spare-1" {
		t.Errorf("the record says the game is read from %q", r.Spare)
	}
	// The old board plugged in again, and a move made on it: not the
	// game's. The same move on the spare is.
	own.Unplug()
	own.Plug()
	own.e.Schedule(time.Now(), script(t, "e2e4"))
	handsDone(t, own.e, 20*time.Second)
	time.Sleep(3 * time.Second)
	if r, _ := d.h.Record(g); len(r.Moves) != 0 {
		t.Fatalf("a move on the old board was recorded: %s", strings.Join(r.UCIs(), " "))
	}
	spare.e.Schedule(time.Now(), script(t, "d2d4"))
	waitFor(t, 20*time.Second, "the spare's move recorded", func() bool { r, _ := d.h.Record(g); return len(r.Moves) == 1 })
	if r, _ := d.h.Record(g); r.Moves[0].UCI != "d2d4" {
		t.Errorf("ply 1 %s, want the spare's d2d4", r.Moves[0].UCI)
	}
}

// portOf is the port game g's board reads now ("" when the hall has no
// such game).
func (h *Hall) portOf(g game.ID) string {
	br, ok := h.current(g)
	if !ok {
		return ""
	}
	return br.portNow()
}
