package hall

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/dgt/link"
	"github.com/dgtbridge/dgtbridge/dgt/pty"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/port"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

const testPrefix = "dgt"

// ptyBoard is an emulated board and clock served on a real pseudo-terminal;
// Open opens its slave side as the daemon opens a serial device.
//
// While unplugged the board keeps running, as a real one does with its
// cable out: scheduled hands move pieces and press the clock, and what the
// board sends meanwhile is lost.
type ptyBoard struct {
	t      testing.TB
	e      *emu.Emulator
	mu     sync.Mutex
	path   string
	cancel context.CancelFunc
	done   chan struct{}
}

// integration marks a wall-clock integration test (real pseudo-terminals,
// emulated hands in real time, an in-process NATS server): it is skipped
// under -short and runs in parallel with the other integration tests of
// the package in the full suite (each has its own server, ports and
// directories).
func integration(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("integration: real pseudo-terminals in real time (run without -short)")
	}
	t.Parallel()
}

func newPTYBoard(t testing.TB, o emu.Setup) *ptyBoard {
	b := &ptyBoard{t: t, e: emu.New(o, time.Now())}
	b.Plug()
	t.Cleanup(b.stop)
	return b
}

// Plug serves the board on a new pseudo-terminal (a port that returns).
func (b *ptyBoard) Plug() {
	b.stop()
	master, path, err := pty.Open()
	if err != nil {
		b.t.Fatalf("pty: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		emu.ServePTY(ctx, master, b.e)
	}()
	b.mu.Lock()
	b.path, b.cancel, b.done = path, cancel, done
	b.mu.Unlock()
}

// Unplug closes the master side: reads and writes on the port fail, as
// when a USB cable is pulled. The board goes on running unheard until
// Plug.
func (b *ptyBoard) Unplug() {
	b.stop()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			b.e.Advance(time.Now())
			b.e.Output() // nobody hears it
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	b.mu.Lock()
	b.cancel, b.done = cancel, done
	b.mu.Unlock()
}

// stop ends what serves or runs the board now (a pty, or the unplugged
// board's own time).
func (b *ptyBoard) stop() {
	b.mu.Lock()
	cancel, done := b.cancel, b.done
	b.cancel, b.done, b.path = nil, nil, ""
	b.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
}

// handsDone waits until every action scheduled on e has happened (the hands
// are done; the board may not have reported them yet).
func handsDone(t testing.TB, e *emu.Emulator, timeout time.Duration) {
	t.Helper()
	waitFor(t, timeout, "the scheduled hands to finish", func() bool { return e.Pending() == 0 })
}

// awaitAlert reads alerts (arbiter alert messages) until one satisfies
// want, within timeout; every alert read, the wanted one included, is first
// passed to seen (nil: not kept).
func awaitAlert(t testing.TB, alerts <-chan *nats.Msg, timeout time.Duration, what string, seen func(game.Alert), want func(game.Alert) bool) {
	t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case m := <-alerts:
			var al game.Alert
			if !decode(t, m.Data, &al) {
				continue
			}
			if seen != nil {
				seen(al)
			}
			if want(al) {
				return
			}
		case <-deadline:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// alertIs returns a predicate for alerts of kind with severity sev.
func alertIs(kind, sev string) func(game.Alert) bool {
	return func(al game.Alert) bool { return al.Kind == kind && al.Severity == sev }
}

// quiesce waits until everything the daemon journalled has been delivered
// to NATS and conn (a subscriber) has received what the server sent it
// before: messages a check must see (or must not see, such as a
// duplicate) are then in conn's subscriptions.
func quiesce(t testing.TB, d *daemon, conn *nats.Conn) {
	t.Helper()
	waitFor(t, 30*time.Second, "the outbox to drain", func() bool { return d.p.Pending() == 0 })
	if err := conn.Flush(); err != nil {
		t.Fatal(err)
	}
}

// Open is the board's port.Opener.
func (b *ptyBoard) Open(ctx context.Context) (io.ReadWriteCloser, error) {
	b.mu.Lock()
	path := b.path
	b.mu.Unlock()
	if path == "" {
		return nil, errors.New("test: port absent")
	}
	return os.OpenFile(path, os.O_RDWR|syscall.O_NOCTTY, 0)
}

// script returns the emulator script of moves (UCI) from the start.
func script(t testing.TB, ucis ...string) emu.Script {
	t.Helper()
	return scriptThink(t, 300*time.Millisecond, ucis...)
}

// scriptThink is script with a think time before every move.
func scriptThink(t testing.TB, think time.Duration, ucis ...string) emu.Script {
	t.Helper()
	pos := rules.Position(chess.StartPosition(chess.Standard))
	var moves []rules.Move
	for _, u := range ucis {
		m, err := pos.ParseMove(u)
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, m)
		pos, _ = pos.Play(m)
	}
	s, err := emu.GameScript(chess.StartPosition(chess.Standard), moves, emu.GameOptions{
		Think:    func(int) time.Duration { return think },
		Handling: func(int) emu.Handling { return emu.Handling{Speed: 2} },
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// testServer starts an embedded server with one user per role.
func testServer(t testing.TB, dir string) *broadcast.Server {
	t.Helper()
	srv, err := broadcast.StartServer(broadcast.ServerOptions{Prefix: testPrefix, StoreDir: dir, Users: []broadcast.User{
		{Name: "hall", Password: "hall-pw", Role: broadcast.RoleOrganiser},
		{Name: "arb", Password: "arb-pw", Role: broadcast.RoleArbiter},
		{Name: "viewer", Password: "viewer-pw", Role: broadcast.RolePublic},
	}})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// daemon is a hall with its publisher, as cmd wires them.
type daemon struct {
	h      *Hall
	p      *broadcast.Publisher
	cancel context.CancelFunc
	done   chan error
}

// patientLink is the link's time-outs in the tests: an emulated board on
// a pty shares the CPU with the daemon (and with other tests, and the race
// detector), so on a loaded machine it may answer late, which a real board
// never does. A pulled cable is still seen at once (the pty closes).
var patientLink = link.Settings{IdentifyInterval: 5 * time.Second, ReplyTimeout: 10 * time.Second,
	Watchdog: 10 * time.Second, AckTimeout: 5 * time.Second}

func boardFor(t testing.TB, id string, g game.ID, open port.Opener) Board {
	rs, err := ruleset.Lookup(ruleset.FIDE2018Standard)
	if err != nil {
		t.Fatal(err)
	}
	return Board{ID: id, Port: "pty", Open: open, Link: patientLink, Session: session.SessionOptions{
		Info:    gamerecord.Info{Game: g, White: "White " + id, Black: "Black " + id, Ruleset: rs.Name, TimeControl: "5400+30"},
		RuleSet: rs, Tracker: session.DefaultTrackerOptions(),
	}}
}

// startDaemon runs a hall and its publisher on srv as cmd wires them (the
// staff connection and the public account's).
func startDaemon(t testing.TB, dataDir string, srv *broadcast.Server, delay time.Duration, boards ...Board) *daemon {
	t.Helper()
	p, err := broadcast.NewPublisher(broadcast.Options{Prefix: testPrefix, Dir: dataDir + "/outbox", Connect: srv.Dialer(), RenderPGN: gamerecord.StatePGN,
		ConnectPublic: srv.PublicDialer(), PublicDelay: delay, MinBackoff: 10 * time.Millisecond, MaxBackoff: 200 * time.Millisecond,
		Streams: broadcast.StreamOptions{}})
	if err != nil {
		t.Fatal(err)
	}
	subj, _ := broadcast.NewSubjects(testPrefix)
	h, err := New(Options{Boards: boards, Sink: p, DataDir: dataDir, Record: true, Subjects: subj, Requests: p.Responder(), History: p.History})
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

func (d *daemon) stop() {
	if d.cancel == nil {
		return
	}
	d.cancel()
	d.cancel = nil
	<-d.done
	<-d.done
	d.p.Close()
}

// waitConnected waits until every board of the hall is connected.
func waitConnected(t testing.TB, h *Hall) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if _, dis := h.Summary(); dis == 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("boards not connected: %v", h.Health())
}

// streamMsgs reads every message of stream on subjects matching filter,
// waiting until want of them arrived (or the timeout), then a little more
// so that duplicates would show.
func streamMsgs(t testing.TB, nc *nats.Conn, stream, filter string, want int, timeout time.Duration) []jetstream.Msg {
	t.Helper()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var got []jetstream.Msg
	for ctx.Err() == nil {
		cons, err := js.OrderedConsumer(ctx, stream, jetstream.OrderedConsumerConfig{FilterSubjects: []string{filter}})
		if err != nil {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		got = got[:0]
		for {
			m, err := cons.Next(jetstream.FetchMaxWait(300 * time.Millisecond))
			if err != nil {
				break
			}
			got = append(got, m)
		}
		if len(got) >= want {
			return got
		}
		time.Sleep(200 * time.Millisecond)
	}
	return got
}

func moveUCIs(t testing.TB, msgs []jetstream.Msg) []string {
	var out []string
	for _, m := range msgs {
		var ev game.MoveEvent
		if err := json.Unmarshal(m.Data(), &ev); err != nil {
			t.Fatalf("move payload %s: %v", m.Data(), err)
		}
		out = append(out, ev.UCI)
	}
	return out
}

// decode unmarshals a payload the daemon published into v; a payload that
// does not decode is a test error (so a check on its fields cannot pass by
// reading zero values). It may be called from any goroutine.
func decode(t testing.TB, data []byte, v any) bool {
	t.Helper()
	if err := json.Unmarshal(data, v); err != nil {
		t.Errorf("payload %s: %v", data, err)
		return false
	}
	return true
}

// hallFixture is one emulated board on a pseudo-terminal, read by a
// running daemon that publishes to an in-process server.
type hallFixture struct {
	dir string            // the test's temporary directory: nats/ and data/
	srv *broadcast.Server // users hall, arb and viewer
	b   *ptyBoard
	d   *daemon
	g   game.ID
}

// startHall starts a server, a pty board whose emulator has serial, and a
// daemon reading it as board id for game g (no public delay); adjust, if
// not nil, changes the board's settings before the daemon starts. It
// returns once the board is connected and the publisher is up (the
// arbiters' requests answered). The server shuts down after the
// daemon and the board (t.Cleanup).
func startHall(t testing.TB, id string, g game.ID, serial string, adjust func(*Board)) *hallFixture {
	t.Helper()
	f := &hallFixture{dir: t.TempDir(), g: g}
	f.srv = testServer(t, filepath.Join(f.dir, "nats"))
	t.Cleanup(f.srv.Shutdown)
	f.b = newPTYBoard(t, emu.Setup{Serial: serial})
	hb := boardFor(t, id, g, f.b.Open)
	if adjust != nil {
		adjust(&hb)
	}
	f.d = startDaemon(t, filepath.Join(f.dir, "data"), f.srv, 0, hb)
	waitConnected(t, f.d.h)
	// The board may connect before the publisher has subscribed the
	// arbiters' command subjects: a request sent then finds no responder
	// (seen under load in CI). Health is nil once the publisher is set
	// up on its connection.
	deadline := time.Now().Add(20 * time.Second)
	for f.d.p.Health() != nil {
		if time.Now().After(deadline) {
			t.Fatalf("publisher not up after 20 s: %v", f.d.p.Health())
		}
		time.Sleep(10 * time.Millisecond)
	}
	return f
}

// arbiter connects as the arbiter (with the arbiter inbox prefix).
func (f *hallFixture) arbiter(t testing.TB) *nats.Conn {
	t.Helper()
	return connect(t, f.srv, "arb", "arb-pw", nats.CustomInboxPrefix(broadcast.ArbiterInboxPrefix))
}

// alerts connects as the arbiter and subscribes to the game's alert
// subject; the subscription is in place (flushed) when it returns.
func (f *hallFixture) alerts(t testing.TB) (*nats.Conn, chan *nats.Msg) {
	t.Helper()
	arb := f.arbiter(t)
	alerts := make(chan *nats.Msg, 256)
	if _, err := arb.ChanSubscribe(testPrefix+".arbiter."+f.g.String()+".alert", alerts); err != nil {
		t.Fatal(err)
	}
	if err := arb.Flush(); err != nil {
		t.Fatal(err)
	}
	return arb, alerts
}

// moves is the number of moves in the game's current record.
func (f *hallFixture) moves() int {
	r, _ := f.d.h.Record(f.g)
	return len(r.Moves)
}

// resultAfter plays ucis from the start position and returns White's
// result gesture there (kings in the centre) and the placement it leaves.
func resultAfter(t testing.TB, ucis ...string) (emu.Script, rules.Placement) {
	t.Helper()
	pos := rules.Position(chess.StartPosition(chess.Standard))
	for _, u := range ucis {
		pos, _ = pos.Play(mustMove(t, pos, u))
	}
	pl := pos.Placement()
	gesture, err := emu.ResultGesture(&pl, emu.WhiteWins, 2)
	if err != nil {
		t.Fatal(err)
	}
	after := pl
	for _, a := range gesture {
		switch a.Kind {
		case emu.Lift:
			after.Sq[a.Square] = rules.NoPiece
		case emu.Place:
			after.Sq[a.Square] = a.Piece
		}
	}
	return gesture, after
}

// expectPublished checks that the GAMES stream holds the moves of line on
// subject (a game's move subject), once each and in order.
func expectPublished(t *testing.T, srv *broadcast.Server, subject string, line []string) {
	t.Helper()
	org := connect(t, srv, "hall", "hall-pw")
	pub := streamMsgs(t, org, "DGT_GAMES", subject, len(line), 20*time.Second)
	if got := strings.Join(moveUCIs(t, pub), " "); got != strings.Join(line, " ") {
		t.Errorf("published\n got %s\nwant %s", got, strings.Join(line, " "))
	}
}

// expectPublishedOnlyDisconnects checks that the games stream holds
// exactly line's moves on subject (as the organiser reads them) and that,
// until half a second passes without one, the only alerts are
// board_disconnected: an outage costs nothing else.
func expectPublishedOnlyDisconnects(t *testing.T, srv *broadcast.Server, alerts chan *nats.Msg, subject string, line []string) {
	t.Helper()
	expectPublished(t, srv, subject, line)
	for done := false; !done; {
		select {
		case m := <-alerts:
			var al game.Alert
			decode(t, m.Data, &al)
			switch al.Kind {
			case game.KindBoardDisconnected:
			default:
				t.Errorf("alert %s/%s: %s", al.Kind, al.Severity, al.Message)
			}
		case <-time.After(500 * time.Millisecond):
			done = true
		}
	}
}
