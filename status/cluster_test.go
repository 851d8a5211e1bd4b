package status

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// TestKeeperBucketReplicas: on a real three-node NATS cluster, a daemon
// with nats.replicas 3 keeps its status bucket on three nodes like its
// streams (it kept one copy before, on one node), so "dgtbridge status"
// still reads every board, and the keeper still writes, after the node
// leading the bucket went down.
func TestKeeperBucketReplicas(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: a three-node NATS cluster")
	}
	nodes, urls := startCluster(t, 3)
	nc, err := nats.Connect(urls, nats.MaxReconnects(-1), nats.ReconnectWait(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	subj, _ := broadcast.NewSubjects("dgt")
	dial := func(context.Context) (*nats.Conn, error) {
		return nats.Connect(urls, nats.MaxReconnects(-1), nats.ReconnectWait(100*time.Millisecond))
	}
	js, _ := jetstream.New(nc)
	info := func() *jetstream.StreamInfo {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s, err := js.Stream(ctx, "KV_"+subj.StatusBucket())
		if err != nil {
			return nil
		}
		i, err := s.Info(ctx)
		if err != nil {
			return nil
		}
		return i
	}

	k := NewKeeper([]Board{{ID: "r1-b1", Port: "/dev/a", Game: g1}, {ID: "r1-b2", Port: "/dev/b", Game: g2}}, nil, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		k.Run(ctx, WriterOptions{Connect: dial, Subjects: subj, Replicas: 3, Every: 20 * time.Millisecond})
		close(done)
	}()
	defer func() { cancel(); <-done }()
	var leader string
	waitFor(t, "bucket with 3 current replicas", func() bool {
		i := info()
		if i == nil || i.Config.Replicas != 3 || i.Cluster == nil || i.Cluster.Leader == "" || len(i.Cluster.Replicas) != 2 {
			return false
		}
		for _, r := range i.Cluster.Replicas {
			if !r.Current {
				return false
			}
		}
		leader = i.Cluster.Leader
		return true
	})

	// What the daemon wrote is on the three nodes.
	waitFor(t, "report on all three nodes", func() bool {
		d, b, err := Read(context.Background(), nc, subj)
		return err == nil && strings.Join(d.Boards, ",") == "r1-b1,r1-b2" && len(b) == 2 && !b[1].UpdatedAt.IsZero()
	})

	// The leader goes down: the two other nodes still hold the bucket,
	// and the daemon's next report gets there.
	for i, s := range nodes {
		if s.Name() == leader {
			s.Shutdown()
			s.WaitForShutdown()
			nodes[i] = nil
		}
	}
	k.Status(game.BoardStatus{BoardID: "r1-b2", Connected: true, Port: "/dev/b"})
	waitFor(t, "report after the leader went down", func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		d, b, err := Read(ctx, nc, subj)
		return err == nil && strings.Join(d.Boards, ",") == "r1-b1,r1-b2" && len(b) == 2 && b[1].Connected
	})
}

// startCluster starts n NATS servers with JetStream in one cluster, in
// process, and returns them (stopped at the end of the test) and their
// client URLs, once JetStream answers.
func startCluster(t *testing.T, n int) ([]*server.Server, string) {
	t.Helper()
	free := func() int {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		return ln.Addr().(*net.TCPAddr).Port
	}
	var opts []*server.Options
	var routes []*url.URL
	var urls []string
	for i := range n {
		o := &server.Options{ServerName: fmt.Sprintf("n%d", i+1), Host: "127.0.0.1", Port: free(),
			JetStream: true, StoreDir: filepath.Join(t.TempDir(), "js"), NoSigs: true,
			Cluster: server.ClusterOpts{Name: "hall", Host: "127.0.0.1", Port: free()}}
		routes = append(routes, &url.URL{Scheme: "nats-route", Host: fmt.Sprintf("127.0.0.1:%d", o.Cluster.Port)})
		urls = append(urls, fmt.Sprintf("nats://127.0.0.1:%d", o.Port))
		opts = append(opts, o)
	}
	nodes := make([]*server.Server, n)
	t.Cleanup(func() {
		for _, s := range nodes {
			if s != nil {
				s.Shutdown()
				s.WaitForShutdown()
			}
		}
	})
	for i, o := range opts {
		o.Routes = routes
		s, err := server.NewServer(o)
		if err != nil {
			t.Fatal(err)
		}
		s.Start()
		if !s.ReadyForConnections(10 * time.Second) {
			t.Fatalf("node %d not ready", i+1)
		}
		nodes[i] = s
	}
	nc, err := nats.Connect(strings.Join(urls, ","))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	waitFor(t, "JetStream on the cluster", func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_, err := js.AccountInfo(ctx)
		return err == nil
	})
	return nodes, strings.Join(urls, ",")
}
