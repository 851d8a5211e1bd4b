package main

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/dgtbridge/dgtbridge/hall/demo"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi"
)

// TestDemoXiangqi runs "dgtbridge demo --boards 1 --xiangqi 2" in-process at
// eight times human speed: board 2 (the team match is off), an emulated OBP xiangqi board on a
// pseudo-terminal read through go.bug.st/serial, plays the second built-in
// master game move for move (every MoveEvent with the ICCS move and the
// Vietnamese notation), the demo's arbiter records its result, the set-up
// after it begins round 2's game on that board; board 3 plays the third
// game with its incident, a horse moved straight ahead (illegal_move for
// the arbiter); the game's PGN over HTTP is Xiangqi with [%iccs].
func TestDemoXiangqi(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: the demo's xiangqi boards in real time")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr lockedBuffer
	errc := make(chan error, 1)
	go func() {
		errc <- run(ctx, []string{"demo", "--boards", "1", "--blind=false", "--team=false", "--xiangqi", "2", "--speed", "8",
			"--public-delay", "1s", "--http-listen", "127.0.0.1:0", "--data-dir", t.TempDir()}, &stdout, &stderr)
	}()
	reNATS := regexp.MustCompile(`NATS\s+(nats://\S+)`)
	reArbiter := regexp.MustCompile(`arbiter/(\S+) \(arbiter\)`)
	reHTTP := regexp.MustCompile(`health\s+(http://\S+)/healthz`)
	var natsURL, arbiterPW, base string
	deadline := time.Now().Add(30 * time.Second)
	for natsURL == "" || arbiterPW == "" || base == "" || !strings.Contains(stdout.String(), "xiangqi (OBP board)") {
		if time.Now().After(deadline) {
			t.Fatalf("no banner; stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
		}
		select {
		case err := <-errc:
			t.Fatalf("demo returned early: %v\n%s", err, stderr.String())
		case <-time.After(100 * time.Millisecond):
		}
		out := stdout.String()
		if m := reNATS.FindStringSubmatch(out); m != nil {
			natsURL = m[1]
		}
		if m := reArbiter.FindStringSubmatch(out); m != nil {
			arbiterPW = m[1]
		}
		if m := reHTTP.FindStringSubmatch(out); m != nil {
			base = m[1]
		}
	}
	nc, err := nats.Connect(natsURL, nats.UserInfo("arbiter", arbiterPW))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	games, err := demo.XiangqiGames()
	if err != nil {
		t.Fatal(err)
	}
	g := games[demo.GameFor(len(games), 1, 2)]

	// Board 2's game, move for move, then round 2's first move.
	gc, err := js.OrderedConsumer(ctx, "DGT_GAMES", jetstream.OrderedConsumerConfig{FilterSubjects: []string{"dgt.game.demo.*.2.>"}})
	if err != nil {
		t.Fatal(err)
	}
	pos := g.Start.(*xiangqi.Position)
	ply, result := 0, ""
	for {
		m, err := gc.Next(jetstream.FetchMaxWait(60 * time.Second))
		if err != nil {
			t.Fatalf("board 2 stopped at ply %d (result %q): %v\n%s", ply, result, err, stderr.String())
		}
		if strings.HasPrefix(m.Subject(), "dgt.game.demo.2.2.move") {
			break // round 2 began
		}
		switch {
		case strings.HasSuffix(m.Subject(), ".end"):
			var r game.Result
			json.Unmarshal(m.Data(), &r)
			result = r.Result
		case strings.HasSuffix(m.Subject(), ".move"):
			var ev game.MoveEvent
			json.Unmarshal(m.Data(), &ev)
			if ev.Ply != ply+1 || ply >= len(g.Moves) {
				t.Fatalf("board 2: move %+v after ply %d", ev, ply)
			}
			mv := g.Moves[ply].Move
			if ev.UCI != pos.UCI(mv) || ev.Notation != pos.Notation(mv, xiangqi.DialectVN) || ev.SAN != pos.Notation(mv, xiangqi.DialectWXF) {
				t.Fatalf("board 2 ply %d: %s %s %s, want %s %s", ev.Ply, ev.UCI, ev.SAN, ev.Notation, pos.UCI(mv), pos.Notation(mv, xiangqi.DialectVN))
			}
			next, _ := pos.PlayMove(mv)
			pos = next
			ply++
		}
	}
	if ply != len(g.Moves) || result != g.Result {
		t.Errorf("board 2: %d of %d plies, result %q want %q", ply, len(g.Moves), result, g.Result)
	}
	ac, err := js.OrderedConsumer(ctx, "DGT_ALERTS", jetstream.OrderedConsumerConfig{FilterSubjects: []string{"dgt.arbiter.demo.1.3.alert"}})
	if err != nil {
		t.Fatal(err)
	}
	for {
		m, err := ac.Next(jetstream.FetchMaxWait(60 * time.Second))
		if err != nil {
			t.Fatalf("board 3's illegal move not reported: %v", err)
		}
		var a game.Alert
		json.Unmarshal(m.Data(), &a)
		if a.Kind == game.KindIllegalMove && a.Side != "" && strings.Contains(a.Article, "9.10") {
			break
		}
	}
	waitUntil(t, 30*time.Second, "the xiangqi PGN over HTTP", func() bool {
		body := httpGet(t, base+"/pgn/demo/1/2.pgn")
		return strings.Contains(body, `[Variant "Xiangqi"]`) && strings.Contains(body, "[%iccs ") && strings.Contains(body, `[Result "`+g.Result+`"]`)
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
