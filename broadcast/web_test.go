package broadcast

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
)

// webFixture is a real embedded server, a Web fed by it, and the pages
// served over HTTP.
type webFixture struct {
	srv  *Server
	web  *Web
	http *httptest.Server
	pub  *nats.Conn // the daemon's own user: may publish the public copy
}

func startWeb(t testing.TB, o WebOptions) *webFixture {
	t.Helper()
	srv := startServer(t, t.TempDir())
	t.Cleanup(srv.Shutdown)
	s, _ := NewSubjects(testPrefix)
	o.Subjects = s
	if o.EventID == "" {
		o.EventID = testGame.Event
	}
	o.Connect = srv.Dialer()
	w, err := NewWeb(o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Web.Run: %v", err)
		}
	})
	hs := NewHTTPServer(HTTPOptions{Games: NewStore(nil), Web: w})
	ts := httptest.NewServer(hs.handler())
	t.Cleanup(ts.Close)
	nc, err := srv.Connect()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	waitFor(t, "web subscription", 5*time.Second, func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.subscribed
	})
	return &webFixture{srv: srv, web: w, http: ts, pub: nc}
}

func (f *webFixture) publish(t testing.TB, subject string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.pub.Publish(subject, b); err != nil {
		t.Fatal(err)
	}
	if err := f.pub.Flush(); err != nil {
		t.Fatal(err)
	}
}

func (f *webFixture) board(t *testing.T, g game.ID) webBoardJSON {
	t.Helper()
	for _, b := range f.web.snapshot().Boards {
		if b.Game == g.String() {
			return b
		}
	}
	t.Fatalf("no board %s in the snapshot", g)
	return webBoardJSON{}
}

const (
	fenStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	fenE4    = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
	fenE4E5  = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
)

// TestWebShowsOnlyThePublicCopy: a real publisher with a public delay
// publishes a move; the live copy is on NATS at once, the web view still
// shows the start position until the public copy is out, then the move.
// An alert of the game never reaches the view.
func TestWebShowsOnlyThePublicCopy(t *testing.T) {
	dir := t.TempDir()
	srv := startServer(t, dir)
	t.Cleanup(srv.Shutdown)
	const delay = 700 * time.Millisecond
	p := newPublisher(t, t.TempDir(), srv.Dialer(), delay)
	runPublisher(t, p)
	s, _ := NewSubjects(testPrefix)
	w, err := NewWeb(WebOptions{Subjects: s, EventID: testGame.Event, Connect: srv.Dialer(), Public: p.Public(),
		Boards: []WebBoard{{Game: testGame, White: "A", Black: "B", WhiteFideID: "1503014"}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = w.Run(ctx) }()

	nc, err := srv.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	live := make(chan *nats.Msg, 8)
	if _, err := nc.ChanSubscribe(s.move(testGame), live); err != nil {
		t.Fatal(err)
	}
	nc.Flush()
	waitFor(t, "web subscription", 5*time.Second, func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.subscribed
	})

	b := w.snapshot().Boards[0]
	if b.FEN != fenStart || b.Ply != 0 || b.Status != "waiting" || b.WhiteFideID != "1503014" {
		t.Fatalf("before any move: %+v", b)
	}
	ev := game.MoveEvent{Game: testGame, Ply: 1, SAN: "e4", UCI: "e2e4", FEN: fenE4, Clock: &game.ClockPair{WhiteMS: 5400000, BlackMS: 5400000}, At: game.T(time.Now())}
	if err := p.PublishMove(ev); err != nil {
		t.Fatal(err)
	}
	if err := p.PublishAlert(game.Alert{ID: "a1", Game: testGame, Kind: "illegal_move"}); err != nil {
		t.Fatal(err)
	}
	published := time.Now()
	select {
	case <-live:
	case <-time.After(5 * time.Second):
		t.Fatal("no live move")
	}
	if b := w.snapshot().Boards[0]; b.FEN != fenStart || b.Ply != 0 {
		t.Fatalf("the view shows the move before the public copy: %+v", b)
	}
	waitFor(t, "the public move", 5*time.Second, func() bool { return w.snapshot().Boards[0].Ply == 1 })
	if el := time.Since(published); el < delay {
		t.Errorf("the move showed %v after it was published, before the public delay %v", el, delay)
	}
	b = w.snapshot().Boards[0]
	if b.FEN != fenE4 || b.Last == nil || b.Last.SAN != "e4" || b.Clock == nil || b.Clock.Running != game.RunningBlack {
		t.Errorf("after the public move: %+v", b)
	}
	raw, _ := json.Marshal(w.snapshot())
	if strings.Contains(string(raw), "illegal_move") || strings.Contains(string(raw), "alert") {
		t.Errorf("an alert reached the public view: %s", raw)
	}
}

// TestWebMoveList: the move list has the FEN of every ply, from the
// MoveEvents seen and, for plies the view only knows from a GameState (a
// restart), replayed by the rules engine; a correction shortens it.
func TestWebMoveList(t *testing.T) {
	f := startWeb(t, WebOptions{Boards: []WebBoard{{Game: testGame}}})
	s := f.web.o.Subjects
	f.publish(t, s.publicState(testGame), game.GameState{Game: testGame, Event: testGame.Event, Round: 1, Board: 1, White: "Carlsen, Magnus", Black: "Nepo",
		Variant: "chess", FEN: fenE4E5, Moves: []string{"e2e4", "e7e5"}, SAN: []string{"e4", "e5"}, Status: "playing", UpdatedAt: game.T(time.Now()),
		PGN: "[Event \"x\"]\n[WhiteFideId \"1503014\"]\n[BlackFideId \"4168119\"]\n\n1. e4 e5 *\n"})
	waitFor(t, "state", 5*time.Second, func() bool { return f.board(t, testGame).Ply == 2 })
	b := f.board(t, testGame)
	if b.White != "Carlsen, Magnus" || b.WhiteFideID != "1503014" || b.BlackFideID != "4168119" {
		t.Errorf("players from the state and its PGN tags: %+v", b)
	}
	f.publish(t, s.publicMove(testGame), game.MoveEvent{Game: testGame, Ply: 3, SAN: "Nf3", UCI: "g1f3", FEN: "fen-from-the-event", At: game.T(time.Now())})
	waitFor(t, "move 3", 5*time.Second, func() bool { return f.board(t, testGame).Ply == 3 })

	g := getJSONT[webGameJSON](t, f.http.URL+"/api/public/game/"+testGame.String()+".json")
	if len(g.Plies) != 3 || g.Plies[0].FEN != fenE4 || g.Plies[1].FEN != fenE4E5 || g.Plies[2].FEN != "fen-from-the-event" || g.Plies[2].SAN != "Nf3" {
		t.Fatalf("move list %+v", g.Plies)
	}
	if g.StartFEN != fenStart {
		t.Errorf("start FEN %q", g.StartFEN)
	}
	// A payload that does not decode is dropped; the board stays as it was.
	if err := f.pub.Publish(s.publicMove(testGame), []byte(`{"ply":4,"fen":`)); err != nil {
		t.Fatal(err)
	}
	f.publish(t, s.publicClock(testGame), game.ClockEvent{Game: testGame, WhiteMS: 1000, BlackMS: 2000, Running: game.RunningWhite})
	waitFor(t, "clock", 5*time.Second, func() bool { c := f.board(t, testGame).Clock; return c != nil && c.BlackMS == 2000 })
	if b := f.board(t, testGame); b.Ply != 3 {
		t.Fatalf("a broken payload changed the board: %+v", b)
	}
	f.publish(t, s.publicCorrection(testGame), game.Correction{Game: testGame, Ply: 1, FEN: fenE4, Moves: []string{"e2e4"}, Reason: "reinstate", Revision: 1})
	waitFor(t, "correction", 5*time.Second, func() bool { return f.board(t, testGame).Ply == 1 })
	if b := f.board(t, testGame); b.FEN != fenE4 || b.Revision != 1 || b.Last.SAN != "e4" {
		t.Errorf("after the correction: %+v", b)
	}
	// A move of the old revision that arrives late changes nothing.
	f.publish(t, s.publicMove(testGame), game.MoveEvent{Game: testGame, Ply: 2, SAN: "e5", UCI: "e7e5", FEN: fenE4E5, Revision: 0})
	f.publish(t, s.publicEnd(testGame), game.Result{Game: testGame, Result: "1-0", Termination: "resignation", Revision: 1})
	waitFor(t, "result", 5*time.Second, func() bool { return f.board(t, testGame).Result == "1-0" })
	if b := f.board(t, testGame); b.Ply != 1 || b.Status != "ended" {
		t.Errorf("a stale move changed the view: %+v", b)
	}
}

// TestWebRoundChange: a board's next game (a later round) takes its place
// on the page; a game of a board that is not configured, or of another
// event, is not shown.
func TestWebRoundChange(t *testing.T) {
	f := startWeb(t, WebOptions{Boards: []WebBoard{{Game: testGame, White: "A", Black: "B"}}})
	s := f.web.o.Subjects
	next := game.ID{Event: testGame.Event, Round: 2, Board: 1}
	f.publish(t, s.publicState(game.ID{Event: testGame.Event, Round: 1, Board: 9}), game.GameState{Game: game.ID{Event: testGame.Event, Round: 1, Board: 9}, FEN: fenE4})
	f.publish(t, s.publicState(game.ID{Event: "other", Round: 1, Board: 1}), game.GameState{Game: game.ID{Event: "other", Round: 1, Board: 1}, FEN: fenE4})
	f.publish(t, s.publicState(next), game.GameState{Game: next, Event: next.Event, Round: 2, Board: 1, White: "C", Black: "D", Variant: "chess", FEN: fenStart, Status: "waiting", UpdatedAt: game.T(time.Now())})
	waitFor(t, "round 2", 5*time.Second, func() bool { return f.web.snapshot().Boards[0].Game == next.String() })
	snap := f.web.snapshot()
	if len(snap.Boards) != 1 || snap.Boards[0].White != "C" {
		t.Errorf("boards %+v", snap.Boards)
	}
}

// TestWebEventStream: the stream starts with the snapshot and sends a
// "board" event when a public message changes a board.
func TestWebEventStream(t *testing.T) {
	f := startWeb(t, WebOptions{Boards: []WebBoard{{Game: testGame}}})
	req, _ := http.NewRequest("GET", f.http.URL+"/api/public/events", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("content type %q", ct)
	}
	events := make(chan [2]string, 16)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		var name string
		for sc.Scan() {
			line := sc.Text()
			if n, ok := strings.CutPrefix(line, "event: "); ok {
				name = n
			} else if d, ok := strings.CutPrefix(line, "data: "); ok {
				events <- [2]string{name, d}
			}
		}
		close(events)
	}()
	next := func() [2]string {
		select {
		case e, ok := <-events:
			if !ok {
				t.Fatal("stream closed")
			}
			return e
		case <-time.After(5 * time.Second):
			t.Fatal("no event")
		}
		return [2]string{}
	}
	first := next()
	var snap webSnapshot
	if first[0] != "snapshot" || json.Unmarshal([]byte(first[1]), &snap) != nil || len(snap.Boards) != 1 {
		t.Fatalf("first event %v", first)
	}
	f.publish(t, f.web.o.Subjects.publicMove(testGame), game.MoveEvent{Game: testGame, Ply: 1, SAN: "e4", UCI: "e2e4", FEN: fenE4})
	e := next()
	var b webBoardJSON
	if e[0] != "board" || json.Unmarshal([]byte(e[1]), &b) != nil || b.FEN != fenE4 || b.Ply != 1 {
		t.Fatalf("board event %v", e)
	}
}

// TestWebPages: the pages and their assets are served with a
// Content-Security-Policy that allows no inline script, and every URL in
// the HTML is relative (the pages work under a reverse proxy's prefix).
func TestWebPages(t *testing.T) {
	f := startWeb(t, WebOptions{Boards: []WebBoard{{Game: testGame}}, Websocket: "0.0.0.0:8443"})
	for _, page := range []string{"/", "/arbiter", "/hall"} {
		resp, err := http.Get(f.http.URL + page)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		csp := resp.Header.Get("Content-Security-Policy")
		if resp.StatusCode != 200 || !strings.Contains(csp, "script-src 'self';") || strings.Contains(csp, "script-src 'self' 'unsafe") {
			t.Errorf("%s: %d, CSP %q", page, resp.StatusCode, csp)
		}
		html := string(body)
		if strings.Contains(html, `src="/`) || strings.Contains(html, `href="/`) || strings.Contains(html, "<script>") {
			t.Errorf("%s: an absolute URL or an inline script:\n%s", page, html)
		}
		for _, a := range []string{"assets/app.css", "assets/spectators.js", "assets/arbiter.js", "assets/hall.js", "assets/licenses.txt", "assets/xiangqi.woff", "assets/xiangqi-font-license.txt"} {
			if strings.Contains(html, a) || !strings.HasSuffix(a, ".js") && !strings.HasSuffix(a, ".css") {
				r, err := http.Get(f.http.URL + "/" + a)
				if err != nil || r.StatusCode != 200 {
					t.Errorf("%s: %v %v", a, err, r)
				}
				if r != nil {
					r.Body.Close()
				}
			}
		}
	}
	// The websocket URL: an unspecified listener host becomes the page's host.
	req, _ := http.NewRequest("GET", f.http.URL+"/api/config.json", nil)
	req.Host = "hall.example:8080"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var cfg webConfig
	if err := json.NewDecoder(resp.Body).Decode(&cfg); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if cfg.Websocket != "ws://hall.example:8443" || cfg.Prefix != testPrefix || len(cfg.Boards) != 1 {
		t.Errorf("config %+v", cfg)
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "connect-src 'self' ws://hall.example:8443") {
		t.Errorf("CSP %q", csp)
	}
	// With TLS on the listener: wss://, in the config and the policy.
	tls := startWeb(t, WebOptions{Boards: []WebBoard{{Game: testGame}}, Websocket: "0.0.0.0:8443", WebsocketTLS: true})
	req, _ = http.NewRequest("GET", tls.http.URL+"/api/config.json", nil)
	req.Host = "hall.example:8080"
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.NewDecoder(resp.Body).Decode(&cfg); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if csp := resp.Header.Get("Content-Security-Policy"); cfg.Websocket != "wss://hall.example:8443" || !strings.Contains(csp, "connect-src 'self' wss://hall.example:8443") {
		t.Errorf("with TLS: websocket %q, CSP %q", cfg.Websocket, csp)
	}
	if r, _ := http.Get(f.http.URL + "/assets/..%2fweb.go"); r == nil || r.StatusCode != 404 {
		t.Errorf("asset outside assets/: %v", r)
	}
}

func getJSONT[T any](t *testing.T, url string) T {
	t.Helper()
	var v T
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %s", url, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestWebBoardStatus: <p>.api.boards answers the latest status of each
// board to an arbiter; the public role may not ask.
func TestWebBoardStatus(t *testing.T) {
	srv := startServer(t, t.TempDir(), testUsers...)
	t.Cleanup(srv.Shutdown)
	s, _ := NewSubjects(testPrefix)
	w, err := NewWeb(WebOptions{Subjects: s, EventID: testGame.Event, Connect: srv.Dialer(), Boards: []WebBoard{{Game: testGame, BoardID: "r1-b1"}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = w.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	waitFor(t, "web subscription", 5*time.Second, func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.subscribed
	})
	daemon, _ := srv.Connect()
	defer daemon.Close()
	for _, st := range []game.BoardStatus{
		{BoardID: "r1-b1", Port: "/dev/ttyACM0", Connected: true, At: game.T(time.Unix(10, 0))},
		{BoardID: "r1-b2", Port: "/dev/ttyACM1", Connected: true, At: game.T(time.Unix(10, 0))},
		{BoardID: "r1-b1", Port: "/dev/ttyACM0", Connected: false, Error: "unplugged", At: game.T(time.Unix(20, 0))},
	} {
		b, _ := json.Marshal(st)
		subj, _ := s.boardStatus(st.BoardID)
		daemon.Publish(subj, b)
	}
	daemon.Flush()
	arb, err := nats.Connect("", nats.InProcessServer(srv.NATS()), nats.UserInfo("arb", "arb-pw"), nats.CustomInboxPrefix(ArbiterInboxPrefix))
	if err != nil {
		t.Fatal(err)
	}
	defer arb.Close()
	var got webBoards
	waitFor(t, "both statuses", 5*time.Second, func() bool {
		m, err := arb.Request(s.boardsSubject(), nil, 2*time.Second)
		if err != nil || json.Unmarshal(m.Data, &got) != nil {
			return false
		}
		return len(got.Boards) == 2 && !got.Boards[0].Connected
	})
	if got.Boards[0].BoardID != "r1-b1" || got.Boards[0].Error != "unplugged" || got.Boards[1].BoardID != "r1-b2" {
		t.Errorf("statuses %+v", got.Boards)
	}
	viewer, err := nats.Connect("", nats.InProcessServer(srv.NATS()), nats.UserInfo("viewer", "viewer-pw"), nats.CustomInboxPrefix(PublicInboxPrefix))
	if err != nil {
		t.Fatal(err)
	}
	defer viewer.Close()
	if _, err := viewer.Request(s.boardsSubject(), nil, 500*time.Millisecond); err == nil {
		t.Error("the public role got the board statuses")
	}
}

// TestWebSeedsFromThePublicStore: after a restart the view shows what the
// publisher's public store holds (loaded from NATS) before any new message.
func TestWebSeedsFromThePublicStore(t *testing.T) {
	store := NewStore(nil)
	f := startWeb(t, WebOptions{Boards: []WebBoard{{Game: testGame}}, Public: store})
	if b := f.board(t, testGame); b.Ply != 0 {
		t.Fatalf("before: %+v", b)
	}
	store.Put(game.GameState{Game: testGame, White: "A", Black: "B", Variant: "chess", FEN: fenE4, Moves: []string{"e2e4"}, SAN: []string{"e4"}, Status: "playing", UpdatedAt: game.T(time.Now())})
	if b := f.board(t, testGame); b.Ply != 1 || b.FEN != fenE4 || b.White != "A" {
		t.Errorf("seeded: %+v", b)
	}
	// Once the view has heard the public copy, an older store state does not roll it back.
	f.publish(t, f.web.o.Subjects.publicMove(testGame), game.MoveEvent{Game: testGame, Ply: 2, SAN: "e5", UCI: "e7e5", FEN: fenE4E5})
	waitFor(t, "move 2", 5*time.Second, func() bool { return f.board(t, testGame).Ply == 2 })
	if b := f.board(t, testGame); b.Ply != 2 {
		t.Errorf("rolled back: %+v", b)
	}
}
