package broadcast

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// auditHall is a daemon with users whose arbiter command route records
// what its handler got and holds each call until release is closed (or
// answers at once when release is nil).
type auditHall struct {
	srv   *Server
	p     *Publisher
	calls chan Request
	n     atomic.Int64
}

func newAuditHall(t *testing.T, users bool, release chan struct{}) *auditHall {
	t.Helper()
	var us []User
	if users {
		us = append(us, testUsers...)
		us = append(us, User{Name: "arb2", Password: "arb2-pw", Role: RoleArbiter})
	}
	h := &auditHall{srv: startServer(t, t.TempDir(), us...), calls: make(chan Request, 64)}
	t.Cleanup(h.srv.Shutdown)
	h.p = newDaemonPublisher(t, h.srv, 0)
	h.p.Responder().Handle("dgt.arbiter.*.*.*.cmd", Staff, func(ctx context.Context, r Request) Reply {
		n := h.n.Add(1)
		h.calls <- r
		if release != nil {
			select {
			case <-release:
			case <-ctx.Done():
			}
		}
		b, _ := json.Marshal(map[string]any{"ok": true, "error": "", "call": n})
		return Reply{Data: b}
	})
	h.p.Responder().Handle("dgt.api.relay.*.*.*.time", Staff, func(_ context.Context, r Request) Reply {
		h.calls <- r
		return StatusReply(nil)
	})
	runPublisher(t, h.p)
	waitFor(t, "connected", 5*time.Second, func() bool { return h.p.Health() == nil })
	return h
}

// TestResponderIdentity: with users, a request carries its sender as the
// server vouches for it (user and role, from the account it came from),
// and an arbiter command's "by" is that user's name even when the body
// names someone else or nobody; without users nothing is vouched for and
// the body is left as it is.
func TestResponderIdentity(t *testing.T) {
	h := newAuditHall(t, true, nil)
	arb := connectAs(t, h.srv, "arb2", "arb2-pw", nats.CustomInboxPrefix(ArbiterInboxPrefix))
	org := connectAs(t, h.srv, "hall", "hall-pw", nats.CustomInboxPrefix(OrganiserInboxPrefix))
	for _, body := range []string{`{"cmd":"set_result","result":"1-0","by":"chief arbiter"}`, `{"cmd":"set_result","result":"1-0"}`} {
		if _, err := arb.nc.Request("dgt.arbiter.open2026.1.1.cmd", []byte(body), 5*time.Second); err != nil {
			t.Fatal(err)
		}
		r := <-h.calls
		var c struct{ By, Cmd string }
		if err := json.Unmarshal(r.Data, &c); err != nil || c.By != "arb2" || c.Cmd != "set_result" {
			t.Errorf("%s: handler got %s (%v)", body, r.Data, err)
		}
		if r.From != (Identity{User: "arb2", Role: RoleArbiter, Authenticated: true}) {
			t.Errorf("from %+v", r.From)
		}
	}
	if _, err := org.nc.Request("dgt.api.relay.open2026.1.1.time", nil, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	if r := <-h.calls; r.From != (Identity{User: "hall", Role: RoleOrganiser, Authenticated: true}) || len(r.Data) != 0 {
		t.Errorf("organiser's clock request: from %+v, body %q", r.From, r.Data)
	}

	open := newAuditHall(t, false, nil)
	nc := open.srv.mustConnect(t)
	hdr := nats.Header{}
	hdr.Set(requestInfoHeader, `{"acc":"ARBITER_1","user":"chief"}`)
	if _, err := nc.RequestMsg(&nats.Msg{Subject: "dgt.arbiter.open2026.1.1.cmd", Header: hdr, Data: []byte(`{"cmd":"x","by":"anna"}`)}, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	if r := <-open.calls; r.From.Authenticated || string(r.Data) != `{"cmd":"x","by":"anna"}` {
		t.Errorf("without users: from %+v, body %s", r.From, r.Data)
	}
}

// TestResponderRequestID: the same command with the same request_id, sent
// again (after its reply, or while it runs), is applied once and every
// copy gets the first one's reply; another id, or the same id from another
// user, is a command of its own. The handler never sees request_id.
func TestResponderRequestID(t *testing.T) {
	release := make(chan struct{})
	h := newAuditHall(t, true, release)
	arb := connectAs(t, h.srv, "arb", "arb-pw", nats.CustomInboxPrefix(ArbiterInboxPrefix))
	arb2 := connectAs(t, h.srv, "arb2", "arb2-pw", nats.CustomInboxPrefix(ArbiterInboxPrefix))
	send := func(c *client, id string) string {
		m, err := c.nc.Request("dgt.arbiter.open2026.1.1.cmd", []byte(`{"cmd":"apply_penalty","alert_id":"a1","request_id":"`+id+`"}`), 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		return string(m.Data)
	}
	// Three copies of one command at once, while the first is held.
	var wg sync.WaitGroup
	replies := make([]string, 3)
	for i := range replies {
		wg.Go(func() { replies[i] = send(arb, "pen-1") })
	}
	r := <-h.calls
	if strings.Contains(string(r.Data), "request_id") || !strings.Contains(string(r.Data), `"cmd":"apply_penalty"`) {
		t.Errorf("handler got %s", r.Data)
	}
	// The two copies are in and wait for the first one's reply (none may
	// start the handler: the count below).
	ids := &h.p.Responder().ids
	waitFor(t, "the two copies waiting for the first", 10*time.Second, func() bool {
		ids.mu.Lock()
		defer ids.mu.Unlock()
		return ids.waiting == 2
	})
	close(release)
	wg.Wait()
	if again := send(arb, "pen-1"); again != replies[0] {
		t.Errorf("the command sent again got %s, the first %s", again, replies[0])
	}
	for _, rep := range replies {
		if rep != replies[0] || !strings.Contains(rep, `"call":1`) {
			t.Errorf("replies %q: want the first call's, three times", replies)
			break
		}
	}
	if n := h.n.Load(); n != 1 {
		t.Errorf("handler ran %d times for one request_id", n)
	}
	send(arb, "pen-2")
	send(arb2, "pen-1")
	if n := h.n.Load(); n != 3 {
		t.Errorf("handler ran %d times, want 3 (another id; the same id from another arbiter)", n)
	}
}

// TestResponderTextCap: a string of more than 200 bytes anywhere in a
// request's JSON body is refused, naming its field, and its handler does
// not run; so is a request_id that is not a string.
func TestResponderTextCap(t *testing.T) {
	h := newAuditHall(t, true, nil)
	arb := connectAs(t, h.srv, "arb", "arb-pw", nats.CustomInboxPrefix(ArbiterInboxPrefix))
	long := strings.Repeat("é", 101) // 202 bytes
	for body, want := range map[string]string{
		`{"cmd":"ack","comment":"` + long + `"}`:              "broadcast: comment: 202 bytes, at most 200",
		`{"cmd":"ack","notes":{"why":["ok","` + long + `"]}}`: "broadcast: notes.why[1]: 202 bytes, at most 200",
		`{"cmd":"ack","request_id":7}`:                        "broadcast: request_id: want a non-empty string, got 7",
	} {
		m, err := arb.nc.Request("dgt.arbiter.open2026.1.1.cmd", []byte(body), 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		var rep CommandReply
		if json.Unmarshal(m.Data, &rep) != nil || rep.OK || rep.Error != want {
			t.Errorf("%.40s…: reply %s, want error %q", body, m.Data, want)
		}
	}
	if _, err := arb.nc.Request("dgt.arbiter.open2026.1.1.cmd", []byte(`{"cmd":"ack","comment":"`+strings.Repeat("x", 200)+`"}`), 5*time.Second); err != nil {
		t.Fatal(err)
	}
	if n := h.n.Load(); n != 1 {
		t.Errorf("handler ran %d times, want once (the 200-byte comment)", n)
	}
}
