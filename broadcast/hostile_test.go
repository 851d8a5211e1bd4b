package broadcast

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// publicWatch is a public user subscribed to everything it may read: the
// public copy and its inboxes. Every message it gets is counted.
type publicWatch struct {
	c    *client
	got  atomic.Int64
	msgs chan *nats.Msg
}

func watchPublic(t *testing.T, srv *Server) *publicWatch {
	t.Helper()
	w := &publicWatch{c: connectAs(t, srv, "viewer", "viewer-pw", nats.CustomInboxPrefix(PublicInboxPrefix)), msgs: make(chan *nats.Msg, 1024)}
	for _, s := range []string{testPrefix + ".public.>", PublicInboxPrefix + ".>"} {
		if _, err := w.c.nc.Subscribe(s, func(m *nats.Msg) { w.got.Add(1); w.msgs <- m }); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.c.nc.Flush(); err != nil {
		t.Fatal(err)
	}
	return w
}

// settle makes sure everything the server delivered to the public user
// before this call has been counted: a round trip through the server on
// the public user's own connection (the server delivers a message to
// every interested subscription in one pass, so what the organiser's own
// witness got the public user got at the same time, or never).
func (w *publicWatch) settle(t *testing.T) int64 {
	t.Helper()
	if err := w.c.nc.Flush(); err != nil {
		t.Fatal(err)
	}
	return w.got.Load()
}

// witness subscribes the organiser to subject and returns a channel that
// receives what the server delivers there: proof that a hostile delivery
// happened, so the public user's count can be read after it.
func witness(t *testing.T, c *client, subject string) chan *nats.Msg {
	t.Helper()
	ch := make(chan *nats.Msg, 64)
	if _, err := c.nc.ChanSubscribe(subject, ch); err != nil {
		t.Fatal(err)
	}
	if err := c.nc.Flush(); err != nil {
		t.Fatal(err)
	}
	return ch
}

func await(t *testing.T, what string, ch chan *nats.Msg) *nats.Msg {
	t.Helper()
	select {
	case m := <-ch:
		return m
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: the server never delivered it", what)
		return nil
	}
}

// TestHostileOrganiser: an organiser (real nats-server user) tries every
// way to get the live moves to public users before the public delay (one
// hour here): a push consumer delivering to <p>.public.…, a pull consumer
// and a direct get whose replies are aimed at a public subject, messages
// on the public users' inboxes, and the live PGN asked for with a public
// inbox as reply subject. The public user, subscribed to all it may read,
// gets nothing.
func TestHostileOrganiser(t *testing.T) {
	srv := startServer(t, t.TempDir(), testUsers...)
	defer srv.Shutdown()
	p := newDaemonPublisher(t, srv, time.Hour)
	runPublisher(t, p)
	waitFor(t, "publisher connected", 5*time.Second, func() bool { return p.Health() == nil })
	for i := 1; i <= 3; i++ {
		if err := p.PublishMove(move(i, 0)); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "live moves sent", 5*time.Second, func() bool { return p.Pending() <= 3 }) // the public copies wait an hour

	pub := watchPublic(t, srv)
	org := connectAs(t, srv, "hall", "hall-pw")
	js, err := jetstream.New(org.nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	leaked := map[string]int64{}
	check := func(name string) {
		t.Helper()
		if n := pub.settle(t); n > 0 {
			leaked[name] = n
			pub.got.Store(0)
			for len(pub.msgs) > 0 {
				<-pub.msgs
			}
		}
	}

	// 1. A push consumer on GAMES delivering to a public subject.
	target := testPrefix + ".public.open2026.1.1.move"
	seen := witness(t, org, target)
	_, err = js.CreateOrUpdateConsumer(ctx, "DGT_GAMES", jetstream.ConsumerConfig{
		DeliverSubject: target, AckPolicy: jetstream.AckNonePolicy})
	if err == nil {
		await(t, "push consumer delivery", seen)
	}
	check("push consumer to " + target)

	// 2. A pull consumer whose fetch reply is a public subject.
	target = testPrefix + ".public.open2026.1.2.move"
	seen = witness(t, org, target)
	cons, err := js.CreateOrUpdateConsumer(ctx, "DGT_GAMES", jetstream.ConsumerConfig{Durable: "spy", AckPolicy: jetstream.AckNonePolicy})
	if err == nil {
		req, _ := json.Marshal(map[string]any{"batch": 1, "no_wait": true})
		if err := org.nc.PublishRequest("$JS.API.CONSUMER.MSG.NEXT.DGT_GAMES."+cons.CachedInfo().Name, target, req); err != nil {
			t.Fatal(err)
		}
		await(t, "pull reply", seen)
	}
	check("pull consumer reply to " + target)

	// 3. A direct get of the live move, replied to a public subject.
	target = testPrefix + ".public.open2026.1.3.move"
	seen = witness(t, org, target)
	if err := org.nc.PublishRequest("$JS.API.DIRECT.GET.DGT_GAMES", target, []byte(`{"last_by_subj":"dgt.game.open2026.1.1.move"}`)); err != nil {
		t.Fatal(err)
	}
	await(t, "direct get reply", seen)
	check("direct get reply to " + target)

	// 4. A message on a public inbox.
	inbox := PublicInboxPrefix + ".spy"
	seenInbox := witness(t, org, inbox)
	org.nc.Publish(inbox, []byte("live"))
	org.nc.Flush()
	// Delivered (the witness got it) or denied (the permission violation is
	// the proof), whichever comes.
	for deadline, done := time.After(10*time.Second), false; !done; {
		select {
		case <-seenInbox:
			done = true
		case err := <-org.errs:
			done = errors.Is(err, nats.ErrPermissionViolation) && strings.Contains(err.Error(), inbox)
		case <-deadline:
			t.Error("publishing on a public inbox was neither delivered nor denied")
			done = true
		}
	}
	check("publish on " + inbox)

	// 5. The live PGN asked for with a public inbox as the reply subject:
	// the reply goes back to the organiser's own account.
	if err := org.nc.PublishRequest(testPrefix+".api.pgn.open2026.1", inbox, nil); err != nil {
		t.Fatal(err)
	}
	org.nc.Flush()
	// A grace period for an absence: the responder answers each request on
	// a goroutine of its own, so no later message keeps an order with the
	// reply this request would get.
	time.Sleep(300 * time.Millisecond)
	check("live PGN replied to " + inbox)

	for what, n := range leaked {
		t.Errorf("public user got %d live message(s) through: %s", n, what)
	}
}

// TestHostilePublic: a public user aims the public PGN reply at a public
// feed subject (refused, nothing published there), tries the JetStream API
// and subscriptions outside the public copy (permission violations), and
// still gets the public copy and its own PGN replies.
func TestHostilePublic(t *testing.T) {
	srv := startServer(t, t.TempDir(), testUsers...)
	defer srv.Shutdown()
	p := newDaemonPublisher(t, srv, 0)
	runPublisher(t, p)
	waitFor(t, "publisher connected", 5*time.Second, func() bool { return p.Health() == nil })
	pub := watchPublic(t, srv)
	viewer := pub.c

	if err := viewer.nc.PublishRequest(testPrefix+".api.pgn.public.open2026.1", testPrefix+".public.open2026.1.1.move", nil); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "request refused", 5*time.Second, func() bool { return p.Responder().Refused() == 1 })
	if n := pub.settle(t); n != 0 {
		t.Errorf("%d message(s) reached the public subjects", n)
	}
	for _, subj := range []string{"$JS.API.INFO", "$JS.API.STREAM.NAMES", "$KV.dgt_games.open2026.1.1"} {
		viewer.nc.Publish(subj, nil)
		viewer.nc.Flush()
		if !viewer.violation(subj, 5*time.Second) {
			t.Errorf("public published on %s without a permission violation", subj)
		}
	}
	for _, subj := range []string{">", "$JS.>", "_INBOX.>", testPrefix + ".board.>"} {
		viewer.nc.SubscribeSync(subj)
		viewer.nc.Flush()
		if !viewer.violation(subj, 5*time.Second) {
			t.Errorf("public subscribed to %s without a permission violation", subj)
		}
	}
	if err := p.PublishMove(move(1, 0)); err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-pub.msgs:
		if m.Subject != testPrefix+".public.open2026.1.1.move" {
			t.Errorf("public got %s", m.Subject)
		}
	case <-time.After(10 * time.Second):
		t.Error("the public copy never reached the public user")
	}
	if m, err := viewer.nc.Request(testPrefix+".api.pgn.public.open2026.1", nil, 5*time.Second); err != nil || m.Header.Get(headerGames) != "0" {
		t.Errorf("public PGN: %v %v", m, err)
	}
}

// TestUsersAdoptStreams: a hall that ran without users and is restarted
// with users keeps its streams (they move to the staff account): the moves
// already recorded are still there, and a move sent again is still a
// duplicate.
func TestUsersAdoptStreams(t *testing.T) {
	store := t.TempDir()
	open := startServer(t, store)
	p := newPublisher(t, t.TempDir(), open.Dialer(), 0)
	stop := runPublisher(t, p)
	p.PublishMove(move(1, 0))
	p.PublishMove(move(2, 0))
	waitFor(t, "sent", 5*time.Second, func() bool { return p.Pending() == 0 })
	stop()
	open.Shutdown()

	srv := startServer(t, store, testUsers...)
	defer srv.Shutdown()
	p2 := newDaemonPublisher(t, srv, 0)
	runPublisher(t, p2)
	p2.PublishMove(move(2, 0))
	p2.PublishMove(move(3, 0))
	waitFor(t, "sent", 5*time.Second, func() bool { return p2.Pending() == 0 })
	org := connectAs(t, srv, "hall", "hall-pw")
	if got := plies(t, streamMsgs(t, org.nc, "DGT_GAMES", "", 3, 5*time.Second)); fmt.Sprint(got) != "[1 2 3]" {
		t.Errorf("GAMES after adding users: plies %v, want [1 2 3]", got)
	}
}
