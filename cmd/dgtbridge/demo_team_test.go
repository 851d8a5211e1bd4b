package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestDemoTeam runs "dgtbridge demo --boards 1" (the team match on boards 2
// and 3, linked) in-process at four times human speed with seed 6, whose
// match has an illegal drop early: the GAMES stream has a drop on a team
// board with both pockets and the partner's game, the ALERTS stream the
// illegal drop's illegal_move (crit, D2), the banner names the match's BPGN
// and the HTTP server serves it.
func TestDemoTeam(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: the demo's team match in real time")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr lockedBuffer
	errc := make(chan error, 1)
	go func() {
		errc <- run(ctx, []string{"demo", "--boards", "1", "--blind=false", "--speed", "4", "--public-delay", "1s",
			"--http-listen", "127.0.0.1:0", "--seed", "6", "--data-dir", t.TempDir()}, &stdout, &stderr)
	}()
	b := readBanner(t, &stdout, &stderr, errc, `NATS\s+(nats://\S+)`, `arbiter/(\S+) \(arbiter\)`, `BPGN\s+(http://\S+/bpgn/demo/1/2\.bpgn)`)
	natsURL, arbiterPW, bpgnURL := b[0], b[1], b[2]
	nc, err := nats.Connect(natsURL, nats.UserInfo("arbiter", arbiterPW))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)

	gc, err := js.OrderedConsumer(ctx, "DGT_GAMES", jetstream.OrderedConsumerConfig{FilterSubjects: []string{"dgt.game.demo.1.2.move", "dgt.game.demo.1.3.move"}})
	if err != nil {
		t.Fatal(err)
	}
	var drop game.MoveEvent
	for drop.SAN == "" {
		m, err := gc.Next(jetstream.FetchMaxWait(60 * time.Second))
		if err != nil {
			t.Fatalf("no drop on the team boards: %v\n%s", err, stderr.String())
		}
		var ev game.MoveEvent
		json.Unmarshal(m.Data(), &ev)
		if ev.Pockets == nil || ev.Partner == "" {
			t.Fatalf("team move without pockets or partner: %s", m.Data())
		}
		if strings.Contains(ev.SAN, "@") {
			drop = ev
		}
	}
	ac, err := js.OrderedConsumer(ctx, "DGT_ALERTS", jetstream.OrderedConsumerConfig{FilterSubjects: []string{"dgt.arbiter.demo.1.*.alert"}})
	if err != nil {
		t.Fatal(err)
	}
	for {
		m, err := ac.Next(jetstream.FetchMaxWait(60 * time.Second))
		if err != nil {
			t.Fatalf("no illegal drop reported: %v", err)
		}
		var a game.Alert
		json.Unmarshal(m.Data(), &a)
		if a.Kind == game.KindIllegalMove && strings.Contains(a.Article, "D2") && a.Severity == game.Crit {
			break
		}
	}
	waitUntil(t, 30*time.Second, "the BPGN over HTTP", func() bool {
		body := httpGet(t, bpgnURL)
		return strings.Contains(body, `[Variant "Bughouse"]`) && strings.Contains(body, "@")
	})
	cancel()
	select {
	case err := <-errc:
		if err != nil {
			t.Errorf("demo returned %v", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the demo did not stop")
	}
}
