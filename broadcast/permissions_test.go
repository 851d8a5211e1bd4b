package broadcast

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"golang.org/x/crypto/bcrypt"
)

var testUsers = []User{
	{Name: "hall", Password: "hall-pw", Role: RoleOrganiser},
	{Name: "arb", Password: "arb-pw", Role: RoleArbiter},
	{Name: "viewer", Password: "viewer-pw", Role: RolePublic},
}

// client is a role's connection that records permission violations.
type client struct {
	nc   *nats.Conn
	errs chan error
}

func connectAs(t *testing.T, srv *Server, user, pw string, opts ...nats.Option) *client {
	t.Helper()
	c := &client{errs: make(chan error, 16)}
	o := append([]nats.Option{
		nats.InProcessServer(srv.NATS()), nats.UserInfo(user, pw),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { c.errs <- err }),
	}, opts...)
	nc, err := nats.Connect("", o...)
	if err != nil {
		t.Fatalf("connect as %s: %v", user, err)
	}
	t.Cleanup(nc.Close)
	c.nc = nc
	return c
}

// violation waits for a permission violation naming subject.
func (c *client) violation(subject string, wait time.Duration) bool {
	deadline := time.After(wait)
	for {
		select {
		case err := <-c.errs:
			if errors.Is(err, nats.ErrPermissionViolation) && strings.Contains(err.Error(), subject) {
				return true
			}
		case <-deadline:
			return false
		}
	}
}

func TestRolePermissions(t *testing.T) {
	srv := startServer(t, t.TempDir(), testUsers...)
	defer srv.Shutdown()
	p := newDaemonPublisher(t, srv, 0)
	runPublisher(t, p)
	waitFor(t, "publisher connected", 5*time.Second, func() bool { return p.Health() == nil })

	viewer := connectAs(t, srv, "viewer", "viewer-pw", nats.CustomInboxPrefix(PublicInboxPrefix))
	hall := connectAs(t, srv, "hall", "hall-pw")
	arb := connectAs(t, srv, "arb", "arb-pw", nats.CustomInboxPrefix(ArbiterInboxPrefix))

	subscribe := func(c *client, subj string) *nats.Subscription {
		t.Helper()
		s, err := c.nc.SubscribeSync(subj)
		if err != nil {
			t.Fatal(err)
		}
		c.nc.Flush()
		return s
	}
	vPub := subscribe(viewer, "dgt.public.>")
	subscribe(viewer, "dgt.arbiter.>")
	subscribe(viewer, "dgt.game.>")
	hGame := subscribe(hall, "dgt.game.>")
	subscribe(hall, "dgt.arbiter.>")
	aAlert := subscribe(arb, "dgt.arbiter.>")

	t.Run("denied subscriptions", func(t *testing.T) {
		for _, tc := range []struct {
			who  string
			c    *client
			subj string
		}{
			{"public", viewer, "dgt.arbiter.>"},
			{"public", viewer, "dgt.game.>"},
			{"organiser", hall, "dgt.arbiter.>"},
		} {
			if !tc.c.violation(tc.subj, 2*time.Second) {
				t.Errorf("%s subscribed to %s without a permission violation", tc.who, tc.subj)
			}
		}
	})

	p.PublishMove(move(1, 0))
	p.PublishAlert(game.Alert{ID: "x1", Game: testGame, Kind: "flag_fall"})
	t.Run("allowed deliveries", func(t *testing.T) {
		for _, tc := range []struct {
			who  string
			sub  *nats.Subscription
			subj string
		}{
			{"public", vPub, "dgt.public.open2026.1.1.move"},
			{"organiser", hGame, "dgt.game.open2026.1.1.move"},
			{"arbiter", aAlert, "dgt.arbiter.open2026.1.1.alert"},
		} {
			m, err := tc.sub.NextMsg(5 * time.Second)
			if err != nil || m.Subject != tc.subj {
				t.Errorf("%s: got %v, %v; want %s", tc.who, m, err, tc.subj)
			}
		}
	})

	t.Run("public PGN request", func(t *testing.T) {
		m, err := viewer.nc.Request("dgt.api.pgn.public.open2026.1", nil, 5*time.Second)
		if err != nil || m.Header.Get(headerGames) == "" {
			t.Errorf("public PGN request: %v %v", m, err)
		}
		viewer.nc.Request("dgt.api.pgn.open2026.1", nil, 300*time.Millisecond)
		if !viewer.violation("dgt.api.pgn.open2026.1", 2*time.Second) {
			t.Error("public asked for the live PGN without a permission violation")
		}
		if _, err := hall.nc.Request("dgt.api.pgn.open2026.1", nil, 5*time.Second); err != nil {
			t.Errorf("organiser live PGN: %v", err)
		}
	})

	t.Run("publishing on feeds", func(t *testing.T) {
		for _, tc := range []struct {
			who  string
			c    *client
			subj string
		}{
			{"organiser", hall, "dgt.game.open2026.1.1.move"},
			{"organiser", hall, "dgt.arbiter.open2026.1.1.cmd"},
			{"organiser", hall, "dgt.input.open2026.1.1.move"},
			{"organiser", hall, ArbiterInboxPrefix + ".x"},
			{"organiser", hall, "$JS.API.STREAM.SNAPSHOT.DGT_GAMES"},
			{"arbiter", arb, "dgt.arbiter.open2026.1.1.alert"},
			{"arbiter", arb, "dgt.public.open2026.1.1.move"},
			{"public", viewer, "dgt.public.open2026.1.1.move"},
		} {
			tc.c.nc.Publish(tc.subj, []byte("{}"))
			tc.c.nc.Flush()
			if !tc.c.violation(tc.subj, 2*time.Second) {
				t.Errorf("%s published on %s without a permission violation", tc.who, tc.subj)
			}
		}
		arb.nc.Publish("dgt.arbiter.open2026.1.1.cmd", []byte("{}"))
		arb.nc.Flush()
		if arb.violation("dgt.arbiter.open2026.1.1.cmd", 300*time.Millisecond) {
			t.Error("arbiter may not send a command")
		}
	})

	t.Run("jetstream", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		consume := func(c *client, stream string) error {
			js, _ := jetstream.New(c.nc)
			ctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
			defer cancel()
			cons, err := js.OrderedConsumer(ctx, stream, jetstream.OrderedConsumerConfig{})
			if err != nil {
				return err
			}
			_, err = cons.Next(jetstream.FetchMaxWait(500 * time.Millisecond))
			return err
		}
		if err := consume(hall, "DGT_GAMES"); err != nil {
			t.Errorf("organiser reading GAMES: %v", err)
		}
		if err := consume(hall, "DGT_ALERTS"); err == nil {
			t.Error("organiser read the ALERTS stream")
		}
		if err := consume(arb, "DGT_ALERTS"); err != nil {
			t.Errorf("arbiter reading ALERTS: %v", err)
		}
		if err := consume(viewer, "DGT_PUBLIC"); err == nil {
			t.Error("public used the JetStream API (it has plain subscriptions only)")
		}
		js, _ := jetstream.New(hall.nc)
		cctx, ccancel := context.WithTimeout(ctx, 500*time.Millisecond)
		defer ccancel()
		if _, err := js.CreateStream(cctx, jetstream.StreamConfig{Name: "SPY", Sources: []*jetstream.StreamSource{{Name: "DGT_ALERTS"}}}); err == nil {
			t.Error("organiser created a stream sourcing ALERTS")
		}
	})
}

func TestServerListenRules(t *testing.T) {
	_, err := StartServer(ServerOptions{Prefix: "dgt", StoreDir: t.TempDir(), Listen: "0.0.0.0:0"})
	if !errors.Is(err, ErrInsecureListen) {
		t.Errorf("no users on 0.0.0.0: %v, want ErrInsecureListen", err)
	}
	_, err = StartServer(ServerOptions{Prefix: "dgt", StoreDir: t.TempDir(), Listen: "127.0.0.1:0", Websocket: "192.0.2.1:0"})
	if !errors.Is(err, ErrInsecureListen) {
		t.Errorf("no users, websocket on a LAN address: %v, want ErrInsecureListen", err)
	}
	_, err = StartServer(ServerOptions{Prefix: "dgt", StoreDir: t.TempDir(), Users: []User{{Name: "x", Password: "y", Role: "king"}}})
	if !errors.Is(err, ErrBadRole) {
		t.Errorf("bad role: %v", err)
	}
	srv, err := StartServer(ServerOptions{Prefix: "dgt", StoreDir: t.TempDir(), Listen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	nc, err := nats.Connect(srv.ClientURL())
	if err != nil {
		t.Fatalf("TCP client on loopback, no auth: %v", err)
	}
	nc.Close()

	auth, err := StartServer(ServerOptions{Prefix: "dgt", StoreDir: t.TempDir(), Listen: "127.0.0.1:0", Users: testUsers})
	if err != nil {
		t.Fatal(err)
	}
	defer auth.Shutdown()
	if nc, err := nats.Connect(auth.ClientURL()); err == nil {
		nc.Close()
		t.Error("anonymous connection accepted while users are configured")
	}
	if nc, err := nats.Connect(auth.ClientURL(), nats.UserInfo("viewer", "wrong")); err == nil {
		nc.Close()
		t.Error("wrong password accepted")
	}
	nc, err = nats.Connect(auth.ClientURL(), nats.UserInfo("viewer", "viewer-pw"))
	if err != nil {
		t.Errorf("viewer over TCP: %v", err)
	} else {
		nc.Close()
	}

	hash, _ := bcrypt.GenerateFromPassword([]byte("s3cret"), bcrypt.MinCost)
	hashed, err := StartServer(ServerOptions{Prefix: "dgt", StoreDir: t.TempDir(), Listen: "127.0.0.1:0",
		Users: []User{{Name: "hall", Password: string(hash), Role: RoleOrganiser}}})
	if err != nil {
		t.Fatal(err)
	}
	defer hashed.Shutdown()
	if nc, err := nats.Connect(hashed.ClientURL(), nats.UserInfo("hall", "s3cret")); err != nil {
		t.Errorf("bcrypt password: %v", err)
	} else {
		nc.Close()
	}
}
