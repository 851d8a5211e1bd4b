package livechess_test

import (
	"context"
	"encoding/json"
	"net"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/internal/lcclient"
	"github.com/dgtbridge/dgtbridge/livechess"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

const prefix = "dgt"

// hall is a real embedded NATS server, the daemon's publisher on it (the
// games bucket and the game subjects), the status bucket, and a LiveChess
// server reading them as an organiser.
type hall struct {
	t      *testing.T
	srv    *broadcast.Server
	pub    *broadcast.Publisher
	status jetstream.KeyValue
	url    string // ws://…/api/v1.0
	http   string // http://…
	games  map[game.ID]*played
	now    time.Time
}

// played is a game as the tracker would have recorded it.
type played struct {
	st  game.GameState
	pos *chess.Position
}

// newHall is a hall whose LiveChess server reads the feed through a
// connection of the daemon's own account, as the daemon wires it (its
// buckets are watched, which staff users may not do).
func newHall(t *testing.T, opts livechess.Options) *hall {
	t.Helper()
	return newHallAs(t, opts, "", "")
}

// newHallAs is newHall with the LiveChess server reading as another user
// ("": the daemon's account).
func newHallAs(t *testing.T, opts livechess.Options, user, pw string, natsOpts ...nats.Option) *hall {
	t.Helper()
	srv, err := broadcast.StartServer(broadcast.ServerOptions{Prefix: prefix, StoreDir: t.TempDir(),
		Users: []broadcast.User{{Name: "org", Password: "org-pw", Role: broadcast.RoleOrganiser},
			{Name: "viewer", Password: "viewer-pw", Role: broadcast.RolePublic}}})
	if err != nil {
		t.Fatalf("StartServer: %v", err)
	}
	t.Cleanup(srv.Shutdown)
	pub, err := broadcast.NewPublisher(broadcast.Options{Prefix: prefix, Dir: t.TempDir(), Connect: srv.Dialer(),
		MinBackoff: 10 * time.Millisecond, MaxBackoff: 100 * time.Millisecond})
	if err != nil {
		t.Fatalf("NewPublisher: %v", err)
	}
	h := &hall{t: t, srv: srv, pub: pub, games: map[game.ID]*played{}, now: time.Date(2026, 3, 7, 9, 0, 0, 0, time.UTC)}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() { cancel(); wg.Wait(); pub.Close() })
	wg.Go(func() {
		if err := pub.Run(ctx); err != nil {
			t.Errorf("publisher: %v", err)
		}
	})
	daemon, err := srv.Connect()
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(daemon.Close)
	js, _ := jetstream.New(daemon)
	h.status, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: prefix + "_status"})
	if err != nil {
		t.Fatalf("status bucket: %v", err)
	}
	var org *nats.Conn
	if user == "" {
		org, err = srv.Connect()
	} else {
		org, err = nats.Connect("", append([]nats.Option{nats.InProcessServer(srv.NATS()), nats.UserInfo(user, pw)}, natsOpts...)...)
	}
	if err != nil {
		t.Fatalf("connect as %s: %v", user, err)
	}
	t.Cleanup(org.Close)
	opts.Conn, opts.Prefix = org, prefix
	lc, err := livechess.New(opts)
	if err != nil {
		t.Fatalf("livechess.New: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h.url = "ws://" + ln.Addr().String() + livechess.Path
	h.http = "http://" + ln.Addr().String()
	wg.Go(func() {
		if err := lc.Serve(ctx, ln); err != nil {
			t.Errorf("livechess: %v", err)
		}
	})
	return h
}

// board writes a board's report to the status bucket, as the daemon does.
func (h *hall) board(id string, g game.ID, serial string, connected bool) {
	h.t.Helper()
	r := broadcast.BoardReport{BoardID: id, Port: "/dev/ttyACM" + id[len(id)-1:], Connected: connected, Game: g,
		Serial: serial, Result: "*", UpdatedAt: game.T(h.now)}
	if connected {
		r.LastSeen = game.T(h.now)
	} else {
		r.LastSeen = game.T(h.now.Add(-time.Minute))
	}
	b, _ := json.Marshal(r)
	if _, err := h.status.Put(context.Background(), id, b); err != nil {
		h.t.Fatalf("status put: %v", err)
	}
}

// start publishes a game's first state (no moves).
func (h *hall) start(g game.ID) {
	h.t.Helper()
	p := &played{pos: chess.StartPosition(chess.Standard)}
	p.st = game.GameState{Game: g, Event: g.Event, Round: g.Round, Board: g.Board, White: "A", Black: "B",
		Variant: "chess", FEN: p.pos.FEN(), Moves: []string{}, SAN: []string{}, Result: "*", Status: "playing"}
	h.games[g] = p
	h.publish(p)
}

// play plays moves (SAN) on g and publishes the state once, after all of
// them: one state holding several new plies, as after a board came back.
func (h *hall) play(g game.ID, sans ...string) {
	h.t.Helper()
	p := h.games[g]
	for _, s := range sans {
		m, err := p.pos.ParseMove(s)
		if err != nil {
			h.t.Fatalf("%s: %v", s, err)
		}
		san, uci := p.pos.SAN(m), p.pos.UCI(m)
		if p.pos, err = p.pos.PlayMove(m); err != nil {
			h.t.Fatalf("%s: %v", s, err)
		}
		p.st.Moves = append(p.st.Moves, uci)
		p.st.SAN = append(p.st.SAN, san)
	}
	p.st.FEN = p.pos.FEN()
	h.publish(p)
}

// each plays moves one at a time, a state after each.
func (h *hall) each(g game.ID, sans ...string) {
	for _, s := range sans {
		h.play(g, s)
	}
}

// takeBack removes the last n plies (a correction) and publishes the
// shortened record in one state.
func (h *hall) takeBack(g game.ID, n int) {
	h.t.Helper()
	p := h.games[g]
	keep := p.st.Moves[:len(p.st.Moves)-n]
	pos := chess.StartPosition(chess.Standard)
	for _, uci := range keep {
		m, err := pos.ParseMove(uci)
		if err == nil {
			pos, err = pos.PlayMove(m)
		}
		if err != nil {
			h.t.Fatalf("replay %s: %v", uci, err)
		}
	}
	p.pos = pos
	p.st.Moves, p.st.SAN = slices.Clone(keep), slices.Clone(p.st.SAN[:len(keep)])
	p.st.FEN = pos.FEN()
	p.st.Revision++
	h.publish(p)
}

func (h *hall) publish(p *played) {
	h.t.Helper()
	h.now = h.now.Add(time.Second)
	p.st.UpdatedAt = game.T(h.now)
	p.st.Clock = &game.ClockPair{WhiteMS: 5400000 - int64(len(p.st.Moves))*1000, BlackMS: 5400000}
	if err := h.pub.PublishState(p.st); err != nil {
		h.t.Fatalf("PublishState: %v", err)
	}
}

// clock publishes a clock event.
func (h *hall) clock(g game.ID, w, b int64, running string) {
	h.t.Helper()
	h.now = h.now.Add(time.Second)
	if err := h.pub.PublishClock(game.ClockEvent{Game: g, WhiteMS: w, BlackMS: b, Running: running, At: game.T(h.now)}); err != nil {
		h.t.Fatalf("PublishClock: %v", err)
	}
}

func (h *hall) fen(g game.ID) string { return h.games[g].pos.FEN() }

// dial connects a client with Lichess's origin.
func (h *hall) dial(ctx context.Context) *lcclient.Client {
	h.t.Helper()
	c, err := lcclient.Dial(ctx, h.url, "https://lichess.org")
	if err != nil {
		h.t.Fatalf("dial: %v", err)
	}
	h.t.Cleanup(func() { c.Close() })
	return c
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}
