package broadcast

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/internal/browser"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
)

// Browser tests of the pages against a real nats-server (users, websocket)
// and payload fixtures this test publishes itself: the variants that other
// streams wire into the hall later (team-drop pockets and partner board,
// xiangqi on 9×10), the arbiters' page's sign-in, refusals, alerts and the
// operator move entry (<p>.input.<g>.move) against a responder of the test.

var (
	g960   = game.ID{Event: "open2026", Round: 1, Board: 2}
	gTeamA = game.ID{Event: "open2026", Round: 1, Board: 3}
	gTeamB = game.ID{Event: "open2026", Round: 1, Board: 4}
	gXQ    = game.ID{Event: "open2026", Round: 1, Board: 5}
)

const (
	fen960   = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1"
	fenXQ    = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
	fenXQ1   = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
	fenTeam1 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[NP] b KQkq - 0 1"
)

type browserFixture struct {
	*webFixture
	base string // the pages' URL, ending in /
	ws   string // the websocket listener, host:port

	mu       sync.Mutex
	requests []string // every request URI the HTTP server got
}

// requested returns every request URI the pages' server got so far.
func (f *browserFixture) requested() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.requests...)
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startBrowserFixture: a server with the test users and a websocket
// listener, five boards (chess, Chess960, two team-drop partners, xiangqi).
func startBrowserFixture(t *testing.T) *browserFixture {
	t.Helper()
	return startBrowserFixtureWith(t, []WebBoard{
		{Game: testGame, BoardID: "r1-b1", White: "Carlsen, Magnus", Black: "Nepomniachtchi, Ian", WhiteFideID: "1503014", BlackFideID: "4168119"},
		{Game: g960, BoardID: "r1-b2", White: "A960", Black: "B960", Variant: "chess960", StartFEN: fen960},
		{Game: gTeamA, BoardID: "r1-b3", White: "TA-W", Black: "TA-B", Variant: "team-drop", Partner: 4, WhiteTeam: "Hanoi", BlackTeam: "Saigon"},
		{Game: gTeamB, BoardID: "r1-b4", White: "TB-W", Black: "TB-B", Variant: "team-drop", Partner: 3},
		{Game: gXQ, BoardID: "r1-b5", White: "Red", Black: "Black", Variant: "xiangqi"},
	})
}

// startBrowserFixtureWith is startBrowserFixture with the given boards.
func startBrowserFixtureWith(t *testing.T, boards []WebBoard) *browserFixture {
	t.Helper()
	ws := freeAddr(t)
	srv, err := StartServer(ServerOptions{Prefix: testPrefix, StoreDir: t.TempDir(), Websocket: ws, Users: testUsers})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	s, _ := NewSubjects(testPrefix)
	w, err := NewWeb(WebOptions{Subjects: s, EventID: testGame.Event, EventName: "Open 2026", Site: "Hanoi", Connect: srv.Dialer(), Websocket: ws, Boards: boards})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = w.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	hs := NewHTTPServer(HTTPOptions{Games: NewStore(nil), Web: w})
	f := &browserFixture{ws: ws}
	ts := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.requests = append(f.requests, r.RequestURI)
		f.mu.Unlock()
		hs.handler().ServeHTTP(rw, r)
	}))
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
	f.webFixture = &webFixture{srv: srv, web: w, http: ts, pub: nc}
	f.base = ts.URL + "/"
	return f
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func cardSel(g game.ID) string {
	return fmt.Sprintf(`[data-view="grid"][data-game="%s"]`, g)
}

func q(sel string) string { return "document.querySelector(" + browser.Quote(sel) + ")" }

func noProblems(t *testing.T, b *browser.Browser) {
	t.Helper()
	if p := b.Problems(); len(p) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(p, "\n"))
	}
}

// TestBrowserSpectatorsVariants: the spectators' page shows every board at
// its start position, follows public moves of every variant (team-drop
// pockets and the partner board beside the large one; xiangqi on 9×10),
// ticks the clock, shows results, browses the move list, and logs no error.
func TestBrowserSpectatorsVariants(t *testing.T) {
	b := browser.Start(t)
	f := startBrowserFixture(t)
	s := f.web.o.Subjects
	ctx := b.Tab(t)
	must(t, browser.Navigate(ctx, f.base))

	// Every board, at its start position, drawn.
	starts := map[game.ID]string{testGame: fenStart, g960: fen960, gTeamA: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1", gTeamB: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1", gXQ: fenXQ}
	browser.MustWait(t, ctx, `document.querySelectorAll('[data-view="grid"][data-game]').length === 5`, 10*time.Second)
	for g, fen := range starts {
		browser.MustWait(t, ctx, q(cardSel(g))+".dataset.fen === "+browser.Quote(fen), 10*time.Second)
	}
	browser.MustWait(t, ctx, q(cardSel(gXQ)+" .diagram.xq cg-board")+" && "+q(cardSel(gXQ)+" cg-board")+".querySelectorAll('piece').length === 32", 10*time.Second)
	if n := browser.MustEval[int](t, ctx, q(cardSel(testGame)+" cg-board")+".querySelectorAll('piece').length"); n != 32 {
		t.Errorf("chess diagram: %d pieces", n)
	}
	if txt := browser.MustEval[string](t, ctx, q(cardSel(testGame))+".textContent"); !strings.Contains(txt, "Carlsen, Magnus") || !strings.Contains(txt, "FIDE 1503014") {
		t.Errorf("players: %q", txt)
	}

	// Moves of each variant.
	now := game.T(time.Now())
	f.publish(t, s.publicMove(testGame), game.MoveEvent{Game: testGame, Ply: 1, SAN: "e4", UCI: "e2e4", FEN: fenE4, At: now, Clock: &game.ClockPair{WhiteMS: 61000, BlackMS: 62000}})
	f.publish(t, s.publicMove(testGame), game.MoveEvent{Game: testGame, Ply: 2, SAN: "e5", UCI: "e7e5", FEN: fenE4E5, At: now, Clock: &game.ClockPair{WhiteMS: 61000, BlackMS: 60000}})
	f.publish(t, s.publicMove(gTeamA), webMoveEvent{MoveEvent: game.MoveEvent{Game: gTeamA, Ply: 1, SAN: "e4", UCI: "e2e4", FEN: fenTeam1, At: now},
		Pockets: &webPockets{White: "NP", Black: ""}, Partner: gTeamB.String()})
	f.publish(t, s.publicMove(gXQ), game.MoveEvent{Game: gXQ, Ply: 1, SAN: "C2.5", UCI: "h2e2", FEN: fenXQ1, Notation: "P2-5", At: now})
	browser.MustWait(t, ctx, q(cardSel(testGame))+".dataset.fen === "+browser.Quote(fenE4E5), 10*time.Second)
	browser.MustWait(t, ctx, q(cardSel(gTeamA))+".dataset.fen === "+browser.Quote(fenTeam1), 10*time.Second)
	browser.MustWait(t, ctx, q(cardSel(gXQ))+".dataset.fen === "+browser.Quote(fenXQ1), 10*time.Second)
	// The pockets: a knight and a pawn in White's.
	browser.MustWait(t, ctx, q(cardSel(gTeamA)+` .pocket piece[data-color="white"][data-role="n-piece"]`)+`?.dataset.nb === "1"`, 10*time.Second)
	browser.MustWait(t, ctx, q(cardSel(gTeamA)+` .pocket piece[data-color="white"][data-role="p-piece"]`)+`?.dataset.nb === "1"`, 10*time.Second)
	if nb := browser.MustEval[string](t, ctx, q(cardSel(gTeamA)+` .pocket piece[data-color="white"][data-role="q-piece"]`)+".dataset.nb"); nb != "0" {
		t.Errorf("white queens in pocket: %q", nb)
	}
	// Xiangqi's notation follows the language: WXF in English, Vietnamese in Vietnamese.
	if txt := browser.MustEval[string](t, ctx, q(cardSel(gXQ))+".textContent"); !strings.Contains(txt, "1. C2.5") {
		t.Errorf("xiangqi last move (English): %q", txt)
	}

	// The clock ticks: White's runs after 1…e5, from 1:01.
	first := browser.MustEval[string](t, ctx, q(cardSel(testGame)+` [data-clock="white"]`)+".textContent")
	if first != "1:01" && first != "1:00" {
		t.Errorf("white clock %q, want about 1:01", first)
	}
	browser.MustWait(t, ctx, q(cardSel(testGame)+` [data-clock="white"]`)+".textContent !== "+browser.Quote(first), 10*time.Second)
	if w := browser.MustEval[string](t, ctx, q(cardSel(testGame)+` [data-clock="black"]`)+".textContent"); w != "1:00" {
		t.Errorf("black's clock, not running, shows %q", w)
	}

	// A result.
	f.publish(t, s.publicEnd(g960), game.Result{Game: g960, Result: "0-1", Termination: "resignation", At: now})
	browser.MustWait(t, ctx, q(cardSel(g960)+` [data-result="0-1"]`)+" !== null", 10*time.Second)
	_, err := browser.Eval[bool](ctx, `(() => { const s = document.querySelector('select[data-lang-switch]'); s.value = 'vi'; s.dispatchEvent(new Event('change')); return true; })()`)
	must(t, err)
	browser.MustWait(t, ctx, q(cardSel(gXQ))+".textContent.includes('1. P2-5')", 5*time.Second)
	_, err = browser.Eval[bool](ctx, `(() => { const s = document.querySelector('select[data-lang-switch]'); s.value = 'en'; s.dispatchEvent(new Event('change')); return true; })()`)
	must(t, err)

	// The large board: browse the move list of board 1.
	must(t, browser.Click(ctx, cardSel(testGame)))
	browser.MustWait(t, ctx, q(`[data-view="focus"][data-game="open2026.1.1"]`)+"?.dataset.fen === "+browser.Quote(fenE4E5), 10*time.Second)
	browser.MustWait(t, ctx, `document.querySelectorAll('#moves [data-ply]').length === 2`, 10*time.Second)
	must(t, browser.Click(ctx, "#prev"))
	browser.MustWait(t, ctx, q(`[data-view="focus"]`)+".dataset.fen === "+browser.Quote(fenE4), 10*time.Second)
	must(t, browser.Click(ctx, "#first"))
	browser.MustWait(t, ctx, q(`[data-view="focus"]`)+".dataset.fen === "+browser.Quote(fenStart), 10*time.Second)
	// A new move while browsing back does not move the view; "live" does.
	f.publish(t, s.publicMove(testGame), game.MoveEvent{Game: testGame, Ply: 3, SAN: "Nf3", UCI: "g1f3", FEN: "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2", At: now})
	browser.MustWait(t, ctx, `document.querySelectorAll('#moves [data-ply]').length === 3`, 10*time.Second)
	if fen := browser.MustEval[string](t, ctx, q(`[data-view="focus"]`)+".dataset.fen"); fen != fenStart {
		t.Errorf("browsing the start position, a new move moved the view to %q", fen)
	}
	must(t, browser.Click(ctx, "#live"))
	browser.MustWait(t, ctx, q(`[data-view="focus"]`)+`.dataset.fen.startsWith("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2")`, 10*time.Second)
	if href := browser.MustEval[string](t, ctx, q("#pgn")+".getAttribute('href')"); href != "pgn/open2026/1/1.pgn" {
		t.Errorf("PGN link %q", href)
	}

	// The team-drop board large: its partner beside it.
	must(t, browser.Click(ctx, cardSel(gTeamA)))
	browser.MustWait(t, ctx, q(`[data-view="partner"][data-game="open2026.1.4"]`)+" !== null", 10*time.Second)
	browser.MustWait(t, ctx, q(`[data-view="focus"][data-game="open2026.1.3"] .pocket`)+" !== null", 10*time.Second)

	browser.Keep(t, ctx, "spectators-variants")
	// Phone width: readable, no horizontal scroll.
	must(t, browser.Viewport(ctx, 390, 844))
	browser.MustWait(t, ctx, "document.documentElement.scrollWidth <= 390", 10*time.Second)
	browser.Keep(t, ctx, "spectators-variants-phone")
	noProblems(t, b)
}

// TestBrowserArbiterFixtures: the arbiters' page signs in over websocket
// as an arbiter, shows an alert with its evidence and commands, shows a
// refused command's error, enters a move through <p>.input.<g>.move (a
// responder of this test), follows the live copy and board status; a
// public or organiser user, or a wrong password, gets a data-error and no
// alert.
func TestBrowserArbiterFixtures(t *testing.T) {
	b := browser.Start(t)
	f := startBrowserFixture(t)
	p := testPrefix

	inputs := make(chan map[string]any, 4)
	_, err := f.pub.Subscribe(p+".input."+gXQ.String()+".move", func(m *nats.Msg) {
		var v map[string]any
		_ = json.Unmarshal(m.Data, &v)
		inputs <- v
		_ = m.Respond([]byte(`{"ok":true,"error":"","ply":1}`))
	})
	must(t, err)
	cmds := make(chan map[string]any, 4)
	_, err = f.pub.Subscribe(p+".arbiter."+testGame.String()+".cmd", func(m *nats.Msg) {
		var v map[string]any
		_ = json.Unmarshal(m.Data, &v)
		cmds <- v
		_ = m.Respond([]byte(`{"ok":false,"error":"alert already handled (test)"}`))
	})
	must(t, err)
	must(t, f.pub.Flush())

	ctx := b.Tab(t)
	must(t, browser.Navigate(ctx, f.base+"arbiter"))
	browser.MustWait(t, ctx, q("form[data-signin][data-ready]")+" !== null", 10*time.Second)
	_, err = browser.Eval[bool](ctx, `(() => { const f = document.querySelector('form[data-signin]'); f.user.value = 'arb'; f.password.value = 'arb-pw'; f.requestSubmit(); return true; })()`)
	must(t, err)
	browser.MustWait(t, ctx, q(`#connection[data-connection="live"]`)+" !== null", 10*time.Second)
	browser.MustWait(t, ctx, `document.querySelectorAll('#boards [data-game]').length === 5`, 10*time.Second)
	if stored := browser.MustEval[string](t, ctx, "String(localStorage.getItem('dgtbridge.arbiter'))"); stored != "null" {
		t.Errorf("credentials kept without being asked: %s", stored)
	}

	// An alert comes: severity, article, message, evidence, proposal, commands.
	al := map[string]any{"id": "open2026.1.1.illegal_move.3.0", "game": testGame.String(), "kind": "illegal_move", "severity": "crit",
		"article": "7.5.5", "side": "white", "ply": 3, "message": "White's second illegal move.",
		"proposal": map[string]any{"result": "0-1", "reinstate_ply": 2},
		"evidence": []map[string]any{{"at": "2026-02-08T08:01:02.345Z", "square": "g1", "piece": "N", "event": "lift"}, {"at": "2026-02-08T08:01:03.001Z", "square": "e2", "piece": "N", "event": "place"}, {"at": "2026-02-08T08:01:03.400Z", "event": "clock"}},
		"at":       "2026-02-08T08:01:03.500Z"}
	f.publish(t, p+".arbiter."+testGame.String()+".alert", al)
	sel := `[data-alert-id="open2026.1.1.illegal_move.3.0"][data-kind="illegal_move"]`
	browser.MustWait(t, ctx, q(sel)+" !== null", 10*time.Second)
	txt := browser.MustEval[string](t, ctx, q(sel)+".textContent")
	for _, want := range []string{"crit", "7.5.5", "White's second illegal move.", "lift N g1", "place N e2", "result: 0-1"} {
		if !strings.Contains(txt, want) {
			t.Errorf("alert text lacks %q: %s", want, txt)
		}
	}
	for _, c := range []string{"acknowledge", "reject", "apply_penalty", "reinstate", "set_result"} {
		if browser.MustEval[bool](t, ctx, q(sel+` button[data-cmd="`+c+`"]`)+" === null") {
			t.Errorf("no %s button in the alert", c)
		}
	}
	must(t, browser.Click(ctx, sel+` button[data-cmd="reinstate"]`))
	select {
	case c := <-cmds:
		if c["cmd"] != "reinstate" || c["ply"] != float64(2) || c["by"] != "arb" {
			t.Errorf("command sent %v", c)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no command reached NATS")
	}
	browser.MustWait(t, ctx, q(sel+" [data-error]")+"?.textContent.includes('alert already handled (test)')", 10*time.Second)

	// Operator move entry on the xiangqi board.
	card := `#boards [data-game="open2026.1.5"]`
	_, err = browser.Eval[bool](ctx, `(() => { const c = document.querySelector('`+card+`'); c.querySelector('details').open = true; const f = c.querySelector('button[data-cmd="move"]').form; f.move.value = 'P2-5'; f.notation.value = 'vi'; f.requestSubmit(); return true; })()`)
	must(t, err)
	select {
	case in := <-inputs:
		if in["move"] != "P2-5" || in["notation"] != "vi" {
			t.Errorf("move entry sent %v", in)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no move entry reached NATS")
	}
	browser.MustWait(t, ctx, q(card+` [data-reply="ok"]`)+"?.textContent.includes('ply 1')", 10*time.Second)

	// The live copy (KV puts) and the board status.
	f.publish(t, "$KV."+p+"_games."+testGame.String(), game.GameState{Game: testGame, Event: testGame.Event, Round: 1, Board: 1, White: "Carlsen, Magnus", Black: "Nepomniachtchi, Ian",
		Variant: "chess", FEN: fenE4, Moves: []string{"e2e4"}, SAN: []string{"e4"}, Status: "playing", UpdatedAt: game.T(time.Now()), Clock: &game.ClockPair{WhiteMS: 5400000, BlackMS: 5399000}})
	browser.MustWait(t, ctx, q(`#boards [data-game="open2026.1.1"]`)+".dataset.fen === "+browser.Quote(fenE4), 10*time.Second)
	f.publish(t, p+".board.r1-b1.status", game.BoardStatus{BoardID: "r1-b1", Port: "/dev/ttyACM0", Connected: false, Error: "cable pulled", Clock: "DGT 3000", At: game.T(time.Now())})
	browser.MustWait(t, ctx, q(`#boards [data-game="open2026.1.1"] [data-board-status]`)+`?.dataset.connected === "false"`, 10*time.Second)
	browser.Keep(t, ctx, "arbiter-fixtures")
	// The board's next game (round 2) takes its place, with its status.
	r2 := game.ID{Event: testGame.Event, Round: 2, Board: 1}
	f.publish(t, "$KV."+p+"_games."+r2.String(), game.GameState{Game: r2, Event: r2.Event, Round: 2, Board: 1, White: "Next", Black: "Game",
		Variant: "chess", FEN: fenStart, Status: "waiting", UpdatedAt: game.T(time.Now())})
	browser.MustWait(t, ctx, q(`#boards [data-game="open2026.2.1"] [data-board-status]`)+`?.dataset.connected === "false"`, 10*time.Second)
	if n := browser.MustEval[int](t, ctx, `document.querySelectorAll('#boards [data-board="1"]').length`); n != 1 {
		t.Errorf("board 1 shown %d times after the round change", n)
	}
	// A tablet or phone in the hall: no horizontal scrolling.
	must(t, browser.Viewport(ctx, 390, 844))
	browser.MustWait(t, ctx, "document.documentElement.scrollWidth <= 390", 10*time.Second)
	browser.Keep(t, ctx, "arbiter-fixtures-phone")

	// Refusals: a public user, an organiser, a wrong password.
	for _, c := range []struct{ user, pw, want string }{
		{"viewer", "viewer-pw", "not an arbiter"},
		{"hall", "hall-pw", "not an arbiter"},
		{"arb", "wrong", "Sign-in refused"},
	} {
		tab := b.Tab(t)
		must(t, browser.Navigate(tab, f.base+"arbiter#user="+c.user+"&password="+c.pw))
		browser.MustWait(t, tab, q("[data-error]")+"?.textContent.includes("+browser.Quote(c.want)+")", 10*time.Second)
		if href := browser.MustEval[string](t, tab, "location.href"); strings.Contains(href, c.pw) {
			t.Errorf("the password stays in the address bar: %q", href)
		}
		f.publish(t, p+".arbiter."+testGame.String()+".alert", map[string]any{"id": "late-" + c.user, "game": testGame.String(), "kind": "touch_move", "severity": "warn", "message": "m", "at": "2026-02-08T08:01:03.500Z"})
		browser.MustWait(t, ctx, q(`[data-alert-id="late-`+c.user+`"]`)+" !== null", 10*time.Second)
		if n := browser.MustEval[int](t, tab, "document.querySelectorAll('[data-alert-id]').length"); n != 0 {
			t.Errorf("%s sees %d alerts", c.user, n)
		}
	}
	noProblems(t, b)
}

// TestBrowserGridLarge: the grid at 240 boards (a large open): every board
// is on the page, a burst of one public move on every board reaches every
// card, diagrams are drawn only as they scroll into view (the page stays
// light on a phone), and the projector density shows many at once. The
// times are logged (the figures of docs/web.md), not asserted.
func TestBrowserGridLarge(t *testing.T) {
	const n = 240
	b := browser.Start(t)
	srv := startServer(t, t.TempDir())
	t.Cleanup(srv.Shutdown)
	s, _ := NewSubjects(testPrefix)
	var boards []WebBoard
	for i := 1; i <= n; i++ {
		boards = append(boards, WebBoard{Game: game.ID{Event: "open2026", Round: 1, Board: i}, White: fmt.Sprintf("White %d", i), Black: fmt.Sprintf("Black %d", i)})
	}
	w, err := NewWeb(WebOptions{Subjects: s, EventID: "open2026", Connect: srv.Dialer(), Boards: boards})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = w.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	ts := httptest.NewServer(NewHTTPServer(HTTPOptions{Games: NewStore(nil), Web: w}).handler())
	t.Cleanup(ts.Close)
	waitFor(t, "web subscription", 5*time.Second, func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.subscribed
	})
	nc, err := srv.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()

	tab := b.Tab(t)
	must(t, browser.Viewport(tab, 1920, 1080))
	start := time.Now()
	must(t, browser.Navigate(tab, ts.URL+"/"))
	browser.MustWait(t, tab, fmt.Sprintf(`document.querySelectorAll('[data-view="grid"][data-game]').length === %d`, n), 10*time.Second)
	loaded := time.Since(start)
	drawn := browser.MustEval[int](t, tab, `document.querySelectorAll('[data-view="grid"] cg-board').length`)
	if drawn >= n {
		t.Errorf("all %d diagrams drawn at once; want only those in view", drawn)
	}

	burst := func(ply int, fen, san, uci string) time.Duration {
		t0 := time.Now()
		for _, wb := range boards {
			ev, _ := json.Marshal(game.MoveEvent{Game: wb.Game, Ply: ply, SAN: san, UCI: uci, FEN: fen, At: game.T(t0), Clock: &game.ClockPair{WhiteMS: 5400000, BlackMS: 5400000}})
			must(t, nc.Publish(s.publicMove(wb.Game), ev))
		}
		must(t, nc.Flush())
		browser.MustWait(t, tab, fmt.Sprintf(`[...document.querySelectorAll('[data-view="grid"][data-game]')].every(e => e.dataset.fen === %s)`, browser.Quote(fen)), 10*time.Second)
		return time.Since(t0)
	}
	first := burst(1, fenE4, "e4", "e2e4")
	second := burst(2, fenE4E5, "e5", "e7e5")

	// Scrolled to the end, the last board is drawn.
	must(t, browser.Click(tab, `[data-density="s"]`))
	_, err = browser.Eval[bool](tab, `(() => { document.querySelector('[data-view="grid"][data-board="240"]').scrollIntoView(); return true; })()`)
	must(t, err)
	browser.MustWait(t, tab, `document.querySelector('[data-view="grid"][data-board="240"] cg-board') !== null`, 10*time.Second)
	// The boards drawn at the medium size shrink with their cards.
	if _, err := browser.WaitFor(tab, "document.documentElement.scrollWidth <= 1920", 5*time.Second); err != nil {
		t.Errorf("projector width 1920: the page is %d px wide", browser.MustEval[int](t, tab, "document.documentElement.scrollWidth"))
	}
	perRow := browser.MustEval[int](t, tab, `(() => { const c = [...document.querySelectorAll('[data-view="grid"]')]; const top = c[0].getBoundingClientRect().top; return c.filter(e => e.getBoundingClientRect().top === top).length; })()`)
	heap := browser.MustEval[float64](t, tab, `performance.memory ? performance.memory.usedJSHeapSize / 1048576 : -1`)
	t.Logf("%d boards: page with every card %v; a move on every board shown on every card in %v (first burst), %v (second); %d diagrams drawn at first; projector (1920 px, small): %d boards a row; JS heap %.1f MB",
		n, loaded, first, second, drawn, perRow, heap)
	browser.Keep(t, tab, "grid-240-projector")
	must(t, browser.Viewport(tab, 390, 844))
	browser.MustWait(t, tab, "document.documentElement.scrollWidth <= 390", 10*time.Second)
	noProblems(t, b)
}

// TestBrowserSignIn: the staff pages sign in from the form or the URL
// fragment (#user=…&password=…), which never reaches the server; a
// password in the query string is refused before any connection; nothing
// is stored in the browser (no password in localStorage or
// sessionStorage, no "keep me signed in"); signing out leaves a blank form.
func TestBrowserSignIn(t *testing.T) {
	b := browser.Start(t)
	f := startBrowserFixture(t)
	const pw = "arb-pw"
	storage := "JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage)])"
	for _, page := range []string{"arbiter", "hall"} {
		// The fragment signs in and leaves the address bar.
		tab := b.Tab(t)
		must(t, browser.Navigate(tab, f.base+page+"#user=arb&password="+pw))
		browser.MustWait(t, tab, q(`#connection[data-connection="live"]`)+" !== null", 10*time.Second)
		if href := browser.MustEval[string](t, tab, "location.href"); strings.Contains(href, pw) || strings.Contains(href, "#") {
			t.Errorf("%s: the fragment stays in the address bar: %q", page, href)
		}
		if st := browser.MustEval[string](t, tab, storage); strings.Contains(st, pw) {
			t.Errorf("%s: the password is stored in the browser: %s", page, st)
		}
		if n := browser.MustEval[int](t, tab, `document.querySelectorAll('input[type="checkbox"][name="remember"]').length`); n != 0 {
			t.Errorf("%s: a keep-me-signed-in box is offered", page)
		}
		// Signing out: the form again, empty, nothing stored.
		must(t, browser.Click(tab, "#signout"))
		browser.MustWait(t, tab, q("form[data-signin][data-ready]")+" && !"+q("form[data-signin]")+".hidden", 10*time.Second)
		browser.MustWait(t, tab, q(`#connection[data-connection="signed-out"]`)+" !== null", 10*time.Second)
		if v := browser.MustEval[string](t, tab, q("form[data-signin]")+".password.value"); v != "" {
			t.Errorf("%s: after signing out the password field holds %q", page, v)
		}
		if st := browser.MustEval[string](t, tab, storage); st != "[[],[]]" {
			t.Errorf("%s: after signing out the browser keeps %s", page, st)
		}

		// The form signs in too, and empties its password field.
		_, err := browser.Eval[bool](tab, `(() => { const f = document.querySelector('form[data-signin]'); f.user.value = 'arb'; f.password.value = 'arb-pw'; f.requestSubmit(); return true; })()`)
		must(t, err)
		browser.MustWait(t, tab, q(`#connection[data-connection="live"]`)+" !== null", 10*time.Second)
		if v := browser.MustEval[string](t, tab, q("form[data-signin]")+".password.value"); v != "" {
			t.Errorf("%s: signed in, the page keeps the password in its field", page)
		}

		// A password in the query string: refused, no connection, gone from the address bar.
		tab2 := b.Tab(t)
		must(t, browser.Navigate(tab2, f.base+page+"?user=arb&password="+pw))
		browser.MustWait(t, tab2, q("[data-error]")+"?.textContent.includes('?password=')", 10*time.Second)
		if st := browser.MustEval[string](t, tab2, q("#connection")+".dataset.connection"); st != "signed-out" {
			t.Errorf("%s: a password in the query string signed in (%s)", page, st)
		}
		if href := browser.MustEval[string](t, tab2, "location.href"); strings.Contains(href, pw) {
			t.Errorf("%s: the refused password stays in the address bar: %q", page, href)
		}
	}
	// The server saw the password only where the test itself sent it: in the
	// one refused query string.
	n := 0
	for _, u := range f.requested() {
		if strings.Contains(u, pw) {
			n++
			if !strings.Contains(u, "?user=arb&password=") {
				t.Errorf("the password reached the server in %q", u)
			}
		}
	}
	if n != 2 {
		t.Errorf("the password reached the server %d times, want twice (the refused query strings the test sent)", n)
	}
	noProblems(t, b)
}
