package broadcast

import (
	"cmp"
	"context"
	"errors"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
)

// WebBoard is one configured board as the web pages know it before its
// first public message: the game it plays, its players and variant.
type WebBoard struct {
	Game game.ID
	// BoardID names the board in <p>.board.<id>.status.
	BoardID     string
	White       string
	Black       string
	WhiteFideID string
	BlackFideID string
	WhiteTeam   string
	BlackTeam   string
	// Variant is chess, chess960, team-drop or xiangqi ("" is chess).
	Variant string
	// StartFEN is the start position ("" for the variant's).
	StartFEN string
	// Partner is the partner board's number (team-drop; 0 for none).
	Partner int
}

// WebOptions configure the web pages ([NewWeb]).
type WebOptions struct {
	// Subjects of the event (prefix).
	Subjects Subjects
	// EventID, EventName and Site describe the event.
	EventID, EventName, Site string
	// Boards are the configured boards. The spectators' page shows each
	// board's current game: the configured one, or a later round's once its
	// public copy names it.
	Boards []WebBoard
	// Public is the publisher's public store: the states of games that went
	// public before this process subscribed (after a restart).
	Public *Store
	// Connect opens the NATS connection the view subscribes to <p>.public.>
	// with (the daemon's own).
	Connect func(ctx context.Context) (*nats.Conn, error)
	// Websocket is where the arbiters' page connects to NATS: a ws:// or
	// wss:// URL, a path relative to the page (a reverse proxy forwarding
	// it), or host:port of the embedded server's websocket listener (an
	// unspecified host, 0.0.0.0 or [::], is replaced by the host the page
	// was loaded from). "" : the arbiters' page says there is none.
	Websocket string
	// WebsocketTLS says the embedded server's websocket listener speaks
	// TLS: a Websocket given as host:port becomes wss://host:port (and
	// the pages' connect-src names that origin).
	WebsocketTLS bool
	// MaxStreams bounds the concurrent server-sent event streams (default
	// 2000); more are refused with 503.
	MaxStreams int
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Logger (nil: discarded).
	Logger *slog.Logger
}

// Web keeps the spectators' view of every configured board from the public copy
// and serves the web pages (docs/contract.md §5, docs/web.md). Run feeds it;
// the handlers are mounted by [HTTPOptions.Web].
type Web struct {
	o   WebOptions
	log *slog.Logger

	mu      sync.Mutex
	games   map[game.ID]*webGame
	slots   map[int]game.ID // board number → the game shown
	clients map[*webClient]struct{}
	// subscribed: the subscription to the public copy is up.
	subscribed bool
	// status is the latest BoardStatus by board id (webstatus.go).
	status map[string]game.BoardStatus
}

// webClient is one server-sent event stream: the boards changed since it
// last wrote, and a wake-up.
type webClient struct {
	mu    sync.Mutex
	dirty map[game.ID]struct{}
	wake  chan struct{}
}

// NewWeb returns the web view of the configured boards.
func NewWeb(o WebOptions) (*Web, error) {
	if o.Subjects.Prefix == "" {
		return nil, errors.New("broadcast: WebOptions.Subjects is required")
	}
	if o.Connect == nil {
		return nil, errors.New("broadcast: WebOptions.Connect is required")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.MaxStreams <= 0 {
		o.MaxStreams = 2000
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	w := &Web{o: o, log: log, games: map[game.ID]*webGame{}, slots: map[int]game.ID{}, clients: map[*webClient]struct{}{},
		status: map[string]game.BoardStatus{}}
	for _, b := range o.Boards {
		if err := b.Game.Validate(); err != nil {
			return nil, err
		}
		if cur, ok := w.slots[b.Game.Board]; ok && cur.Round >= b.Game.Round {
			continue
		}
		w.games[b.Game] = newWebGame(b)
		w.slots[b.Game.Board] = b.Game
	}
	return w, nil
}

// Run subscribes to the public copy and keeps the view until ctx is done,
// reconnecting when the connection closes. It returns nil on cancellation.
func (w *Web) Run(ctx context.Context) error {
	backoff := 50 * time.Millisecond
	for ctx.Err() == nil {
		nc, err := w.o.Connect(ctx)
		if err != nil {
			w.log.Warn("web: no NATS connection; retrying", "err", err, "backoff", backoff)
			if !sleepCtx(ctx, backoff) {
				break
			}
			backoff = min(2*backoff, 5*time.Second)
			continue
		}
		backoff = 50 * time.Millisecond
		closed := make(chan struct{})
		nc.SetClosedHandler(func(*nats.Conn) { close(closed) })
		if err := w.subscribeStatus(nc); err != nil {
			w.log.Warn("web: subscribe board status", "err", err)
			nc.Close()
			continue
		}
		if _, err := nc.Subscribe(w.o.Subjects.publicFeed(), w.handle); err != nil {
			w.log.Warn("web: subscribe", "err", err)
			nc.Close()
			continue
		}
		if err := nc.Flush(); err != nil {
			w.log.Warn("web: subscribe", "err", err)
		}
		w.setSubscribed(true)
		w.seed()
		select {
		case <-ctx.Done():
			nc.Close()
		case <-closed:
		}
		w.setSubscribed(false)
	}
	return nil
}

func (w *Web) setSubscribed(v bool) {
	w.mu.Lock()
	w.subscribed = v
	w.mu.Unlock()
}

func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// seed applies the public store's states of the games shown that have heard
// nothing yet (what went public before this process subscribed; the
// publisher loads its store from NATS after it starts, so snapshot calls
// this too).
func (w *Web) seed() {
	if w.o.Public == nil {
		return
	}
	w.mu.Lock()
	var ids []game.ID
	for _, id := range w.slots {
		if !w.games[id].heard {
			ids = append(ids, id)
		}
	}
	w.mu.Unlock()
	for _, id := range ids {
		if st, ok := w.o.Public.Get(id); ok {
			w.apply(id, func(g *webGame, now time.Time) bool { return g.state(webGameState{GameState: st}, now) })
		}
	}
}

// handle is the subscription's callback: <p>.public.<event>.<round>.<board>.<leaf>.
func (w *Web) handle(m *nats.Msg) {
	rest, ok := strings.CutPrefix(m.Subject, w.o.Subjects.Prefix+".public.")
	if !ok {
		return
	}
	i := strings.LastIndexByte(rest, '.')
	if i < 0 {
		return
	}
	id, err := game.ParseID(rest[:i])
	if err != nil || id.Event != w.o.EventID {
		return
	}
	var fn func(g *webGame, now time.Time) bool
	var derr error
	switch rest[i+1:] {
	case "move":
		var ev webMoveEvent
		derr = decodeWeb(m.Data, &ev)
		fn = func(g *webGame, now time.Time) bool { return g.move(ev, now) }
	case "correction":
		var c game.Correction
		derr = decodeWeb(m.Data, &c)
		fn = func(g *webGame, _ time.Time) bool { return g.correct(c) }
	case "clock":
		var c game.ClockEvent
		derr = decodeWeb(m.Data, &c)
		fn = func(g *webGame, now time.Time) bool { return g.clockReading(c, now) }
	case "end":
		var r game.Result
		derr = decodeWeb(m.Data, &r)
		fn = func(g *webGame, now time.Time) bool { return g.end(r, now) }
	case "state":
		var st webGameState
		derr = decodeWeb(m.Data, &st)
		fn = func(g *webGame, now time.Time) bool { return g.state(st, now) }
	default:
		return
	}
	if derr != nil {
		w.log.Warn("web: undecodable public message", "subject", m.Subject, "err", derr)
		return
	}
	w.apply(id, fn)
}

// apply changes one game's view and tells the streams. A game of a board
// that is not configured is ignored; a later round's game takes the board
// over; an earlier round's is kept for its move list but not shown.
func (w *Web) apply(id game.ID, fn func(g *webGame, now time.Time) bool) {
	now := w.o.Now()
	w.mu.Lock()
	defer w.mu.Unlock()
	cur, ok := w.slots[id.Board]
	if !ok {
		return
	}
	g := w.games[id]
	if g == nil {
		if id.Round < cur.Round {
			return
		}
		base := w.games[cur]
		b := WebBoard{Game: id, BoardID: base.boardID, Variant: base.variant}
		if base.variant == "chess960" {
			b.StartFEN = base.startFEN
		}
		if base.partner != "" {
			if p, err := game.ParseID(base.partner); err == nil {
				b.Partner = p.Board
			}
		}
		g = newWebGame(b)
		w.games[id] = g
	}
	if !fn(g, now) {
		return
	}
	g.heard = true
	if id.Round > cur.Round {
		w.slots[id.Board] = id
		w.prune()
	}
	if w.slots[id.Board] != id {
		return
	}
	for c := range w.clients {
		c.mu.Lock()
		c.dirty[id] = struct{}{}
		c.mu.Unlock()
		select {
		case c.wake <- struct{}{}:
		default:
		}
	}
}

// prune forgets the games no board shows any more beyond one earlier round
// per board (their move lists stay available a while after a round change).
func (w *Web) prune() {
	if len(w.games) <= 2*len(w.slots) {
		return
	}
	for id := range w.games {
		if cur := w.slots[id.Board]; id != cur && id.Round < cur.Round-1 {
			delete(w.games, id)
		}
	}
}

// webSnapshot is GET api/public.json and the first event of each stream.
type webSnapshot struct {
	Now    int64          `json:"now"`
	Event  webEvent       `json:"event"`
	Boards []webBoardJSON `json:"boards"`
}

type webEvent struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Site string `json:"site"`
}

func (w *Web) event() webEvent {
	return webEvent{ID: w.o.EventID, Name: w.o.EventName, Site: w.o.Site}
}

// snapshot returns every board shown, by board number.
func (w *Web) snapshot() webSnapshot {
	w.seed()
	now := w.o.Now()
	w.mu.Lock()
	out := make([]webBoardJSON, 0, len(w.slots))
	for _, id := range w.slots {
		out = append(out, w.games[id].json(now))
	}
	w.mu.Unlock()
	slices.SortFunc(out, func(a, b webBoardJSON) int { return cmp.Compare(a.Board, b.Board) })
	return webSnapshot{Now: now.UnixMilli(), Event: w.event(), Boards: out}
}

// configBoards lists the boards shown, by board number, for the arbiters'
// page (which reads their live state from NATS itself).
func (w *Web) configBoards() []webConfigBoard {
	w.mu.Lock()
	out := make([]webConfigBoard, 0, len(w.slots))
	for _, id := range w.slots {
		g := w.games[id]
		out = append(out, webConfigBoard{Game: id.String(), Board: id.Board, BoardID: g.boardID, Variant: g.variant, StartFEN: g.startFEN})
	}
	w.mu.Unlock()
	slices.SortFunc(out, func(a, b webConfigBoard) int { return cmp.Compare(a.Board, b.Board) })
	return out
}

// webGameJSON is GET api/public/game/<g>.json: the board and its move list.
type webGameJSON struct {
	Board    webBoardJSON `json:"board"`
	StartFEN string       `json:"start_fen"`
	Plies    []webPly     `json:"plies"`
}

// game returns one game's board and move list; ok is false for a game the
// view does not hold.
func (w *Web) game(id game.ID) (webGameJSON, bool) {
	now := w.o.Now()
	w.mu.Lock()
	g, ok := w.games[id]
	if !ok {
		w.mu.Unlock()
		return webGameJSON{}, false
	}
	b := g.json(now)
	// The replay runs on a copy, outside the lock.
	cp := *g
	cp.moves = slices.Clone(g.moves)
	cp.san = slices.Clone(g.san)
	cp.notation = slices.Clone(g.notation)
	cp.seen = make(map[int]webPly, len(g.seen))
	for k, v := range g.seen {
		cp.seen[k] = v
	}
	w.mu.Unlock()
	return webGameJSON{Board: b, StartFEN: cp.startFEN, Plies: cp.plies()}, true
}

// changed returns the boards (shown) changed since the client's last call.
func (w *Web) changed(c *webClient) []webBoardJSON {
	c.mu.Lock()
	ids := make([]game.ID, 0, len(c.dirty))
	for id := range c.dirty {
		ids = append(ids, id)
	}
	clear(c.dirty)
	c.mu.Unlock()
	now := w.o.Now()
	w.mu.Lock()
	out := make([]webBoardJSON, 0, len(ids))
	for _, id := range ids {
		if g := w.games[id]; g != nil && w.slots[id.Board] == id {
			out = append(out, g.json(now))
		}
	}
	w.mu.Unlock()
	slices.SortFunc(out, func(a, b webBoardJSON) int { return cmp.Compare(a.Board, b.Board) })
	return out
}

// subscribe registers a stream; ok is false when MaxStreams are open.
func (w *Web) subscribe() (*webClient, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.clients) >= w.o.MaxStreams {
		return nil, false
	}
	c := &webClient{dirty: map[game.ID]struct{}{}, wake: make(chan struct{}, 1)}
	w.clients[c] = struct{}{}
	return c, true
}

func (w *Web) unsubscribe(c *webClient) {
	w.mu.Lock()
	delete(w.clients, c)
	w.mu.Unlock()
}
