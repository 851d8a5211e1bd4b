package watch

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/rehearse"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/status"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"golang.org/x/crypto/bcrypt"
)

// TestWatcher runs a watcher against an embedded server with users and a
// fake Lichess: a wrong password and then the right one for one arbiter,
// none for the other, the organiser over the websocket; a relay device that receives its board's
// announcement; a move on the live feed and (too early) on the public
// copy; Lichess rounds that exist, do not, or may not be pushed to, and
// a refused token. The checklist says each, and the status bucket holds it.
func TestWatcher(t *testing.T) {
	hash := func(pw string) string {
		h, err := bcrypt.GenerateFromPassword([]byte(pw), bcrypt.MinCost)
		if err != nil {
			t.Fatal(err)
		}
		return string(h)
	}
	ws := freePort(t)
	srv, err := broadcast.StartServer(broadcast.ServerOptions{Prefix: "dgt", StoreDir: t.TempDir(), Listen: "127.0.0.1:0", Websocket: ws,
		Users: []broadcast.User{{Name: "arb1", Password: hash("one"), Role: broadcast.RoleArbiter},
			{Name: "org", Password: hash("org-pw"), Role: broadcast.RoleOrganiser},
			{Name: "arb2", Password: hash("two"), Role: broadcast.RoleArbiter},
			{Name: "relay5", Password: hash("five"), Role: broadcast.RoleRelay, Board: 5}}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	daemon, err := srv.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer daemon.Close()

	lichess := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer good" {
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"error":"No such token"}`))
			return
		}
		switch r.URL.Path {
		case "/api/broadcast/-/-/mine0001":
			w.Write([]byte(`{"round":{"id":"mine0001"},"study":{"writeable":true}}`))
		case "/api/broadcast/-/-/othr0001":
			w.Write([]byte(`{"round":{"id":"othr0001"},"study":{"writeable":false}}`))
		default:
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"error":"Not found"}`))
		}
	}))
	defer lichess.Close()

	g5 := game.ID{Event: "cup-rehearsal", Round: 1, Board: 5}
	checks := []rehearse.Check{
		rehearse.SignIn{User: "arb1", Role: "arbiter"}, rehearse.SignIn{User: "arb2", Role: "arbiter"}, rehearse.SignIn{User: "org", Role: "organiser"},
		rehearse.BlindRelay{Board: "r1-b5", Game: g5, Listeners: []string{"relay5"}},
		rehearse.LiveMove{Board: "r1-b5", Game: g5}, rehearse.PublicMove{Board: "r1-b5", Game: g5, Delay: time.Minute},
		rehearse.LichessRound{Round: 1, ID: "mine0001"}, rehearse.LichessRound{Round: 2, ID: "othr0001"}, rehearse.LichessRound{Round: 3, ID: "gone0001"},
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// The keeper's bucket, where the watcher writes its report.
	if _, err := createStatusBucket(ctx, daemon); err != nil {
		t.Fatal(err)
	}
	reports := make(chan rehearse.Report, 256)
	w, err := New(Options{Checklist: rehearse.New(checks, time.Now(), 40*time.Second), Subjects: broadcast.Subjects{Prefix: "dgt"},
		Conn: daemon, Server: srv.NATS(), LichessURL: lichess.URL, Token: "good", Rounds: []string{"mine0001", "othr0001", "gone0001"},
		Poll: 50 * time.Millisecond, OnChange: func(r rehearse.Report) { reports <- r }})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan rehearse.Report, 1)
	go func() {
		r, err := w.Run(ctx)
		if err != nil {
			t.Error(err)
		}
		done <- r
	}()
	until := func(what string, ok func(rehearse.Report) bool) rehearse.Report {
		t.Helper()
		var last rehearse.Report
		for {
			select {
			case r := <-reports:
				if ok(r) {
					return r
				}
				last = r
			case <-ctx.Done():
				t.Fatalf("never: %s; last report %+v", what, last)
			}
		}
	}
	lineOf := func(r rehearse.Report, sub string) rehearse.Line {
		for _, l := range r.Lines {
			if strings.Contains(l.Subject, sub) {
				return l
			}
		}
		t.Fatalf("no line %q", sub)
		return rehearse.Line{}
	}

	// The Lichess rounds.
	r := until("the Lichess rounds", func(r rehearse.Report) bool {
		return lineOf(r, "gone0001").State == rehearse.Failed && lineOf(r, "othr0001").State == rehearse.Failed && lineOf(r, "mine0001").State == rehearse.Passed
	})
	if l := lineOf(r, "gone0001"); !strings.Contains(l.Reason, "404 Not Found: Not found") {
		t.Errorf("unknown round: %q", l.Reason)
	}
	if l := lineOf(r, "othr0001"); !strings.Contains(l.Reason, "may not push to round othr0001") {
		t.Errorf("round of another account: %q", l.Reason)
	}

	// A wrong password, then the right one.
	if nc, err := nats.Connect(srv.ClientURL(), nats.UserInfo("arb1", "wrong"), nats.NoReconnect()); err == nil {
		nc.Close()
		t.Fatal("a wrong password signed in")
	}
	until("the wrong password", func(r rehearse.Report) bool {
		l := lineOf(r, "user arb1")
		return l.State == rehearse.Failed && strings.Contains(l.Reason, "a wrong password for arb1") && strings.Contains(l.Reason, "127.0.0.1")
	})
	nc, err := nats.Connect(srv.ClientURL(), nats.UserInfo("arb1", "one"))
	if err != nil {
		t.Fatal(err)
	}
	nc.Close()
	until("arb1 signed in", func(r rehearse.Report) bool { return lineOf(r, "user arb1").State == rehearse.Passed })
	// A tablet signs in over the websocket, as the arbiters' page does.
	wsc, err := nats.Connect("ws://"+ws, nats.UserInfo("org", "org-pw"))
	if err != nil {
		t.Fatal(err)
	}
	wsc.Close()
	until("org signed in over the websocket", func(r rehearse.Report) bool { return lineOf(r, "user org").State == rehearse.Passed })

	// The relay device listens; the announcement goes out.
	relay, err := nats.Connect(srv.ClientURL(), nats.UserInfo("relay5", "five"), nats.CustomInboxPrefix("_INBOX_relay"))
	if err != nil {
		t.Fatal(err)
	}
	defer relay.Close()
	heard := make(chan *nats.Msg, 4)
	if _, err := relay.ChanSubscribe("dgt.relay.*.*.5.announce", heard); err != nil {
		t.Fatal(err)
	}
	relay.Flush()
	daemon.Publish("dgt.relay.cup-rehearsal.1.5.announce", []byte(`{"text":"e4"}`))
	daemon.Publish("dgt.game.cup-rehearsal.1.5.move", []byte(`{}`))
	<-heard
	until("the relay heard", func(r rehearse.Report) bool {
		return lineOf(r, "relay of board r1-b5").State == rehearse.Passed && lineOf(r, "live feed").State == rehearse.Passed
	})
	// A public copy at once, with a delay of a minute: promise broken.
	daemon.Publish("dgt.public.cup-rehearsal.1.5.move", []byte(`{}`))
	r = until("the early public copy", func(r rehearse.Report) bool { return lineOf(r, "public copy").State == rehearse.Failed })
	if l := lineOf(r, "public copy"); !strings.Contains(l.Reason, "before the public delay of 1m0s") {
		t.Errorf("early public copy: %q", l.Reason)
	}

	// The report is in the status bucket.
	if got, ok, err := readReport(ctx, daemon); err != nil || !ok || len(got.Lines) != len(checks) {
		t.Errorf("status bucket: %+v %v %v", got, ok, err)
	}
	cancel()
	final := <-done
	if l := lineOf(final, "user arb2"); l.State != rehearse.Waiting {
		t.Errorf("arb2, never signed in, before the end: %+v", l)
	}
}

// TestWatcherEnds: a watcher returns when the end comes, every line
// still waiting failed, even with a question to Lichess unanswered.
func TestWatcherEnds(t *testing.T) {
	stop := make(chan struct{})
	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	defer silent.Close()
	defer close(stop)
	srv, err := broadcast.StartServer(broadcast.ServerOptions{Prefix: "dgt", StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	nc, err := srv.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	w, err := New(Options{Checklist: rehearse.New([]rehearse.Check{rehearse.BoardAnswers{Board: "r1-b1", Port: "/dev/x"}}, time.Now(), 300*time.Millisecond),
		Subjects: broadcast.Subjects{Prefix: "dgt"}, Conn: nc, Poll: 20 * time.Millisecond,
		LichessURL: silent.URL, Token: "t", Rounds: []string{"r1"}, Client: &http.Client{}})
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		r   rehearse.Report
		err error
	}
	done := make(chan result, 1)
	go func() { r, err := w.Run(context.Background()); done <- result{r, err} }()
	select {
	case res := <-done:
		if r := res.r; res.err != nil || !r.Ended || r.Lines[0].State != rehearse.Failed || !strings.Contains(r.Lines[0].Reason, "nothing within") {
			t.Errorf("run: %v %+v", res.err, r)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Run did not return at the end: it waits for the unanswered question to Lichess")
	}
}

// freePort returns a loopback address nobody listens on now.
func freePort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// createStatusBucket makes the status bucket as the daemon's keeper does.
func createStatusBucket(ctx context.Context, nc *nats.Conn) (jetstream.KeyValue, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	return js.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: "dgt_status", History: 1})
}

func readReport(ctx context.Context, nc *nats.Conn) (rehearse.Report, bool, error) {
	return status.ReadRehearsal(ctx, nc, broadcast.Subjects{Prefix: "dgt"})
}

// TestChecklistAttackers: no user but the daemon writes the checklist.
// Each role (organiser, arbiter, public, relay) publishes a forged
// all-passed checklist on the bucket's subject and tries to delete it;
// the checklist the daemon wrote stays.
func TestChecklistAttackers(t *testing.T) {
	h, _ := bcrypt.GenerateFromPassword([]byte("pw"), bcrypt.MinCost)
	var users []broadcast.User
	for _, r := range []broadcast.Role{broadcast.RoleOrganiser, broadcast.RoleArbiter, broadcast.RolePublic, broadcast.RoleRelay} {
		users = append(users, broadcast.User{Name: string(r), Password: string(h), Role: r, Board: map[bool]int{true: 1}[r == broadcast.RoleRelay]})
	}
	srv, err := broadcast.StartServer(broadcast.ServerOptions{Prefix: "dgt", StoreDir: t.TempDir(), Listen: "127.0.0.1:0", Users: users})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	daemon, err := srv.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer daemon.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	kv, err := createStatusBucket(ctx, daemon)
	if err != nil {
		t.Fatal(err)
	}
	w, err := New(Options{Checklist: rehearse.New([]rehearse.Check{rehearse.SignIn{User: "arbiter", Role: "arbiter"}}, time.Now(), time.Hour),
		Subjects: broadcast.Subjects{Prefix: "dgt"}, Conn: daemon})
	if err != nil {
		t.Fatal(err)
	}
	w.write(ctx, kv, w.o.Checklist.Report(time.Now()))
	forged := `{"ended":true,"lines":[{"kind":"sign_in","subject":"arbiter user arbiter signs in","state":"passed"}]}`
	for _, u := range users {
		nc, err := nats.Connect(srv.ClientURL(), nats.UserInfo(u.Name, "pw"), nats.CustomInboxPrefix("_INBOX_"+string(u.Role)),
			nats.ErrorHandler(func(*nats.Conn, *nats.Subscription, error) {}))
		if err != nil {
			t.Fatalf("%s: %v", u.Name, err)
		}
		nc.Publish("$KV.dgt_status._rehearsal", []byte(forged))
		nc.Publish("$JS.API.STREAM.PURGE.KV_dgt_status", []byte(`{"filter":"$KV.dgt_status._rehearsal"}`))
		if _, err := nc.Request("$JS.API.STREAM.MSG.DELETE.KV_dgt_status", []byte(`{"seq":1}`), time.Second); err == nil {
			t.Errorf("%s: a message delete was answered", u.Name)
		}
		nc.Flush()
		nc.Close()
	}
	r, ok, err := readReport(ctx, daemon)
	if err != nil || !ok || r.Ended || len(r.Lines) != 1 || r.Lines[0].State != rehearse.Waiting {
		t.Errorf("the checklist after the attackers: %+v ok %v err %v", r, ok, err)
	}
}

// TestPushSeen: a push Lichess took with games it refused is a refused
// test push, naming the first game; a failure is Lichess's answer.
func TestPushSeen(t *testing.T) {
	for _, c := range []struct {
		in   broadcast.PushReport
		want rehearse.PushSeen
	}{
		{broadcast.PushReport{ID: "t", Pushes: 2}, rehearse.PushSeen{ID: "t", Pushes: 2}},
		{broadcast.PushReport{ID: "t", Error: "401 Unauthorized: No such token"}, rehearse.PushSeen{ID: "t", Err: "401 Unauthorized: No such token"}},
		{broadcast.PushReport{ID: "t", Pushes: 1, GameErrors: []broadcast.PushGameError{{Round: "1.3", White: "A", Black: "B", Error: "no player name"}, {Round: "1.4"}}},
			rehearse.PushSeen{ID: "t", Pushes: 1, Err: "2 games refused, the first board 1.3 (A – B): no player name"}},
	} {
		if got := pushSeen(c.in); got != c.want {
			t.Errorf("pushSeen(%+v) = %+v, want %+v", c.in, got, c.want)
		}
	}
}
