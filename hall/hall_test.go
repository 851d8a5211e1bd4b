package hall

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/dgt/recording"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/replay"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// scholar is a short game ending in checkmate (a provisional 1-0).
var scholar = []string{"e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"}

// TestHallEndToEnd plays a game on an emulated board behind a real
// pseudo-terminal through the daemon core to NATS: the GAMES stream holds
// exactly the game's moves once each, the KV state and its PGN match, the
// public copy follows, the result is provisional 1-0; a second board's
// illegal move reaches the arbiter subject only, an arbiter command is
// answered and applied, and a public client cannot read arbiter subjects.
func TestHallEndToEnd(t *testing.T) {
	integration(t)
	dir := t.TempDir()
	srv := testServer(t, filepath.Join(dir, "nats"))
	defer srv.Shutdown()
	g1 := game.ID{Event: "open2026", Round: 1, Board: 1}
	g2 := game.ID{Event: "open2026", Round: 1, Board: 2}
	b1 := newPTYBoard(t, emu.Setup{Serial: "00001"})
	b2 := newPTYBoard(t, emu.Setup{Serial: "00002"})
	d := startDaemon(t, filepath.Join(dir, "data"), srv, 300*time.Millisecond,
		boardFor(t, "r1-b1", g1, b1.Open), boardFor(t, "r1-b2", g2, b2.Open))
	waitConnected(t, d.h)

	// Subscribers: an organiser (live), a viewer (public), an arbiter.
	org := connect(t, srv, "hall", "hall-pw")
	viewerErrs := make(chan error, 8)
	viewer := connect(t, srv, "viewer", "viewer-pw", nats.CustomInboxPrefix(broadcast.PublicInboxPrefix),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { viewerErrs <- err }))
	arb := connect(t, srv, "arb", "arb-pw", nats.CustomInboxPrefix(broadcast.ArbiterInboxPrefix))
	public := make(chan *nats.Msg, 64)
	if _, err := viewer.ChanSubscribe(testPrefix+".public.open2026.1.1.move", public); err != nil {
		t.Fatal(err)
	}
	if _, err := viewer.Subscribe(testPrefix+".arbiter.>", func(*nats.Msg) { t.Error("a public client read an arbiter subject") }); err != nil {
		t.Fatal(err)
	}
	viewer.Flush()
	alerts := make(chan *nats.Msg, 64)
	if _, err := arb.ChanSubscribe(testPrefix+".arbiter.open2026.1.2.alert", alerts); err != nil {
		t.Fatal(err)
	}
	arb.Flush()

	now := time.Now()
	b1.e.Schedule(now, script(t, scholar...))
	// Board 2: 1. e4, then Black's bishop f8-a3 through its own pawn, and
	// the clock pressed: a completed illegal move.
	s2 := script(t, "e2e4")
	pos, _ := chess.StartPosition(chess.Standard).Play(mustMove(t, chess.StartPosition(chess.Standard), "e2e4"))
	ill, err := emu.MoveScript(pos, rules.Move{From: sq(t, "f8"), To: sq(t, "a3"), Promo: rules.NoKind, Drop: rules.NoKind}, emu.Handling{Press: true, Side: emu.Right, Speed: 2})
	if err != nil {
		t.Fatal(err)
	}
	b2.e.Schedule(now, s2.Then(500*time.Millisecond, ill))

	moves := streamMsgs(t, org, "DGT_GAMES", testPrefix+".game.open2026.1.1.move", len(scholar), 40*time.Second)
	if got := strings.Join(moveUCIs(t, moves), " "); got != strings.Join(scholar, " ") {
		t.Fatalf("moves on the GAMES stream:\n got %s\nwant %s", got, strings.Join(scholar, " "))
	}
	ends := streamMsgs(t, org, "DGT_GAMES", testPrefix+".game.open2026.1.1.end", 1, 10*time.Second)
	if len(ends) != 1 {
		t.Fatalf("%d results, want 1", len(ends))
	}
	var res game.Result
	decode(t, ends[0].Data(), &res)
	if res.Result != "1-0" || !res.Provisional {
		t.Errorf("result %+v, want a provisional 1-0", res)
	}

	// KV state and its PGN.
	js, _ := jetstream.New(org)
	kv, err := js.KeyValue(context.Background(), testPrefix+"_games")
	if err != nil {
		t.Fatal(err)
	}
	var st game.GameState
	waitFor(t, 10*time.Second, "the KV state of the finished game", func() bool {
		e, err := kv.Get(context.Background(), "open2026.1.1")
		if err != nil {
			return false
		}
		st = game.GameState{}
		decode(t, e.Value(), &st)
		return len(st.Moves) == len(scholar) && st.Result == "1-0"
	})
	if st.Status != gamerecord.StatusProvisional || !strings.Contains(st.PGN, `[Round "1.1"]`) || !strings.Contains(st.PGN, "4. Qxf7#") ||
		!strings.Contains(st.PGN, "[%clk ") || !strings.Contains(st.PGN, `[GameId "open2026.1.1"]`) {
		t.Errorf("state %s, PGN:\n%s", st.Status, st.PGN)
	}

	// The public copy of every move, after the delay.
	var pub []string
	deadline := time.After(20 * time.Second)
	for len(pub) < len(scholar) {
		select {
		case m := <-public:
			var ev game.MoveEvent
			decode(t, m.Data, &ev)
			pub = append(pub, ev.UCI)
		case <-deadline:
			t.Fatalf("public moves %v, want %v", pub, scholar)
		}
	}
	if strings.Join(pub, " ") != strings.Join(scholar, " ") {
		t.Errorf("public moves %v, want %v", pub, scholar)
	}

	// The illegal move: an alert on the arbiter subject.
	var al game.Alert
	deadline = time.After(20 * time.Second)
	for al.Kind != game.KindIllegalMove {
		select {
		case m := <-alerts:
			al = game.Alert{}
			decode(t, m.Data, &al)
		case <-deadline:
			t.Fatal("no illegal_move alert on the arbiter subject")
		}
	}
	if al.Side != "black" || al.Game.String() != "open2026.1.2" {
		t.Errorf("alert %+v", al)
	}
	// Nothing but moves, clocks, corrections and ends on the game feed.
	for _, m := range streamMsgs(t, org, "DGT_GAMES", testPrefix+".game.>", 0, 3*time.Second) {
		if strings.Contains(m.Subject(), "arbiter") || strings.Contains(string(m.Data()), "illegal") {
			t.Errorf("arbiter matter on the game feed: %s %s", m.Subject(), m.Data())
		}
	}

	// An arbiter command: take board 2's game back to the start.
	rep, err := arb.Request(testPrefix+".arbiter.open2026.1.2.cmd", []byte(`{"cmd":"reinstate","ply":1}`), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var cr CommandReply
	decode(t, rep.Data, &cr)
	if !cr.OK {
		t.Fatalf("reinstate: %s", rep.Data)
	}
	rep, err = arb.Request(testPrefix+".arbiter.open2026.1.2.cmd", []byte(`{"cmd":"frobnicate"}`), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if json.Unmarshal(rep.Data, &cr); cr.OK || cr.Error == "" {
		t.Errorf("bad command answered %s", rep.Data)
	}
	// The public client is refused the arbiter subjects.
	select {
	case err := <-viewerErrs:
		if !strings.Contains(strings.ToLower(err.Error()), "permissions violation") {
			t.Errorf("viewer error %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Error("the public client's arbiter subscription was not refused")
	}
	if _, err := viewer.Request(testPrefix+".arbiter.open2026.1.2.cmd", []byte(`{"cmd":"set_result","result":"0-1"}`), time.Second); err == nil {
		t.Error("a public client sent an arbiter command")
	}

	// The recording replays to the same game.
	d.stop()
	files, _ := filepath.Glob(filepath.Join(dir, "data", "record", "r1-b1", "*.hexlog"))
	if len(files) == 0 {
		t.Fatal("no recording")
	}
	f, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	o := sessionOptions(t)
	o.Info.Game = game.ID{Event: "replay", Round: 1, Board: 1}
	rr, err := replay.DGT(f, replay.Options{Format: recording.Hexlog, Session: o})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(rr.Games); n != 1 || strings.Join(rr.Games[0].UCIs(), " ") != strings.Join(scholar, " ") {
		t.Errorf("replay of the recording: %d games, %v", n, rr.Games)
	}
}

func connect(t testing.TB, srv *broadcast.Server, user, pw string, opts ...nats.Option) *nats.Conn {
	t.Helper()
	// A generous connect time-out: the server shares a loaded CPU.
	nc, err := nats.Connect("", append([]nats.Option{nats.InProcessServer(srv.NATS()), nats.UserInfo(user, pw), nats.Timeout(20 * time.Second)}, opts...)...)
	if err != nil {
		t.Fatalf("connect %s: %v", user, err)
	}
	t.Cleanup(nc.Close)
	return nc
}

func waitFor(t testing.TB, d time.Duration, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if ok() {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}

func mustMove(t testing.TB, p rules.Position, s string) rules.Move {
	m, err := p.ParseMove(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func sq(t testing.TB, name string) rules.Square {
	s, err := rules.Chess8x8.ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
