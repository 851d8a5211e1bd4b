package broadcast

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

func plies(t *testing.T, msgs []jetstream.Msg) []int {
	t.Helper()
	var out []int
	for _, m := range msgs {
		var ev game.MoveEvent
		if err := json.Unmarshal(m.Data(), &ev); err != nil {
			t.Fatalf("%s: %v", m.Subject(), err)
		}
		out = append(out, ev.Ply)
	}
	return out
}

func seq(from, to int) []int {
	var s []int
	for i := from; i <= to; i++ {
		s = append(s, i)
	}
	return s
}

func TestPublisherMovesStateAndDedup(t *testing.T) {
	srv := startServer(t, t.TempDir())
	defer srv.Shutdown()
	p := newPublisher(t, t.TempDir(), srv.Dialer(), 0)
	runPublisher(t, p)
	for i := 1; i <= 5; i++ {
		if err := p.PublishMove(move(i, 0)); err != nil {
			t.Fatal(err)
		}
	}
	// the same facts again (a retry, a tracker replay after restart): no duplicates
	for i := 1; i <= 5; i++ {
		p.PublishMove(move(i, 0))
	}
	p.PublishMove(move(5, 1)) // a corrected ply 5 is a new fact
	st := game.GameState{Game: testGame, Event: "open2026", Round: 1, Board: 1, White: "A", Black: "B",
		Moves: []string{"e2e4"}, SAN: []string{"e4"}, Result: "*", PGN: "[Event \"x\"]\n\n1. e4 *\n", Revision: 1, UpdatedAt: game.T(time.Now())}
	if err := p.PublishState(st); err != nil {
		t.Fatal(err)
	}
	nc, _ := srv.Connect()
	defer nc.Close()
	msgs := streamMsgs(t, nc, "DGT_GAMES", "", 6, 10*time.Second)
	if got := plies(t, msgs); fmt.Sprint(got) != "[1 2 3 4 5 5]" {
		t.Errorf("GAMES plies %v, want [1 2 3 4 5 5]", got)
	}
	for i, m := range msgs {
		if m.Subject() != "dgt.game.open2026.1.1.move" {
			t.Errorf("msg %d on %s", i, m.Subject())
		}
		want := fmt.Sprintf("open2026.1.1.move.%d.0", i+1)
		if i == 5 {
			want = "open2026.1.1.move.5.1"
		}
		if id := m.Headers().Get(jetstream.MsgIDHeader); id != want {
			t.Errorf("msg %d id %q, want %q", i, id, want)
		}
	}
	// KV: the latest state under <event>.<round>.<board>
	js, _ := jetstream.New(nc)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	waitFor(t, "pending 0", 10*time.Second, func() bool { return p.Pending() == 0 })
	kv, err := js.KeyValue(ctx, "dgt_games")
	if err != nil {
		t.Fatal(err)
	}
	e, err := kv.Get(ctx, "open2026.1.1")
	if err != nil {
		t.Fatal(err)
	}
	var back game.GameState
	if err := json.Unmarshal(e.Value(), &back); err != nil || back.White != "A" || back.Revision != 1 || back.PGN != st.PGN {
		t.Errorf("kv state %+v err %v", back, err)
	}
	if p.Health() != nil {
		t.Errorf("health: %v", p.Health())
	}
	// the public copy (delay 0) holds the same six moves and the state
	pub := streamMsgs(t, nc, "DGT_PUBLIC", "dgt.public.*.*.*.move", 6, 10*time.Second)
	if got := plies(t, pub); fmt.Sprint(got) != "[1 2 3 4 5 5]" {
		t.Errorf("PUBLIC plies %v", got)
	}
	waitFor(t, "public state", 5*time.Second, func() bool { _, ok := p.Public().Get(testGame); return ok })
}

func TestPublicDelayHonoured(t *testing.T) {
	srv := startServer(t, t.TempDir())
	defer srv.Shutdown()
	const delay = 300 * time.Millisecond
	p := newPublisher(t, t.TempDir(), srv.Dialer(), delay)
	nc, _ := srv.Connect()
	defer nc.Close()
	live, _ := nc.SubscribeSync("dgt.game.>")
	pub, _ := nc.SubscribeSync("dgt.public.>")
	nc.Flush()
	runPublisher(t, p)
	var sent []time.Time
	for i := 1; i <= 3; i++ {
		sent = append(sent, time.Now())
		p.PublishMove(move(i, 0))
		p.PublishAlert(game.Alert{ID: fmt.Sprint("alert", i), Game: testGame, Kind: "touch_move", Ply: i})
		time.Sleep(50 * time.Millisecond)
	}
	for i := range 3 {
		m, err := live.NextMsg(5 * time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if m.Subject != "dgt.game.open2026.1.1.move" {
			t.Errorf("live got %s", m.Subject)
		}
		_ = i
	}
	for i := range 3 {
		m, err := pub.NextMsg(5 * time.Second)
		if err != nil {
			t.Fatal(err)
		}
		got := time.Now()
		if early := sent[i].Add(delay).Sub(got); early > 0 {
			t.Errorf("public copy %d arrived %v before it was due", i+1, early)
		}
		if m.Subject != "dgt.public.open2026.1.1.move" {
			t.Errorf("public got %s: %s", m.Subject, m.Data)
		}
	}
	if m, err := pub.NextMsg(300 * time.Millisecond); err == nil {
		t.Errorf("unexpected public message %s %s (alerts must never be public)", m.Subject, m.Data)
	}
	alerts := streamMsgs(t, nc, "DGT_ALERTS", "", 3, 5*time.Second)
	if len(alerts) != 3 || alerts[0].Subject() != "dgt.arbiter.open2026.1.1.alert" {
		t.Errorf("alerts stream: %d messages", len(alerts))
	}
}

// TestServerRestartMidGame stops the NATS server in the middle of a game,
// keeps publishing, then starts a new server on the same store: every move
// arrives exactly once, in order, on both the live and the public stream.
func TestServerRestartMidGame(t *testing.T) {
	store := t.TempDir()
	var d switchable
	srv := startServer(t, store)
	d.set(srv)
	p := newPublisher(t, t.TempDir(), d.dial, 0)
	runPublisher(t, p)
	for i := 1; i <= 20; i++ {
		p.PublishMove(move(i, 0))
	}
	waitFor(t, "first half sent", 10*time.Second, func() bool { return p.Pending() < 20 })
	d.set(nil)
	srv.Shutdown() // mid-stream: some of the first 20 may still be pending
	for i := 21; i <= 40; i++ {
		p.PublishMove(move(i, 0))
	}
	waitFor(t, "publisher notices", 5*time.Second, func() bool { return p.Health() != nil })
	if p.Pending() == 0 {
		t.Fatal("nothing pending while the server is down")
	}
	srv2 := startServer(t, store)
	defer srv2.Shutdown()
	d.set(srv2)
	nc, _ := srv2.Connect()
	defer nc.Close()
	if got := plies(t, streamMsgs(t, nc, "DGT_GAMES", "", 40, 15*time.Second)); fmt.Sprint(got) != fmt.Sprint(seq(1, 40)) {
		t.Errorf("GAMES after restart: %v", got)
	}
	if got := plies(t, streamMsgs(t, nc, "DGT_PUBLIC", "", 40, 15*time.Second)); fmt.Sprint(got) != fmt.Sprint(seq(1, 40)) {
		t.Errorf("PUBLIC after restart: %v", got)
	}
	waitFor(t, "healthy again", 5*time.Second, func() bool { return p.Health() == nil })
}

// TestOutboxCrashResend: a publisher that never reached NATS is closed (the
// process "crashes"); the next one, on the same data dir, sends everything.
// The first record was already stored by NATS before the crash (an ack lost
// on the way): the resend must not duplicate it.
func TestOutboxCrashResend(t *testing.T) {
	dir := t.TempDir()
	srv := startServer(t, t.TempDir())
	defer srv.Shutdown()
	down := func(context.Context) (*nats.Conn, error) { return nil, fmt.Errorf("test: unreachable") }
	p1 := newPublisher(t, dir, down, 0)
	stop := runPublisher(t, p1)
	for i := 1; i <= 10; i++ {
		p1.PublishMove(move(i, 0))
	}
	waitFor(t, "unhealthy", 5*time.Second, func() bool { return p1.Health() != nil })
	stop()
	if err := p1.Close(); err != nil {
		t.Fatal(err)
	}
	// NATS got ply 1 before the crash but the ack was lost.
	nc, _ := srv.Connect()
	defer nc.Close()
	js, _ := jetstream.New(nc)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := ensureStreams(ctx, js, Subjects{Prefix: testPrefix}, StreamOptions{}); err != nil {
		t.Fatal(err)
	}
	e, _ := Subjects{Prefix: testPrefix}.moveEnvelope(move(1, 0))
	if _, err := js.Publish(ctx, e.Subject, e.Data, jetstream.WithMsgID(e.MsgID)); err != nil {
		t.Fatal(err)
	}
	p2 := newPublisher(t, dir, srv.Dialer(), 0)
	if p2.Pending() != 20 {
		t.Errorf("reopened outbox holds %d records, want 20 (10 live + 10 public)", p2.Pending())
	}
	runPublisher(t, p2)
	if got := plies(t, streamMsgs(t, nc, "DGT_GAMES", "", 10, 10*time.Second)); fmt.Sprint(got) != fmt.Sprint(seq(1, 10)) {
		t.Errorf("after crash: %v", got)
	}
	waitFor(t, "outbox empty", 5*time.Second, func() bool { return p2.Pending() == 0 })
}

// TestRestartDuringDelay: the process stops while public copies are waiting;
// the next run publishes them at their original due time, not earlier, and
// not lost.
func TestRestartDuringDelay(t *testing.T) {
	dir := t.TempDir()
	srv := startServer(t, t.TempDir())
	defer srv.Shutdown()
	const delay = 800 * time.Millisecond
	p1 := newPublisher(t, dir, srv.Dialer(), delay)
	stop := runPublisher(t, p1)
	start := time.Now()
	p1.PublishMove(move(1, 0))
	p1.PublishState(game.GameState{Game: testGame, Event: "open2026", Round: 1, Board: 1, SAN: []string{"e4"}, Moves: []string{"e2e4"}, UpdatedAt: game.T(start)})
	waitFor(t, "live sent", 5*time.Second, func() bool { return p1.Pending() == 2 })
	stop()
	p1.Close()
	if time.Since(start) >= delay {
		t.Fatalf("test too slow: restart after the delay (%v)", time.Since(start))
	}
	nc, _ := srv.Connect()
	defer nc.Close()
	sub, _ := nc.SubscribeSync("dgt.public.>")
	nc.Flush()
	p2 := newPublisher(t, dir, srv.Dialer(), delay)
	if _, ok := p2.Public().Get(testGame); ok {
		t.Error("public state visible before it is due")
	}
	runPublisher(t, p2)
	for range 2 {
		m, err := sub.NextMsg(5 * time.Second)
		if err != nil {
			t.Fatalf("public copy lost: %v", err)
		}
		if early := time.Until(start.Add(delay)); early > 0 {
			t.Errorf("%s published %v early", m.Subject, early)
		}
	}
	waitFor(t, "public store", 5*time.Second, func() bool { _, ok := p2.Public().Get(testGame); return ok })
	if m, err := sub.NextMsg(200 * time.Millisecond); err == nil {
		t.Errorf("duplicate public message %s", m.Subject)
	}
}

func TestPGNRequestReply(t *testing.T) {
	srv := startServer(t, t.TempDir())
	defer srv.Shutdown()
	p := newPublisher(t, t.TempDir(), srv.Dialer(), time.Hour)
	runPublisher(t, p)
	for b := 2; b >= 1; b-- {
		p.PublishState(game.GameState{Game: game.ID{Event: "open2026", Round: 1, Board: b}, Event: "open2026", Round: 1, Board: b,
			White: fmt.Sprint("W", b), Black: "B", SAN: []string{"e4", "e5"}, Result: "*"})
	}
	waitFor(t, "connected", 5*time.Second, func() bool { return p.Health() == nil })
	nc, _ := srv.Connect()
	defer nc.Close()
	m, err := nc.Request("dgt.api.pgn.open2026.1", nil, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	body := string(m.Data)
	if m.Header.Get(headerGames) != "2" || strings.Count(body, "[Event ") != 2 ||
		strings.Index(body, `[Round "1.1"]`) > strings.Index(body, `[Round "1.2"]`) || !strings.Contains(body, "1. e4 e5 *") {
		t.Errorf("live round PGN (games %s):\n%s", m.Header.Get(headerGames), body)
	}
	// public: delayed by an hour, nothing yet
	m, err = nc.Request("dgt.api.pgn.public.open2026.1", nil, 5*time.Second)
	if err != nil || m.Header.Get(headerGames) != "0" || len(m.Data) != 0 {
		t.Errorf("public PGN before the delay: %v %q %v", m.Header, m.Data, err)
	}
	m, err = nc.Request("dgt.api.pgn.open2026.x", nil, 5*time.Second)
	if err != nil || m.Header.Get(headerError) == "" {
		t.Errorf("bad round: %v %v", m, err)
	}
	// a reply subject that is not an inbox is ignored
	sub, _ := nc.SubscribeSync("dgt.public.open2026.1.1.move")
	nc.PublishRequest("dgt.api.pgn.open2026.1", "dgt.public.open2026.1.1.move", nil)
	if m, err := sub.NextMsg(300 * time.Millisecond); err == nil {
		t.Errorf("daemon wrote a reply into a feed subject: %q", m.Data)
	}
}

// TestPublicStateDueWhileDown: a public state that fell due while the daemon
// was not running is served as soon as the next one opens its outbox, even
// before NATS is reachable.
func TestPublicStateDueWhileDown(t *testing.T) {
	// In a synctest bubble (no connection is made): the restart comes
	// exactly when the state is due.
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		down := func(context.Context) (*nats.Conn, error) { return nil, fmt.Errorf("test: unreachable") }
		const delay = 200 * time.Millisecond
		p1 := newPublisher(t, dir, down, delay)
		p1.PublishState(game.GameState{Game: testGame, Event: "open2026", Round: 1, Board: 1, SAN: []string{"c4"}})
		p1.Close()
		time.Sleep(delay)
		p2 := newPublisher(t, dir, down, delay)
		if _, ok := p2.Public().Get(testGame); !ok {
			t.Error("a public state already due is not served after a restart")
		}
		if _, ok := p2.live.Get(testGame); ok {
			t.Error("the live store was filled from the outbox (it comes from KV)")
		}
	})
}

// TestCoreSubjects: announcements and board status go out as core NATS
// messages (no stream covers them), in order with the rest, never public.
func TestCoreSubjects(t *testing.T) {
	srv := startServer(t, t.TempDir())
	defer srv.Shutdown()
	p := newPublisher(t, t.TempDir(), srv.Dialer(), 0)
	nc, _ := srv.Connect()
	defer nc.Close()
	sub, _ := nc.SubscribeSync("dgt.>")
	nc.Flush()
	runPublisher(t, p)
	at := game.T(time.Date(2026, 2, 8, 8, 1, 2, 0, time.UTC))
	if err := p.PublishBoardStatus(game.BoardStatus{BoardID: "b1", Port: "/dev/ttyACM0", Connected: true, Version: "1.7", At: at}); err != nil {
		t.Fatal(err)
	}
	if err := p.PublishAnnouncement(game.Announcement{Game: testGame, Ply: 1, Lang: "de", Text: "Emil vier", UCI: "e2e4", Kind: game.AnnounceMove, At: at}); err != nil {
		t.Fatal(err)
	}
	p.PublishMove(move(1, 0))
	if err := p.PublishBoardStatus(game.BoardStatus{BoardID: "B 1"}); err == nil {
		t.Error("bad board id accepted")
	}
	var got []string
	for range 4 {
		m, err := sub.NextMsg(5 * time.Second)
		if err != nil {
			t.Fatalf("after %v: %v", got, err)
		}
		got = append(got, m.Subject)
		if m.Header.Get(jetstream.MsgIDHeader) == "" {
			t.Errorf("%s without a message id", m.Subject)
		}
		if m.Subject == "dgt.relay.open2026.1.1.announce" {
			var a game.Announcement
			if err := json.Unmarshal(m.Data, &a); err != nil || a.Text != "Emil vier" || a.Game != testGame {
				t.Errorf("announcement %s", m.Data)
			}
		}
	}
	want := "[dgt.board.b1.status dgt.relay.open2026.1.1.announce dgt.game.open2026.1.1.move dgt.public.open2026.1.1.move]"
	if fmt.Sprint(got) != want {
		t.Errorf("got %v\nwant %s", got, want)
	}
	if m, err := sub.NextMsg(200 * time.Millisecond); err == nil {
		t.Errorf("unexpected %s (status and announcements are never public)", m.Subject)
	}
	waitFor(t, "acked", 5*time.Second, func() bool { return p.Pending() == 0 })
}
