package hall

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// testCluster is a real three-node NATS cluster with JetStream, in
// process, whose nodes can be stopped and started again (same ports, same
// store).
type testCluster struct {
	t     testing.TB
	mu    sync.Mutex
	opts  []*server.Options
	nodes []*server.Server
}

func freeTCP(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func startCluster(t testing.TB, n int) *testCluster {
	t.Helper()
	c := &testCluster{t: t, nodes: make([]*server.Server, n)}
	routes := make([]*url.URL, n)
	for i := range n {
		o := &server.Options{ServerName: fmt.Sprintf("n%d", i+1), Host: "127.0.0.1", Port: freeTCP(t),
			JetStream: true, StoreDir: filepath.Join(t.TempDir(), "js"), NoSigs: true,
			Cluster: server.ClusterOpts{Name: "hall", Host: "127.0.0.1", Port: freeTCP(t)}}
		routes[i] = &url.URL{Scheme: "nats-route", Host: fmt.Sprintf("127.0.0.1:%d", o.Cluster.Port)}
		c.opts = append(c.opts, o)
	}
	for _, o := range c.opts {
		o.Routes = routes
	}
	for i := range n {
		c.start(i)
	}
	t.Cleanup(func() {
		for i := range n {
			c.stop(i)
		}
	})
	// JetStream is usable once the cluster has a meta leader.
	nc := c.connect()
	defer nc.Close()
	js, _ := jetstream.New(nc)
	waitFor(t, 30*time.Second, "the cluster's JetStream", func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_, err := js.AccountInfo(ctx)
		return err == nil
	})
	return c
}

func (c *testCluster) start(i int) {
	c.t.Helper()
	s, err := server.NewServer(c.opts[i])
	if err != nil {
		c.t.Fatal(err)
	}
	s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		c.t.Fatalf("node %d not ready", i+1)
	}
	c.mu.Lock()
	c.nodes[i] = s
	c.mu.Unlock()
}

func (c *testCluster) stop(i int) {
	c.mu.Lock()
	s := c.nodes[i]
	c.nodes[i] = nil
	c.mu.Unlock()
	if s != nil {
		s.Shutdown()
		s.WaitForShutdown()
	}
}

// urls are the client URLs of every node (the daemons' nats.url).
func (c *testCluster) urls() string {
	var u []string
	for _, o := range c.opts {
		u = append(u, fmt.Sprintf("nats://127.0.0.1:%d", o.Port))
	}
	return strings.Join(u, ",")
}

func (c *testCluster) connect() *nats.Conn {
	c.t.Helper()
	nc, err := nats.Connect(c.urls(), nats.MaxReconnects(-1), nats.ReconnectWait(100*time.Millisecond))
	if err != nil {
		c.t.Fatal(err)
	}
	return nc
}

// startClusterDaemon runs a hall and its publisher as cmd wires them for
// an external server: nats.url with every node, streams and KV replicated
// on three nodes, the PGN stores following the other daemons.
func startClusterDaemon(t testing.TB, dataDir, urls string, delay time.Duration, boards ...Board) *daemon {
	t.Helper()
	p, err := broadcast.NewPublisher(broadcast.Options{Prefix: testPrefix, Dir: filepath.Join(dataDir, "outbox"),
		Connect: broadcast.ExternalDialer(broadcast.ExternalOptions{URL: urls}), RenderPGN: gamerecord.StatePGN, PublicDelay: delay,
		Follow: true, MinBackoff: 20 * time.Millisecond, MaxBackoff: 500 * time.Millisecond, PublishTimeout: 3 * time.Second,
		Streams: broadcast.StreamOptions{Replicas: 3}})
	if err != nil {
		t.Fatal(err)
	}
	subj, _ := broadcast.NewSubjects(testPrefix)
	h, err := New(Options{Boards: boards, Sink: p, DataDir: dataDir, Record: true, Subjects: subj, Requests: p.Responder()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	d := &daemon{h: h, p: p, cancel: cancel, done: make(chan error, 2)}
	go func() { d.done <- p.Run(ctx) }()
	go func() { d.done <- h.Run(ctx) }()
	t.Cleanup(d.stop)
	return d
}

// TestClusterTwoHalls: two daemons (two halls, two boards each on real
// pseudo-terminals) publish into one three-node cluster, streams and KV
// replicated on three nodes and created by whichever daemon comes first.
// One node is stopped in the middle of the round and started again: every
// move of the four games is in the GAMES stream once and in order, and in
// the PUBLIC stream once, none stored before the public delay after the
// move was made; the KV holds every game's last state; an arbiter command
// is answered by the hall that has the game, and either daemon gives the
// whole round's PGN.
func TestClusterTwoHalls(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: a three-node cluster and four games on ptys, about 40 s")
	}
	const delay = 2 * time.Second
	games := [][]string{
		{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7", "f1e1", "b7b5"},
		{"d2d4", "d7d5", "c2c4", "e7e6", "b1c3", "g8f6", "c1g5", "f8e7", "e2e3", "e8g8", "g1f3", "h7h6"},
		{"c2c4", "e7e5", "b1c3", "g8f6", "g1f3", "b8c6", "g2g3", "d7d5", "c4d5", "f6d5", "f1g2", "d5b6"},
		{"g1f3", "d7d5", "g2g3", "g8f6", "f1g2", "e7e6", "e1g1", "f8e7", "d2d3", "e8g8", "b1d2", "c7c5"},
	}
	cl := startCluster(t, 3)
	dir := t.TempDir()
	var ptys []*ptyBoard
	var ids []game.ID
	var halls []*daemon
	for h := range 2 {
		var boards []Board
		for b := range 2 {
			n := 2*h + b + 1
			pb := newPTYBoard(t, emu.Setup{Serial: fmt.Sprintf("007%02d", n)})
			g := game.ID{Event: "olympiad", Round: 1, Board: n} // each hall its own boards
			boards = append(boards, boardFor(t, fmt.Sprintf("r1-b%d", n), g, pb.Open))
			ptys, ids = append(ptys, pb), append(ids, g)
		}
		halls = append(halls, startClusterDaemon(t, filepath.Join(dir, fmt.Sprintf("hall%d", h+1)), cl.urls(), delay, boards...))
	}
	for _, d := range halls {
		waitConnected(t, d.h)
	}
	start := time.Now()
	for i, pb := range ptys {
		pb.e.Schedule(start.Add(time.Duration(i)*150*time.Millisecond), scriptThink(t, 600*time.Millisecond, games[i]...))
	}
	moves := func() int {
		n := 0
		for i, d := range halls {
			for b := range 2 {
				r, _ := d.h.Record(ids[2*i+b])
				n += len(r.Moves)
			}
		}
		return n
	}
	waitFor(t, 60*time.Second, "a third of the round", func() bool { return moves() >= 16 })
	cl.stop(1) // node n2 goes down mid-round
	waitFor(t, 60*time.Second, "two thirds of the round, a node down", func() bool { return moves() >= 32 })
	cl.start(1)
	waitFor(t, 60*time.Second, "the whole round", func() bool { return moves() >= 48 })

	nc := cl.connect()
	defer nc.Close()
	for i, g := range ids {
		live := streamMsgs(t, nc, "DGT_GAMES", testPrefix+".game."+g.String()+".move", len(games[i]), 40*time.Second)
		if got := moveUCIs(t, live); strings.Join(got, " ") != strings.Join(games[i], " ") {
			t.Errorf("%s live:\n got %v\nwant %v", g, got, games[i])
		}
		pub := streamMsgs(t, nc, "DGT_PUBLIC", testPrefix+".public."+g.String()+".move", len(games[i]), 40*time.Second)
		if got := moveUCIs(t, pub); strings.Join(got, " ") != strings.Join(games[i], " ") {
			t.Errorf("%s public:\n got %v\nwant %v", g, got, games[i])
		}
		for _, m := range pub {
			// Never public before the delay is over: stored at least
			// the delay after the move was made (its "at").
			var ev game.MoveEvent
			md, _ := m.Metadata()
			if !decode(t, m.Data(), &ev) || md == nil {
				continue
			}
			if early := ev.At.Add(delay).Sub(md.Timestamp); early > 0 {
				t.Errorf("%s ply %d: public copy stored %v before the public delay was over", g, ev.Ply, early)
			}
		}
	}
	js, _ := jetstream.New(nc)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, name := range []string{"DGT_GAMES", "DGT_PUBLIC", "DGT_ALERTS"} {
		s, err := js.Stream(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		if r := s.CachedInfo().Config.Replicas; r != 3 {
			t.Errorf("%s: %d replicas, want 3", name, r)
		}
	}
	kv, err := js.KeyValue(ctx, testPrefix+"_games")
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range ids {
		e, err := kv.Get(ctx, g.String())
		if err != nil {
			t.Fatalf("KV %s: %v", g, err)
		}
		var st game.GameState
		if err := json.Unmarshal(e.Value(), &st); err != nil || len(st.Moves) != len(games[i]) {
			t.Errorf("KV %s: %d moves (%v)", g, len(st.Moves), err)
		}
	}

	// Hall 2's game: the other hall does not answer first with "no game".
	rep, err := nc.Request(testPrefix+".arbiter."+ids[3].String()+".cmd", []byte(`{"cmd":"set_result","result":"1/2-1/2","by":"IA"}`), 10*time.Second)
	var cr CommandReply
	if err != nil || !decode(t, rep.Data, &cr) || !cr.OK {
		t.Errorf("command for hall 2's game: %v %v", rep, err)
	}
	// Either daemon gives the whole round's live PGN.
	waitFor(t, 10*time.Second, "every daemon's PGN store to hold the four games", func() bool {
		m, err := nc.Request(testPrefix+".api.pgn.olympiad.1", nil, 5*time.Second)
		return err == nil && m.Header.Get("Dgtbridge-Games") == "4"
	})
}
