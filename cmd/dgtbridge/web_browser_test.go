package main

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/internal/browser"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
)

// demoBanner is what the browser test reads from the demo's banner.
type demoBanner struct {
	natsURL, web, arbiterURL, viewerPW string
}

// startDemoForBrowser runs "dgtbridge demo" in-process (the real daemon:
// emulated boards on pseudo-terminals, the hall, the publisher, the
// embedded nats-server with users and its websocket listener, HTTP) and
// returns the addresses its banner prints.
func startDemoForBrowser(t *testing.T, args ...string) demoBanner {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr lockedBuffer
	errc := make(chan error, 1)
	go func() {
		errc <- run(ctx, append([]string{"demo", "--http-listen", "127.0.0.1:0", "--data-dir", t.TempDir()}, args...), &stdout, &stderr)
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-errc; err != nil {
			t.Errorf("demo: %v", err)
		}
	})
	res := map[string]*regexp.Regexp{
		"nats":    regexp.MustCompile(`NATS\s+(nats://\S+)`),
		"web":     regexp.MustCompile(`web\s+(http://\S+/)\s`),
		"arbiter": regexp.MustCompile(`(http://\S+/arbiter#\S+)`),
		"viewer":  regexp.MustCompile(`viewer/(\S+) \(public\)`),
	}
	got := map[string]string{}
	deadline := time.Now().Add(30 * time.Second)
	for len(got) < len(res) {
		if time.Now().After(deadline) {
			t.Fatalf("no banner; stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
		}
		select {
		case err := <-errc:
			t.Fatalf("demo returned early: %v\n%s", err, stderr.String())
		case <-time.After(50 * time.Millisecond):
		}
		for k, re := range res {
			if m := re.FindStringSubmatch(stdout.String()); m != nil {
				got[k] = m[1]
			}
		}
	}
	return demoBanner{natsURL: got["nats"], web: got["web"], arbiterURL: got["arbiter"], viewerPW: got["viewer"]}
}

// fenSeen records, in the page, when each board element first showed each
// FEN (Date.now(), the machine's clock, as time.Now is). A FEN that was
// shown and replaced before the observer ran (two updates in one task, on
// a loaded machine) is caught from the mutation's old value, stamped when
// the observer runs (later than it was shown, never earlier).
const fenSeen = `(() => {
  window.fenSeen = {};
  const mark = (game, fen) => { const k = game + '|' + fen; if (!(k in window.fenSeen)) window.fenSeen[k] = Date.now(); };
  const note = e => mark(e.dataset.game, e.dataset.fen);
  document.querySelectorAll('[data-view="grid"][data-game]').forEach(note);
  new MutationObserver(ms => {
    for (const m of ms) {
      if (!m.target.dataset || m.target.dataset.view !== 'grid') continue;
      if (m.attributeName === 'data-fen' && m.oldValue) mark(m.target.dataset.game, m.oldValue);
      note(m.target);
    }
  }).observe(document.body, { subtree: true, attributes: true, attributeOldValue: true, attributeFilter: ['data-fen', 'data-game'] });
  return true;
})()`

// TestBrowserDemo drives the pages in Chromium against the real daemon
// ("dgtbridge demo": emulated boards, the hall, the embedded nats-server
// with users and websocket): the spectators' page shows every board and
// each public move (its time from the public message to the page is
// measured), the arbiters' page signed in as the demo's arbiter sees a
// scripted incident's alert appear, acknowledges it and shows the daemon's
// reply and its record of the action; the public user is refused the
// arbiters' page; no page logs an error.
func TestBrowserDemo(t *testing.T) {
	b := browser.Start(t)
	const boards = 4
	d := startDemoForBrowser(t, "--boards", fmt.Sprint(boards), "--team=false", "--xiangqi", "0", "--speed", "4", "--public-delay", "1s", "--seed", "3")

	// The public copy as a spectator's NATS client sees it.
	nc, err := nats.Connect(d.natsURL, nats.UserInfo("viewer", d.viewerPW), nats.CustomInboxPrefix(broadcast.PublicInboxPrefix))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	type pubMove struct {
		ev game.MoveEvent
		at time.Time
	}
	moves := make(chan pubMove, 1024)
	if _, err := nc.Subscribe("dgt.public.demo.*.*.move", func(m *nats.Msg) {
		at := time.Now()
		var ev game.MoveEvent
		if json.Unmarshal(m.Data, &ev) == nil {
			moves <- pubMove{ev, at}
		}
	}); err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}

	// Arbiter first, so the round-1 incidents come while it is open.
	arb := b.Tab(t)
	if err := browser.Navigate(arb, d.arbiterURL); err != nil {
		t.Fatal(err)
	}
	browser.MustWait(t, arb, `document.querySelector('#connection[data-connection="live"]') !== null`, 20*time.Second)
	browser.MustWait(t, arb, fmt.Sprintf(`document.querySelectorAll('#boards [data-game]').length === %d`, boards), 10*time.Second)
	// Board status: the boards connected before the page opened (<p>.api.boards).
	for i := 1; i <= boards; i++ {
		browser.MustWait(t, arb, fmt.Sprintf(`document.querySelector('#boards [data-board="%d"] [data-board-status]')?.dataset.connected === "true"`, i), 20*time.Second)
	}

	spec := b.Tab(t)
	if err := browser.Navigate(spec, d.web); err != nil {
		t.Fatal(err)
	}
	browser.MustWait(t, spec, fmt.Sprintf(`document.querySelectorAll('[data-view="grid"][data-game]').length === %d`, boards), 10*time.Second)
	for i := 1; i <= boards; i++ {
		browser.MustWait(t, spec, fmt.Sprintf(`(document.querySelector('[data-view="grid"][data-board="%d"]')?.dataset.fen ?? '').split('/').length === 8`, i), 5*time.Second)
	}
	if _, err := browser.Eval[bool](spec, fenSeen); err != nil {
		t.Fatal(err)
	}
	watching := time.Now() // moves received before may have been shown and passed already

	// Follow 20 public moves: each reaches the page; time from the public
	// message to the board showing it.
	var lat []time.Duration
	for len(lat) < 20 {
		var pm pubMove
		select {
		case pm = <-moves:
		case <-time.After(60 * time.Second):
			t.Fatalf("no public move for a minute (%d seen)", len(lat))
		}
		if pm.at.Before(watching) {
			continue
		}
		key := pm.ev.Game.String() + "|" + pm.ev.FEN
		shown := fmt.Sprintf(`window.fenSeen[%q] !== undefined`, key)
		if _, err := browser.WaitFor(spec, shown, 30*time.Second); err != nil {
			// A move of a game the board no longer shows (its next round
			// went public meanwhile) is not on the page.
			cur := browser.MustEval[string](t, spec, fmt.Sprintf(`document.querySelector('[data-view="grid"][data-board="%d"]').dataset.game`, pm.ev.Game.Board))
			if cur != pm.ev.Game.String() {
				continue
			}
			t.Fatalf("public move %s ply %d (%s) not shown: %v", pm.ev.Game, pm.ev.Ply, pm.ev.SAN, err)
		}
		ms := browser.MustEval[int64](t, spec, fmt.Sprintf(`window.fenSeen[%q]`, key))
		lat = append(lat, time.UnixMilli(ms).Sub(pm.at))
	}
	slices.Sort(lat)
	// A figure, not a verdict (speed is measured, not asserted: a loaded
	// machine is slow, not wrong).
	t.Logf("public MoveEvent → page (n=%d): min %v, median %v, max %v", len(lat), lat[0], lat[len(lat)/2], lat[len(lat)-1])
	browser.Keep(t, spec, "demo-spectators")

	// An incident's alert appears on the arbiters' page; acknowledge it.
	sel := `[data-alert-id][data-kind="touch_move"], [data-alert-id][data-kind="illegal_move"]`
	browser.MustWait(t, arb, fmt.Sprintf(`document.querySelector(%q) !== null`, sel), 3*time.Minute)
	id := browser.MustEval[string](t, arb, fmt.Sprintf(`document.querySelector(%q).dataset.alertId`, sel))
	al := fmt.Sprintf(`[data-alert-id=%q]`, id)
	if err := browser.Click(arb, al+` button[data-cmd="acknowledge"]`); err != nil {
		t.Fatal(err)
	}
	browser.MustWait(t, arb, fmt.Sprintf(`document.querySelector(%q) !== null`, al+` [data-reply="ok"]`), 15*time.Second)
	if txt := browser.MustEval[string](t, arb, fmt.Sprintf(`document.querySelector(%q).textContent`, al+` .replybox`)); !strings.Contains(txt, "acknowledge: done") {
		t.Errorf("reply shown: %q", txt)
	}
	// The daemon records the action on the alert stream; the page marks the alert.
	browser.MustWait(t, arb, fmt.Sprintf(`document.querySelector(%q)?.dataset.handled === "acknowledge"`, al), 15*time.Second)
	browser.Keep(t, arb, "demo-arbiter")

	// An arbiter signing in later sees the alert from the ALERTS stream, marked handled.
	arb2 := b.Tab(t)
	if err := browser.Navigate(arb2, d.arbiterURL); err != nil {
		t.Fatal(err)
	}
	browser.MustWait(t, arb2, fmt.Sprintf(`document.querySelector(%q)?.dataset.handled === "acknowledge"`, al), 20*time.Second)

	// The public user is refused the arbiters' page and sees no alert.
	pub := b.Tab(t)
	if err := browser.Navigate(pub, d.web+"arbiter#user=viewer&password="+d.viewerPW); err != nil {
		t.Fatal(err)
	}
	browser.MustWait(t, pub, `document.querySelector('[data-error]')?.textContent.includes('not an arbiter')`, 20*time.Second)
	if n := browser.MustEval[int](t, pub, `document.querySelectorAll('[data-alert-id]').length`); n != 0 {
		t.Errorf("the public user sees %d alerts", n)
	}
	if p := b.Problems(); len(p) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(p, "\n"))
	}
}
