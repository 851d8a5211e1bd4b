package broadcast

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// TestExternalServerRestart publishes through a TCP connection to a
// separate server (the nats.url path): the server goes away mid-game and
// comes back on the same address and store; the client reconnects by itself
// and every move arrives exactly once, in order.
func TestExternalServerRestart(t *testing.T) {
	store := t.TempDir()
	srv, err := StartServer(ServerOptions{Prefix: testPrefix, StoreDir: store, Listen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(srv.ClientURL())
	p := newPublisher(t, t.TempDir(), ExternalDialer(ExternalOptions{URL: srv.ClientURL()}), 0)
	runPublisher(t, p)
	for i := 1; i <= 15; i++ {
		p.PublishMove(move(i, 0))
	}
	waitFor(t, "some sent", 10*time.Second, func() bool { return p.Pending() < 30 })
	srv.Shutdown()
	waitFor(t, "health reports the outage", 5*time.Second, func() bool { return p.Health() != nil })
	for i := 16; i <= 30; i++ {
		p.PublishMove(move(i, 0))
	}
	time.Sleep(100 * time.Millisecond) // the outage lasts: the client's reconnect attempts fail meanwhile
	srv2, err := StartServer(ServerOptions{Prefix: testPrefix, StoreDir: store, Listen: u.Host})
	if err != nil {
		t.Fatalf("restart on %s: %v", u.Host, err)
	}
	defer srv2.Shutdown()
	nc, _ := srv2.Connect()
	defer nc.Close()
	if got := plies(t, streamMsgs(t, nc, "DGT_GAMES", "", 30, 20*time.Second)); fmt.Sprint(got) != fmt.Sprint(seq(1, 30)) {
		t.Errorf("GAMES after restart: %v", got)
	}
}

// TestWebsocketListener: browsers reach the embedded server over a
// websocket (binary frames, nats.go speaks ws:// too), with the same roles.
func TestWebsocketListener(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	srv, err := StartServer(ServerOptions{Prefix: testPrefix, StoreDir: t.TempDir(), Websocket: addr, Users: testUsers})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	nc, err := nats.Connect("ws://"+addr, nats.UserInfo("viewer", "viewer-pw"), nats.CustomInboxPrefix(PublicInboxPrefix))
	if err != nil {
		t.Fatalf("websocket connect: %v", err)
	}
	defer nc.Close()
	sub, _ := nc.SubscribeSync("dgt.public.>")
	nc.Flush()
	daemon, err := srv.PublicDialer()(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer daemon.Close()
	daemon.Publish("dgt.public.open2026.1.1.move", []byte(`{}`))
	if m, err := sub.NextMsg(5 * time.Second); err != nil || m.Subject != "dgt.public.open2026.1.1.move" {
		t.Errorf("over websocket: %v %v", m, err)
	}
}
