package broadcast

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/internal/browser"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
)

// docImages is where DocScreenshot writes the documentation's screenshots
// (DGTBRIDGE_UPDATE_SCREENSHOTS=1).
const docImages = "../docs/images"

func tileSel(board int) string { return fmt.Sprintf(`#tiles [data-board="%d"]`, board) }

func tileHealth(board int, h string) string {
	return q(tileSel(board)) + `?.dataset.health === "` + h + `"`
}

// TestBrowserHall: /hall signs in as an organiser (the fragment), shows a
// tile per board with its health live (a board's status disconnected, a
// board never heard of stale, the others ok), the NATS and storage health,
// a board's detail on a click with its ply; an arbiter also sees a board's
// open alert turn its tile to alert and an arbiter's action clear it, and
// sends a command from the detail (a live update keeping the form); a
// public user and a wrong password are refused; the page is in the three languages; axe-core
// finds no serious or critical violation on /hall and /arbiter.
func TestBrowserHall(t *testing.T) {
	b := browser.Start(t)
	axe := browser.AxeScript(t, "../web")
	f := startBrowserFixture(t)
	p := testPrefix
	s := f.web.o.Subjects
	now := func() game.Time { return game.T(time.Now()) }

	org := b.Tab(t)
	must(t, browser.Navigate(org, f.base+"hall?lang=en#user=hall&password=hall-pw"))
	browser.MustWait(t, org, `document.querySelectorAll('#tiles [data-board][data-health]').length === 5`, 10*time.Second)
	if href := browser.MustEval[string](t, org, "location.href"); strings.Contains(href, "hall-pw") {
		t.Errorf("the password stays in the address: %s", href)
	}
	// Nothing heard of any board yet: stale.
	browser.MustWait(t, org, tileHealth(5, "stale"), 5*time.Second)
	for i := 1; i <= 4; i++ {
		f.publish(t, fmt.Sprintf("%s.board.r1-b%d.status", p, i), game.BoardStatus{BoardID: fmt.Sprintf("r1-b%d", i), Port: "/dev/ttyACM0", Connected: i != 1, Error: map[bool]string{true: "cable pulled"}[i == 1], Clock: "DGT 3000", At: now()})
	}
	browser.MustWait(t, org, tileHealth(1, "disconnected"), 10*time.Second)
	browser.MustWait(t, org, tileHealth(2, "ok"), 10*time.Second)
	if h := browser.MustEval[string](t, org, q(tileSel(5))+".dataset.health"); h != "stale" {
		t.Errorf("board 5, never heard of, is %q", h)
	}
	browser.MustWait(t, org, q(`[data-health-nats="ok"]`)+" !== null && "+q(`[data-health-storage="ok"]`)+" !== null", 10*time.Second)
	// A live move: the tile's ply; a click: the detail.
	f.publish(t, s.move(g960), game.MoveEvent{Game: g960, Ply: 1, SAN: "e4", UCI: "e2e4", FEN: fenE4, At: now(), Clock: &game.ClockPair{WhiteMS: 61000, BlackMS: 62000}})
	browser.MustWait(t, org, q(tileSel(2))+`?.dataset.ply === "1"`, 10*time.Second)
	must(t, browser.Click(org, tileSel(2)))
	browser.MustWait(t, org, q(`[data-detail-board="2"]`)+"?.textContent.includes('open2026.1.2')", 5*time.Second)
	dt := browser.MustEval[string](t, org, q("#detail")+".textContent")
	for _, want := range []string{"connected", "DGT 3000", "1:01 – 1:02", "visible to arbiters only"} {
		if !strings.Contains(dt, want) {
			t.Errorf("the detail lacks %q: %s", want, dt)
		}
	}
	if lbl := browser.MustEval[string](t, org, q(tileSel(1))+".getAttribute('aria-label')"); lbl != "Board 1: disconnected, ply 0" {
		t.Errorf("tile 1 named %q", lbl)
	}
	browser.MustAxe(t, org, axe, "/hall")

	// An arbiter: the alerts too.
	arb := b.Tab(t)
	must(t, browser.Navigate(arb, f.base+"hall?lang=en#user=arb&password=arb-pw"))
	browser.MustWait(t, arb, tileHealth(2, "ok"), 10*time.Second)
	f.publish(t, p+".arbiter."+g960.String()+".alert", map[string]any{"id": "hall-1", "game": g960.String(), "kind": "touch_move", "severity": "warn", "side": "white", "ply": 1, "message": "touched", "at": "2026-02-08T08:01:03.500Z"})
	browser.MustWait(t, arb, tileHealth(2, "alert"), 10*time.Second)
	if h := browser.MustEval[string](t, org, q(tileSel(2))+".dataset.health"); h != "ok" {
		t.Errorf("the organiser's tile 2 says %q: an alert reached an organiser", h)
	}
	must(t, browser.Click(arb, tileSel(2)))
	browser.MustWait(t, arb, q(`#detail [data-alert-id="hall-1"]`)+"?.textContent.includes('touched piece')", 5*time.Second)
	// The board's commands, for arbiters only; a live update keeps what is typed.
	if n := browser.MustEval[int](t, org, `document.querySelectorAll('#detail [data-cmd]').length`); n != 0 {
		t.Errorf("the organiser's detail offers %d commands", n)
	}
	cmds := make(chan map[string]any, 1)
	sub, err := f.pub.Subscribe(p+".arbiter."+g960.String()+".cmd", func(m *nats.Msg) {
		var v map[string]any
		_ = json.Unmarshal(m.Data, &v)
		cmds <- v
		_ = m.Respond([]byte(`{"ok":true}`))
	})
	must(t, err)
	defer sub.Unsubscribe()
	must(t, f.pub.Flush())
	_, err = browser.Eval[bool](arb, `(() => { const f = document.querySelector('#detail button[data-cmd="set_result"]').form; f.result.value = '1-0'; f.termination.value = 'resignation'; return true; })()`)
	must(t, err)
	f.publish(t, s.move(g960), game.MoveEvent{Game: g960, Ply: 2, SAN: "e5", UCI: "e7e5", FEN: fenE4E5, At: now()})
	browser.MustWait(t, arb, q(tileSel(2))+`?.dataset.ply === "2"`, 10*time.Second)
	if v := browser.MustEval[string](t, arb, `document.querySelector('#detail button[data-cmd="set_result"]').form.termination.value`); v != "resignation" {
		t.Errorf("a live update cleared the form being filled in (%q)", v)
	}
	_, err = browser.Eval[bool](arb, `(() => { document.querySelector('#detail button[data-cmd="set_result"]').form.requestSubmit(); return true; })()`)
	must(t, err)
	select {
	case c := <-cmds:
		if c["cmd"] != "set_result" || c["result"] != "1-0" || c["by"] != "arb" {
			t.Errorf("the hall sent %v", c)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no command from the hall's detail reached NATS")
	}
	browser.MustWait(t, arb, q(`#detail [data-reply="ok"]`)+" !== null", 10*time.Second)
	browser.Keep(t, arb, "hall")
	browser.DocScreenshot(t, arb, docImages, "web-hall", false)
	ack, _ := json.Marshal(map[string]any{"id": "hall-1-ack", "game": g960.String(), "kind": "arbiter_action", "severity": "info", "message": "acknowledged", "proposal": map[string]any{"cmd": "acknowledge", "alert": "hall-1"}, "at": "2026-02-08T08:01:05.000Z"})
	must(t, f.pub.Publish(p+".arbiter."+g960.String()+".alert", ack))
	browser.MustWait(t, arb, tileHealth(2, "ok"), 10*time.Second)

	// Vietnamese.
	vi := b.Tab(t)
	must(t, browser.Navigate(vi, f.base+"hall?lang=vi#user=hall&password=hall-pw"))
	browser.MustWait(t, vi, q(tileSel(1))+"?.getAttribute('aria-label') === 'Bàn 1: mất kết nối, nửa nước 0'", 10*time.Second)
	if l := browser.MustEval[string](t, vi, "document.documentElement.lang"); l != "vi" {
		t.Errorf("html lang %q", l)
	}

	// A public user is refused, and sees no tile.
	pub := b.Tab(t)
	must(t, browser.Navigate(pub, f.base+"hall?lang=en#user=viewer&password=viewer-pw"))
	browser.MustWait(t, pub, q("[data-error]")+"?.textContent.includes('not an organiser or arbiter')", 10*time.Second)
	if n := browser.MustEval[int](t, pub, "document.querySelectorAll('#tiles [data-board]').length"); n != 0 {
		t.Errorf("the public user sees %d tiles", n)
	}

	// A game in play that goes unheard turns stale (?stale=0.05: three seconds).
	st := b.Tab(t)
	must(t, browser.Navigate(st, f.base+"hall?lang=en&stale=0.05#user=hall&password=hall-pw"))
	browser.MustWait(t, st, tileHealth(2, "ok"), 10*time.Second)
	f.publish(t, s.move(g960), game.MoveEvent{Game: g960, Ply: 3, SAN: "Nf3", UCI: "g1f3", FEN: fenNf3, At: now()})
	browser.MustWait(t, st, q(tileSel(2))+`?.dataset.ply === "3" && `+tileHealth(2, "ok"), 10*time.Second)
	browser.MustWait(t, st, tileHealth(2, "stale"), 15*time.Second)
	if h := browser.MustEval[string](t, st, q(tileSel(4))+".dataset.health"); h != "ok" {
		t.Errorf("board 4, connected and not in play, is %q", h)
	}

	// A wrong password: refused.
	bad := b.Tab(t)
	must(t, browser.Navigate(bad, f.base+"hall?lang=en#user=hall&password=wrong"))
	browser.MustWait(t, bad, q("[data-error]")+"?.textContent.includes('Sign-in refused')", 10*time.Second)
	if n := browser.MustEval[int](t, bad, "document.querySelectorAll('#tiles [data-board]').length"); n != 0 {
		t.Errorf("a wrong password shows %d tiles", n)
	}

	// The arbiters' page, signed in, with an alert: axe-core too.
	ap := b.Tab(t)
	must(t, browser.Navigate(ap, f.base+"arbiter?lang=en#user=arb&password=arb-pw"))
	browser.MustWait(t, ap, `document.querySelectorAll('#boards [data-game]').length === 5`, 10*time.Second)
	f.publish(t, p+".arbiter."+testGame.String()+".alert", map[string]any{"id": "hall-2", "game": testGame.String(), "kind": "illegal_move", "severity": "crit", "side": "white", "ply": 3, "message": "m", "proposal": map[string]any{"result": "0-1", "reinstate_ply": 2}, "at": "2026-02-08T08:01:03.500Z"})
	browser.MustWait(t, ap, q(`[data-alert-id="hall-2"]`)+" !== null", 10*time.Second)
	browser.MustAxe(t, ap, axe, "/arbiter")
	browser.DocScreenshot(t, ap, docImages, "web-arbiter", true)
	noProblems(t, b)
}

// TestBrowserHallLarge: /hall with 2,000 boards (the statuses of all of
// them published): every tile shown and ok; one live move shown on its
// tile; a move on every board shown on every tile. The first paint (from
// the page's navigation start, sign-in included) and the update times are
// logged, not asserted.
func TestBrowserHallLarge(t *testing.T) {
	const n = 2000
	b := browser.Start(t)
	var boards []WebBoard
	for i := 1; i <= n; i++ {
		boards = append(boards, WebBoard{Game: game.ID{Event: "open2026", Round: 1, Board: i}, BoardID: fmt.Sprintf("b%d", i), White: fmt.Sprintf("W%d", i), Black: fmt.Sprintf("B%d", i)})
	}
	f := startBrowserFixtureWith(t, boards)
	p := testPrefix
	s := f.web.o.Subjects
	for i := 1; i <= n; i++ {
		st, _ := json.Marshal(game.BoardStatus{BoardID: fmt.Sprintf("b%d", i), Connected: true, At: game.T(time.Now())})
		must(t, f.pub.Publish(fmt.Sprintf("%s.board.b%d.status", p, i), st))
	}
	must(t, f.pub.Flush())
	// The web responder has them (the page asks it for the statuses).
	waitFor(t, "board statuses", 10*time.Second, func() bool {
		f.web.mu.Lock()
		defer f.web.mu.Unlock()
		return len(f.web.status) == n
	})

	tab := b.Tab(t)
	must(t, browser.Viewport(tab, 1920, 1080))
	start := time.Now()
	must(t, browser.Navigate(tab, f.base+"hall?lang=en#user=hall&password=hall-pw"))
	browser.MustWait(t, tab, fmt.Sprintf(`document.querySelectorAll('#tiles [data-health="ok"]').length === %d`, n), 30*time.Second)
	allOK := time.Since(start)
	browser.MustWait(t, tab, `performance.getEntriesByName('hall-painted').length === 1`, 10*time.Second)
	painted := browser.MustEval[float64](t, tab, `performance.getEntriesByName('hall-painted')[0].startTime`)
	signed := browser.MustEval[float64](t, tab, `performance.getEntriesByName('hall-signed-in')[0].startTime`)

	// One move on board 1500.
	g := game.ID{Event: "open2026", Round: 1, Board: 1500}
	t0 := time.Now()
	ev, _ := json.Marshal(game.MoveEvent{Game: g, Ply: 1, SAN: "e4", UCI: "e2e4", FEN: fenE4, At: game.T(t0)})
	must(t, f.pub.Publish(s.move(g), ev))
	must(t, f.pub.Flush())
	browser.MustWait(t, tab, q(tileSel(1500))+`?.dataset.ply === "1"`, 10*time.Second)
	one := time.Since(t0)

	// A move on every board.
	t1 := time.Now()
	for i := 1; i <= n; i++ {
		g := game.ID{Event: "open2026", Round: 1, Board: i}
		ev, _ := json.Marshal(game.MoveEvent{Game: g, Ply: 2, SAN: "e5", UCI: "e7e5", FEN: fenE4E5, At: game.T(t1)})
		must(t, f.pub.Publish(s.move(g), ev))
	}
	must(t, f.pub.Flush())
	browser.MustWait(t, tab, fmt.Sprintf(`document.querySelectorAll('#tiles [data-ply="2"]').length === %d`, n), 30*time.Second)
	all := time.Since(t1)
	heap := browser.MustEval[float64](t, tab, `performance.memory ? performance.memory.usedJSHeapSize / 1048576 : -1`)
	t.Logf("%d boards: signed in at %.0f ms, tiles painted at %.0f ms after navigation start; every tile ok %v after navigating; one move on its tile in %v; a move on every board on every tile in %v; JS heap %.1f MB",
		n, signed, painted, allOK, one, all, heap)
	browser.Keep(t, tab, "hall-2000")
	browser.DocScreenshot(t, tab, docImages, "web-hall-2000", false)
	noProblems(t, b)
}
