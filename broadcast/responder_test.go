package broadcast

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
)

// TestResponderCommands: an arbiter command reaches its handler with the
// game its subject names and gets the handler's {ok, error}; a subject
// whose game does not parse is an error reply, the handler not called; an
// organiser may not send one.
func TestResponderCommands(t *testing.T) {
	srv := startServer(t, t.TempDir(), testUsers...)
	defer srv.Shutdown()
	type call struct {
		g    game.ID
		body string
	}
	calls := make(chan call, 4)
	p := newDaemonPublisher(t, srv, 0)
	p.Responder().Handle("dgt.arbiter.*.*.*.cmd", Staff, func(_ context.Context, r Request) Reply {
		calls <- call{r.Game, string(r.Data)}
		if strings.Contains(string(r.Data), `"cmd":"bad"`) {
			return StatusReply(errors.New("unknown command bad"))
		}
		return StatusReply(nil)
	})
	runPublisher(t, p)
	waitFor(t, "connected", 5*time.Second, func() bool { return p.Health() == nil })
	arb := connectAs(t, srv, "arb", "arb-pw", nats.CustomInboxPrefix(ArbiterInboxPrefix))
	// The handler gets the body signed by the arbiter the server vouches
	// for: "by" set to its user name, whatever the body said.
	for _, tc := range []struct {
		subj, body, handled string
		want                CommandReply
		called              bool
	}{
		{"dgt.arbiter.open2026.1.1.cmd", `{"cmd":"ack","alert":"a1"}`, `{"alert":"a1","by":"arb","cmd":"ack"}`, CommandReply{OK: true}, true},
		{"dgt.arbiter.open2026.1.1.cmd", `{"cmd":"bad","by":"chief arbiter"}`, `{"by":"arb","cmd":"bad"}`, CommandReply{Error: "unknown command bad"}, true},
		{"dgt.arbiter.open2026.x.1.cmd", `{"cmd":"ack"}`, "", CommandReply{Error: `game: bad game id "open2026.x.1": round and board are numbers`}, false},
	} {
		m, err := arb.nc.Request(tc.subj, []byte(tc.body), 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		var rep CommandReply
		if err := json.Unmarshal(m.Data, &rep); err != nil || rep != tc.want {
			t.Errorf("%s %s: reply %s, want %+v", tc.subj, tc.body, m.Data, tc.want)
		}
		if !tc.called {
			continue
		}
		if c := <-calls; c.g != testGame || c.body != tc.handled {
			t.Errorf("handler got %+v", c)
		}
	}
	big := make([]byte, maxRequestBytes+1)
	if m, err := arb.nc.Request("dgt.arbiter.open2026.1.1.cmd", big, 5*time.Second); err != nil ||
		!strings.Contains(string(m.Data), `"ok":false,"error":"broadcast: request of 8193 bytes refused (at most 8192)"`) {
		t.Errorf("oversized request: %v %v", m, err)
	}
	if len(calls) != 0 {
		t.Errorf("handler called for a bad game or an oversized request: %+v", <-calls)
	}
	hall := connectAs(t, srv, "hall", "hall-pw")
	hall.nc.Request("dgt.arbiter.open2026.1.1.cmd", []byte(`{"cmd":"ack"}`), 300*time.Millisecond)
	if !hall.violation("dgt.arbiter.open2026.1.1.cmd", 2*time.Second) {
		t.Error("an organiser sent an arbiter command")
	}
}

// TestResponderForgedReply: on a server without users (one account, where
// the daemon may publish anywhere), an arbiter command whose reply subject
// is a feed subject or missing is refused: its handler never runs and
// nothing is published on the feed; before the one responder, the hall's
// own command responder published its reply on <p>.game.<g>.move, where
// the GAMES stream stored it as a move. (With users, a request reaches the
// daemon through a service import and its reply goes back to the
// requester's own account whatever it names: TestAttacker.)
func TestResponderForgedReply(t *testing.T) {
	srv := startServer(t, t.TempDir())
	defer srv.Shutdown()
	p := newDaemonPublisher(t, srv, 0)
	var called atomic.Int64
	p.Responder().Handle("dgt.arbiter.*.*.*.cmd", Staff, func(context.Context, Request) Reply {
		called.Add(1)
		return StatusReply(nil)
	})
	runPublisher(t, p)
	waitFor(t, "connected", 5*time.Second, func() bool { return p.Health() == nil })
	arb := connectAs(t, srv, "", "", nats.CustomInboxPrefix(ArbiterInboxPrefix))
	feed := arb.nc
	witness, _ := feed.SubscribeSync("dgt.game.>")
	feed.Flush()
	forged := []string{"dgt.game.open2026.1.1.move", "dgt.public.open2026.1.1.move", "", PublicInboxPrefix + ".x", "_INBOXES.x"}
	for _, reply := range forged {
		m := &nats.Msg{Subject: "dgt.arbiter.open2026.1.1.cmd", Reply: reply, Data: []byte(`{"cmd":"set_result","result":"1-0"}`)}
		if err := arb.nc.PublishMsg(m); err != nil {
			t.Fatal(err)
		}
	}
	arb.nc.Flush()
	waitFor(t, "every forged request refused", 5*time.Second, func() bool { return p.Responder().Refused() == int64(len(forged)) })
	if n := called.Load(); n != 0 {
		t.Errorf("handler ran for %d forged request(s)", n)
	}
	if m, err := witness.NextMsg(100 * time.Millisecond); err == nil {
		t.Errorf("published on the feed: %s %s", m.Subject, m.Data)
	}
	if n := len(streamMsgs(t, srv.mustConnect(t), "DGT_GAMES", "", 0, time.Second)); n != 0 {
		t.Errorf("GAMES holds %d message(s)", n)
	}
	// A proper request still works.
	if _, err := arb.nc.Request("dgt.arbiter.open2026.1.1.cmd", []byte(`{}`), 5*time.Second); err != nil || called.Load() != 1 {
		t.Errorf("proper request: %v (handler ran %d times)", err, called.Load())
	}
}

// TestResponderBusy: staff requests beyond maxStaffRequests get an error
// at once instead of queueing behind handlers that hang, and public
// requests, in a pool of their own, are still answered meanwhile.
func TestResponderBusy(t *testing.T) {
	srv := startServer(t, t.TempDir())
	defer srv.Shutdown()
	p := newDaemonPublisher(t, srv, 0)
	release := make(chan struct{})
	var started atomic.Int64
	p.Responder().Handle("dgt.arbiter.*.*.*.cmd", Staff, func(ctx context.Context, _ Request) Reply {
		started.Add(1)
		select {
		case <-release:
		case <-ctx.Done():
		}
		return StatusReply(nil)
	})
	runPublisher(t, p)
	waitFor(t, "connected", 5*time.Second, func() bool { return p.Health() == nil })
	nc := srv.mustConnect(t)
	replies := make(chan *nats.Msg, 2*maxStaffRequests)
	inbox := nats.NewInbox()
	nc.ChanSubscribe(inbox, replies)
	for range maxStaffRequests {
		nc.PublishRequest("dgt.arbiter.open2026.1.1.cmd", inbox, nil)
	}
	waitFor(t, "handlers running", 5*time.Second, func() bool { return started.Load() == maxStaffRequests })
	rep, err := nc.Request("dgt.arbiter.open2026.1.1.cmd", nil, 5*time.Second)
	var r CommandReply
	if err != nil || json.Unmarshal(rep.Data, &r) != nil || r.OK || r.Error != errBusy.Error() {
		t.Errorf("request beyond the limit: %v %v", rep, err)
	}
	if m, err := nc.Request("dgt.api.pgn.public.open2026.1", nil, 5*time.Second); err != nil || m.Header.Get(headerGames) != "0" {
		t.Errorf("public PGN while the staff pool is full: %v %v", m, err)
	}
	close(release)
	for range maxStaffRequests {
		select {
		case <-replies:
		case <-time.After(5 * time.Second):
			t.Fatal("a held request was never answered")
		}
	}
}
