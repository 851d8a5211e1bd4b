package broadcast

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// leakHall is a daemon with users, a public delay of an hour, one live
// move, its KV state and one alert already sent: what a staff user may
// try to push into places it must not reach.
type leakHall struct {
	srv *Server
	p   *Publisher
	// daemon is a connection in the daemon's account: what it hears on
	// <p>.public.> is what the spectators' view is fed.
	daemon *nats.Conn
	js     jetstream.JetStream
	// view counts what reaches <p>.public.> where the daemon reads it.
	view chan *nats.Msg
}

func newLeakHall(t *testing.T) *leakHall {
	t.Helper()
	srv := startServer(t, t.TempDir(), testUsers...)
	t.Cleanup(srv.Shutdown)
	p := newDaemonPublisher(t, srv, time.Hour)
	runPublisher(t, p)
	waitFor(t, "publisher connected", 5*time.Second, func() bool { return p.Health() == nil })
	if err := p.PublishMove(move(1, 0)); err != nil {
		t.Fatal(err)
	}
	if err := p.PublishState(game.GameState{Game: testGame, Event: testGame.Event, Round: 1, Board: 1, SAN: []string{"e4"}, Moves: []string{"e2e4"}, Result: "*"}); err != nil {
		t.Fatal(err)
	}
	if err := p.PublishAlert(testAlert()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "live messages sent", 5*time.Second, func() bool { return p.Pending() <= 2 }) // the public copies wait an hour
	h := &leakHall{srv: srv, p: p, daemon: srv.mustConnect(t), view: make(chan *nats.Msg, 64)}
	if _, err := h.daemon.ChanSubscribe(testPrefix+".public.>", h.view); err != nil {
		t.Fatal(err)
	}
	if err := h.daemon.Flush(); err != nil {
		t.Fatal(err)
	}
	var err error
	if h.js, err = jetstream.New(h.daemon); err != nil {
		t.Fatal(err)
	}
	return h
}

// msgs is how many messages stream holds.
func (h *leakHall) msgs(t *testing.T, stream string) uint64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s, err := h.js.Stream(ctx, stream)
	if err != nil {
		t.Fatalf("stream %s: %v", stream, err)
	}
	return s.CachedInfo().State.Msgs
}

// clean fails the test when anything reached the public copy: the PUBLIC
// stream (the HTTP PGN and the Lichess push are rebuilt from it), the
// subjects the spectators' view reads, or the public user w.
func (h *leakHall) clean(t *testing.T, what string, w *publicWatch) {
	t.Helper()
	// A grace period, not a wait on an event: what is checked is that
	// nothing arrives, and the attacks here (JetStream API requests, which
	// the server hands to a pool of workers, and push consumers, which
	// deliver from a loop of their own) keep no order with any message the
	// test could wait for. Whatever the server was made to publish would
	// have been routed well within it.
	time.Sleep(200 * time.Millisecond)
	if n := h.msgs(t, "DGT_PUBLIC"); n != 0 {
		t.Errorf("%s: the PUBLIC stream holds %d message(s) an hour before the delay", what, n)
	}
	if err := h.daemon.Flush(); err != nil {
		t.Fatal(err)
	}
	if n := len(h.view); n != 0 {
		t.Errorf("%s: %d message(s) on <p>.public.> where the spectators' view reads it (%s)", what, n, (<-h.view).Subject)
	}
	if w != nil {
		if n := w.settle(t); n != 0 {
			t.Errorf("%s: the public user got %d message(s)", what, n)
		}
	}
}

func testAlert() game.Alert { return game.Alert{ID: "a1", Game: testGame, Kind: "flag_fall"} }

// TestLeakDirectGetIntoPublic: an organiser asks the server for the live
// record (the KV state, then the last move of the GAMES stream) with a
// public subject as the reply subject. Neither the public stream, nor the
// view's subjects, nor a public user may get it.
func TestLeakDirectGetIntoPublic(t *testing.T) {
	h := newLeakHall(t)
	w := watchPublic(t, h.srv)
	org := connectAs(t, h.srv, "hall", "hall-pw")
	for _, req := range []struct{ api, body, reply string }{
		{"$JS.API.DIRECT.GET.KV_dgt_games", `{"last_by_subj":"$KV.dgt_games.open2026.1.1"}`, testPrefix + ".public.open2026.1.1.state"},
		{"$JS.API.DIRECT.GET.DGT_GAMES", `{"last_by_subj":"dgt.game.open2026.1.1.move"}`, testPrefix + ".public.open2026.1.1.move"},
		{"$JS.API.STREAM.MSG.GET.DGT_GAMES", `{"last_by_subj":"dgt.game.open2026.1.1.move"}`, testPrefix + ".public.open2026.1.1.move"},
	} {
		if err := org.nc.PublishRequest(req.api, req.reply, []byte(req.body)); err != nil {
			t.Fatal(err)
		}
		if err := org.nc.Flush(); err != nil {
			t.Fatal(err)
		}
		h.clean(t, req.api+" replied to "+req.reply, w)
	}
}

// TestLeakPushConsumerIntoPublic: an organiser makes a push consumer on
// the live streams deliver into <p>.public.<g>.move.
func TestLeakPushConsumerIntoPublic(t *testing.T) {
	h := newLeakHall(t)
	w := watchPublic(t, h.srv)
	org := connectAs(t, h.srv, "hall", "hall-pw")
	for _, stream := range []string{"DGT_GAMES", "KV_dgt_games"} {
		target := testPrefix + ".public.open2026.1.1.move"
		body, _ := json.Marshal(map[string]any{"stream_name": stream, "config": map[string]any{
			"deliver_subject": target, "ack_policy": "none", "deliver_policy": "all"}})
		if m, err := org.nc.Request("$JS.API.CONSUMER.CREATE."+stream, body, 2*time.Second); err == nil {
			var r struct {
				Error *struct{ Description string } `json:"error"`
			}
			if json.Unmarshal(m.Data, &r) == nil && r.Error == nil {
				t.Errorf("push consumer on %s delivering to %s created", stream, target)
			}
		}
		h.clean(t, "push consumer on "+stream+" delivering to "+target, w)
	}
}

// TestLeakDaemonInbox: an organiser subscribed to _INBOX.> (and to the
// daemon's own prefix) while the daemon publishes a live move and an
// arbiter asks for the live PGN: it must see neither the daemon's
// JetStream acknowledgements nor the arbiter's reply.
func TestLeakDaemonInbox(t *testing.T) {
	h := newLeakHall(t)
	org := connectAs(t, h.srv, "hall", "hall-pw")
	arb := connectAs(t, h.srv, "arb", "arb-pw")
	got := make(chan *nats.Msg, 64)
	for _, subj := range []string{"_INBOX.>", "_INBOX_dgtbridge.>", ArbiterInboxPrefix + ".>"} {
		if _, err := org.nc.ChanSubscribe(subj, got); err != nil {
			t.Fatal(err)
		}
	}
	if err := org.nc.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := h.p.PublishMove(move(2, 0)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "live move acknowledged", 5*time.Second, func() bool { return h.p.Pending() <= 3 })
	for _, c := range []*nats.Conn{arb.nc, h.daemon} {
		if _, err := c.Request(testPrefix+".api.pgn.open2026.1", nil, 5*time.Second); err != nil {
			t.Fatalf("live PGN: %v", err)
		}
	}
	// Each reply and acknowledgement went to every subscription it matched
	// in one pass before it reached its owner (who has it: the requests
	// returned, the publisher counted the ack); the organiser's round trip
	// then proves its connection has read, into got, all it was sent.
	if err := org.nc.Flush(); err != nil {
		t.Fatal(err)
	}
	if n := len(got); n > 0 {
		t.Errorf("the organiser read %d message(s) on other users' inboxes, the first on %s", n, (<-got).Subject)
	}
}

// TestLeakAlertsStream: the reply trick aimed at an alert subject must not
// store anything in the ALERTS stream (nor show on the arbiters' alert
// subject), whoever plays it.
func TestLeakAlertsStream(t *testing.T) {
	h := newLeakHall(t)
	before := h.msgs(t, "DGT_ALERTS")
	alerts := make(chan *nats.Msg, 16)
	if _, err := h.daemon.ChanSubscribe(testPrefix+".arbiter.*.*.*.alert", alerts); err != nil {
		t.Fatal(err)
	}
	h.daemon.Flush()
	get := []byte(`{"last_by_subj":"dgt.game.open2026.1.1.move"}`)
	for _, who := range []struct{ user, pw string }{{"hall", "hall-pw"}, {"arb", "arb-pw"}} {
		c := connectAs(t, h.srv, who.user, who.pw)
		if err := c.nc.PublishRequest("$JS.API.DIRECT.GET.DGT_GAMES", testPrefix+".arbiter.open2026.1.1.alert", get); err != nil {
			t.Fatal(err)
		}
		// The same get answered to the user's own inbox: the server takes a
		// connection's messages in order and a stream sends its direct-get
		// answers from one queue, so once this answer is in, the one aimed
		// at the alert subject has been delivered (or refused).
		if _, err := c.nc.Request("$JS.API.DIRECT.GET.DGT_GAMES", get, 5*time.Second); err != nil {
			t.Fatalf("%s's own direct get: %v", who.user, err)
		}
	}
	// A real alert after them, acknowledged once stored: the stream stores
	// what reaches it in order, and the daemon's subscription got what the
	// stream got in the same pass.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := h.js.Publish(ctx, testPrefix+".arbiter.open2026.1.1.alert", []byte(`{"id":"witness"}`)); err != nil {
		t.Fatalf("the witness alert: %v", err)
	}
	if n := h.msgs(t, "DGT_ALERTS"); n != before+1 {
		t.Errorf("ALERTS holds %d messages after the reply trick and one alert, %d before", n, before)
	}
	if err := h.daemon.Flush(); err != nil {
		t.Fatal(err)
	}
	if n := len(alerts); n != 1 {
		t.Errorf("%d message(s) on the alert subject where the daemon reads it: want only the witness alert", n)
	} else if m := <-alerts; string(m.Data) != `{"id":"witness"}` {
		t.Errorf("the daemon read %q on the alert subject: want only the witness alert", m.Data)
	}
}

// TestLeakIntoSpectatorsView: the spectators' view, fed as the daemon
// feeds it (its own connection's <p>.public.>), still shows the start
// position an hour before the delay after an organiser aimed the live
// move and state at the public subjects (direct gets with a public reply
// subject, a push consumer delivering there).
func TestLeakIntoSpectatorsView(t *testing.T) {
	h := newLeakHall(t)
	s, _ := NewSubjects(testPrefix)
	w, err := NewWeb(WebOptions{Subjects: s, EventID: testGame.Event, Connect: h.srv.Dialer(), Public: h.p.Public(),
		Boards: []WebBoard{{Game: testGame, White: "A", Black: "B"}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = w.Run(ctx) }()
	waitFor(t, "web subscription", 5*time.Second, func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.subscribed
	})
	org := connectAs(t, h.srv, "hall", "hall-pw")
	for _, req := range []struct{ api, body, reply string }{
		{"$JS.API.DIRECT.GET.KV_dgt_games", `{"last_by_subj":"$KV.dgt_games.open2026.1.1"}`, testPrefix + ".public.open2026.1.1.state"},
		{"$JS.API.DIRECT.GET.DGT_GAMES", `{"last_by_subj":"dgt.game.open2026.1.1.move"}`, testPrefix + ".public.open2026.1.1.move"},
		{"$JS.API.CONSUMER.CREATE.DGT_GAMES", `{"stream_name":"DGT_GAMES","config":{"deliver_subject":"dgt.public.open2026.1.1.move","ack_policy":"none"}}`, "_INBOX.x"},
	} {
		if err := org.nc.PublishRequest(req.api, req.reply, []byte(req.body)); err != nil {
			t.Fatal(err)
		}
	}
	org.nc.Flush()
	// A grace period for an absence: the JetStream API's workers and the
	// consumer's delivery loop keep no order with anything to wait for.
	time.Sleep(500 * time.Millisecond)
	if b := w.snapshot().Boards[0]; b.Ply != 0 || b.Last != nil {
		t.Errorf("the spectators' view shows ply %d (%+v) an hour before the delay", b.Ply, b.Last)
	}
}
