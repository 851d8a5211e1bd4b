package broadcast

import (
	"context"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func startHub(t *testing.T, store string, leafPort int) *server.Server {
	t.Helper()
	hub, err := server.NewServer(&server.Options{
		ServerName: "hub", JetStream: true, JetStreamDomain: "hub", StoreDir: store,
		DontListen: true, NoSigs: true,
		LeafNode: server.LeafNodeOpts{Host: "127.0.0.1", Port: leafPort},
	})
	if err != nil {
		t.Fatal(err)
	}
	hub.Start()
	if !hub.ReadyForConnections(10 * time.Second) {
		t.Fatal("hub not ready")
	}
	return hub
}

// TestLeafNodeFeedsHub: the venue's embedded server is a leaf node of a
// central hub. The venue starts while its internet is down (no hub) and
// records the first moves in its own JetStream; when the hub is reachable,
// a hub stream sourcing the venue's GAMES stream across JetStream domains
// catches up, then follows live: every move once, in order.
//
// (A hub that restarts with the source already defined resumes it by
// itself, but only after the server's source retry back-off, ≈40 s here:
// too slow for a unit test.)
func TestLeafNodeFeedsHub(t *testing.T) {
	leafPort := freePort(t)
	venue, err := StartServer(ServerOptions{Prefix: testPrefix, StoreDir: t.TempDir(), Domain: "venue",
		LeafRemotes: []LeafRemote{{URL: fmt.Sprintf("nats-leaf://127.0.0.1:%d", leafPort), DenyExports: []string{"dgt.relay.>"}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer venue.Shutdown()
	p := newPublisher(t, t.TempDir(), venue.Dialer(), 0)
	runPublisher(t, p)
	for i := 1; i <= 10; i++ {
		p.PublishMove(move(i, 0))
	}
	waitFor(t, "venue recording offline", 10*time.Second, func() bool { return p.Pending() == 0 })

	hub := startHub(t, t.TempDir(), leafPort)
	defer hub.Shutdown()
	waitFor(t, "leaf connected", 10*time.Second, func() bool { return hub.NumLeafNodes() == 1 })
	nc, err := nats.Connect("", nats.InProcessServer(hub))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = js.CreateStream(ctx, jetstream.StreamConfig{
		Name: "VENUE_GAMES", Storage: jetstream.FileStorage,
		Sources: []*jetstream.StreamSource{{Name: "DGT_GAMES", External: &jetstream.ExternalStream{APIPrefix: "$JS.venue.API"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := 11; i <= 20; i++ {
		p.PublishMove(move(i, 0))
	}
	if got := plies(t, streamMsgs(t, nc, "VENUE_GAMES", "", 20, 15*time.Second)); fmt.Sprint(got) != fmt.Sprint(seq(1, 20)) {
		t.Errorf("hub: %v", got)
	}
}
