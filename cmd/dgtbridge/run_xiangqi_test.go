package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/hall/demo"
	"github.com/dgtbridge/dgtbridge/hall/session"
	obpemu "github.com/dgtbridge/dgtbridge/obp/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi"
)

// TestRunXiangqi is "dgtbridge run" with a configuration of two xiangqi
// boards: an emulated OBP board on a pseudo-terminal (protocol obp, opened
// through go.bug.st/serial at 115200 baud) playing the opening of a master
// game, and a manual board whose moves an arbiter enters over the embedded
// server's TCP port. The board's game is served as Xiangqi PGN over HTTP,
// the manual game's state in the KV bucket carries the Vietnamese notation,
// and "dgtbridge replay --variant xiangqi" rebuilds the board's game from
// its recording.
func TestRunXiangqi(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: the daemon with an OBP pty board in real time")
	}
	dir := t.TempDir()
	games, err := demo.XiangqiGames()
	if err != nil {
		t.Fatal(err)
	}
	g := games[3]
	moves := make([]rules.Move, 0, 16)
	for _, m := range g.Moves[:16] {
		moves = append(moves, m.Move)
	}
	e, err := obpemu.New(obpemu.Options{Serial: "XQ0777", Base: 90 * time.Minute, Increment: 30 * time.Second}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	path, stop := servedPTY(t, e)
	defer stop()
	natsAddr, httpAddr := freePort(t), freePort(t)
	cfg := filepath.Join(dir, "dgtbridge.yaml")
	os.WriteFile(cfg, []byte(fmt.Sprintf(`data_dir: %s
record: true
nats: {prefix: dgt, embedded: {listen: %q, users: [{user: arb, password: arb-pw, role: arbiter}, {user: org, password: org-pw, role: organiser}]}}
http: {listen: %q}
event: {id: xq, ruleset: xiangqi-vn2004, time_control: "5400+30", public_delay: 0s}
boards:
  - {protocol: obp, port: %s, round: 1, board: 1, variant: xiangqi, white: "Red One", black: "Black One"}
  - {protocol: manual, round: 1, board: 2, variant: xiangqi, white: "Red Two", black: "Black Two"}
`, filepath.Join(dir, "data"), natsAddr, httpAddr, path)), 0o644)

	ctx, cancel := context.WithCancel(context.Background())
	var logs syncBuffer
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"run", "--config", cfg}, io.Discard, &logs) }()
	defer func() {
		cancel()
		<-done
		if t.Failed() {
			t.Logf("log:\n%s", logs.String())
		}
	}()
	var nc *nats.Conn
	waitUntil(t, 30*time.Second, "the embedded server", func() bool {
		nc, err = nats.Connect("nats://"+natsAddr, nats.UserInfo("arb", "arb-pw"), nats.CustomInboxPrefix(broadcast.ArbiterInboxPrefix))
		return err == nil
	})
	defer nc.Close()

	s, err := obpemu.GameScript(g.Start, moves, obpemu.GameOptions{Think: func(int) time.Duration { return 300 * time.Millisecond }, Speed: 2, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	waitUntil(t, 30*time.Second, "the board identified", func() bool { return len(e.Received()) > 0 })
	e.Schedule(time.Now().Add(time.Second), s)

	// The manual board: moves entered by the arbiter.
	var rep session.InputReply
	waitUntil(t, 30*time.Second, "the daemon to take an entered move", func() bool {
		m, err := nc.Request("dgt.input.xq.1.2.move", []byte(`{"move":"P2-5","notation":"vi"}`), 5*time.Second)
		return err == nil && json.Unmarshal(m.Data, &rep) == nil && rep.OK
	})
	for i, mv := range []string{"M8.7", "M2.3", "X9-8"} {
		m, err := nc.Request("dgt.input.xq.1.2.move", []byte(`{"move":"`+mv+`","notation":"vi"}`), 10*time.Second)
		if err != nil || json.Unmarshal(m.Data, &rep) != nil || !rep.OK || rep.Ply != i+2 {
			t.Fatalf("entry %s: %v %+v", mv, err, rep)
		}
	}
	js, _ := jetstream.New(nc)
	kv, err := js.KeyValue(ctx, "dgt_games")
	if err != nil {
		t.Fatal(err)
	}
	waitUntil(t, 20*time.Second, "the manual game's state", func() bool {
		en, err := kv.Get(ctx, "xq.1.2")
		var st game.GameState
		return err == nil && json.Unmarshal(en.Value(), &st) == nil && strings.Join(st.Notation, " ") == "P2-5 M8.7 M2.3 X9-8" &&
			strings.Join(st.Moves, " ") == "h2e2 h9g7 h0g2 i9h9" && st.Variant == "xiangqi"
	})

	// The board's game over HTTP.
	pos := g.Start.(*xiangqi.Position)
	var body string
	waitUntil(t, 60*time.Second, "the board's 16 plies in the PGN", func() bool {
		body = httpGet(t, "http://"+httpAddr+"/pgn/xq/1/1.pgn")
		return strings.Count(body, "[%iccs ") == len(moves)
	})
	first := "1. " + pos.Notation(moves[0], xiangqi.DialectWXF) + " { [%iccs " + pos.UCI(moves[0]) + "]"
	if !strings.Contains(body, `[Variant "Xiangqi"]`) || !strings.Contains(body, first) || !strings.Contains(body, `[White "Red One"]`) {
		t.Errorf("PGN:\n%s", body)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("run returned %v", err)
	}
	done <- nil

	// The recording replayed.
	logsFound, _ := filepath.Glob(filepath.Join(dir, "data", "record", "r1-b1", "*.hexlog"))
	if len(logsFound) == 0 {
		t.Fatal("no recording of the OBP board")
	}
	code, out, errOut := runMain(t, append([]string{"replay", "--variant", "xiangqi"}, logsFound...)...)
	if code != 0 {
		t.Fatalf("replay: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, `[Variant "Xiangqi"]`) || strings.Count(out, "[%iccs ") != len(moves) || !strings.Contains(out, first) {
		t.Errorf("replay:\n%s\n%s", out, errOut)
	}
}
