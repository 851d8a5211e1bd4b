package hall

import (
	"context"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/internal/browser"
	"github.com/dgtbridge/dgtbridge/obp/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi"
	"github.com/nats-io/nats.go"
)

// TestBrowserIdentify: the identify command end to end, from the arbiters'
// page in a real browser. A xiangqi board that senses only occupancy (an
// emulated OBP board on a pseudo-terminal) loses its cable while Red plays
// the central cannon; back, it shows e2 occupied by a piece the daemon
// cannot name. The arbiter, signed in to /arbiter over the NATS websocket,
// sees the unidentified_piece alert with an identify form offering e2 and
// the xiangqi pieces; a wrong point typed in the board's own identify form
// is refused with the daemon's reason; naming a Red cannon in the alert
// sends {"cmd":"identify","square":"e2","piece":"C","alert_id"}: the move
// the board shows is caught up as h2e2 (P2-5), the board on the page shows
// the position after it, and the alert is marked handled by the arbiter's
// action on record; the spectators' page shows the board's public copy at
// that position.
func TestBrowserIdentify(t *testing.T) {
	integration(t)
	b := browser.Start(t)
	dir := t.TempDir()
	ws := freeHostPort(t)
	srv, err := broadcast.StartServer(broadcast.ServerOptions{Prefix: testPrefix, StoreDir: filepath.Join(dir, "nats"), Websocket: ws, Users: []broadcast.User{
		{Name: "hall", Password: "hall-pw", Role: broadcast.RoleOrganiser},
		{Name: "arb", Password: "arb-pw", Role: broadcast.RoleArbiter},
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)

	pty := newOBPPTY(t, emu.Options{Serial: "XQ-OCC", Occupancy: true, NoClock: true})
	g := game.ID{Event: "open2026", Round: 1, Board: 8}
	hb := obpBoardFor(t, "xq8", g, ruleset.XiangqiVN2004, "", "", pty.Open)
	hb.OBP.BackoffMax = 500 * time.Millisecond
	arb := connect(t, srv, "arb", "arb-pw", nats.CustomInboxPrefix(broadcast.ArbiterInboxPrefix))
	moves := subscribe(t, arb, testPrefix+".game."+g.String()+".move")
	d := startDaemon(t, filepath.Join(dir, "data"), srv, 0, hb)
	waitConnected(t, d.h)

	// The pages, as the daemon serves them.
	subj, _ := broadcast.NewSubjects(testPrefix)
	w, err := broadcast.NewWeb(broadcast.WebOptions{Subjects: subj, EventID: g.Event, EventName: "Hanoi 2026", Connect: srv.Dialer(), Websocket: ws,
		Public: d.p.Public(), Boards: []broadcast.WebBoard{{Game: g, BoardID: "xq8", White: "Red xq8", Black: "Black xq8", Variant: "xiangqi"}}})
	if err != nil {
		t.Fatal(err)
	}
	addr := freeHostPort(t)
	hs := broadcast.NewHTTPServer(broadcast.HTTPOptions{Listen: addr, Games: d.p.Public(), Web: w})
	ctx, cancel := context.WithCancel(context.Background())
	webDone, httpDone := make(chan struct{}), make(chan struct{})
	go func() { _ = w.Run(ctx); close(webDone) }()
	go func() { _ = hs.Run(ctx); close(httpDone) }()
	t.Cleanup(func() { cancel(); <-webDone; <-httpDone })
	base := "http://" + addr + "/"
	waitFor(t, 20*time.Second, "the HTTP server", func() bool {
		r, err := http.Get(base + "healthz")
		if err == nil {
			r.Body.Close()
		}
		return err == nil
	})

	tab := b.Tab(t)
	if err := browser.Navigate(tab, base+"arbiter#user=arb&password=arb-pw"); err != nil {
		t.Fatal(err)
	}
	card := `#boards [data-game="` + g.String() + `"]`
	browser.MustWait(t, tab, `document.querySelector('#connection[data-connection="live"]') !== null && document.querySelector('`+card+`') !== null`, 30*time.Second)

	// The cable pulled, the cannon moved meanwhile, the board back.
	pty.unplug()
	waitFor(t, 20*time.Second, "the board lost", func() bool { _, dis := d.h.Summary(); return dis == 1 })
	now := time.Now()
	pty.e.Schedule(now, emu.Script{{At: 0, Action: emu.Lift{Square: xqSquare(t, "h2")}},
		{At: 300 * time.Millisecond, Action: emu.Put{Square: xqSquare(t, "e2"), Piece: rules.Piece{Color: rules.White, Kind: rules.Cannon}}}})
	pty.e.Advance(now.Add(time.Second))
	pty.e.Output() // nobody hears it
	pty.plug(t)

	alert := `[data-kind="unidentified_piece"]`
	browser.MustWait(t, tab, `document.querySelector('`+alert+` button[data-cmd="identify"]') !== null`, 30*time.Second)
	if sq := browser.MustEval[string](t, tab, `document.querySelector('`+alert+` select[name="square"]').value`); sq != "e2" {
		t.Errorf("the alert's identify form offers point %q, want e2", sq)
	}
	opts := browser.MustEval[string](t, tab, `[...document.querySelectorAll('`+alert+` select[name="piece"] option')].map(o => o.value + '=' + o.textContent).join(';')`)
	for _, want := range []string{"C=red cannon (C)", "n=black horse (n)", "=empty point"} {
		if !strings.Contains(opts, want) {
			t.Errorf("the piece choices lack %q: %s", want, opts)
		}
	}

	// A point that is none, typed in the board's own form: the daemon's reason shown.
	browser.MustEval[bool](t, tab, `(() => { const c = document.querySelector('`+card+`'); c.querySelector('details').open = true; const f = c.querySelector('button[data-cmd="identify"]').form; f.square.value = 'z9'; f.piece.value = 'C'; f.requestSubmit(); return true; })()`)
	browser.MustWait(t, tab, `document.querySelector('`+card+` [data-error]')?.textContent.includes('square "z9"')`, 30*time.Second)

	// The arbiter names the piece in the alert.
	browser.MustEval[bool](t, tab, `(() => { const f = document.querySelector('`+alert+` button[data-cmd="identify"]').form; f.piece.value = 'C'; f.requestSubmit(); return true; })()`)
	select {
	case m := <-moves:
		var ev game.MoveEvent
		if decode(t, m.Data, &ev) && (ev.Ply != 1 || ev.UCI != "h2e2" || ev.Notation != "P2-5") {
			t.Errorf("move %+v", ev)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the move the board shows was not caught up after the identify")
	}
	after := xiangqi.StartPosition()
	m, err := after.ParseMove("h2e2")
	if err != nil {
		t.Fatal(err)
	}
	next, err := after.PlayMove(m)
	if err != nil {
		t.Fatal(err)
	}
	fen := next.FEN()
	browser.MustWait(t, tab, `document.querySelector('`+alert+`[data-handled="identify"] [data-reply="ok"]') !== null`, 30*time.Second)
	browser.MustWait(t, tab, `document.querySelector('`+card+`').dataset.fen === `+browser.Quote(fen), 30*time.Second)
	browser.Keep(t, tab, "arbiter-identify")
	// The spectators' page shows the xiangqi board's public copy (no delay
	// here) at the same position, on a 9×10 board.
	spect := b.Tab(t)
	if err := browser.Navigate(spect, base); err != nil {
		t.Fatal(err)
	}
	browser.MustWait(t, spect, `document.querySelector('[data-view="grid"][data-game="`+g.String()+`"]')?.dataset.fen === `+browser.Quote(fen), 30*time.Second)
	browser.Keep(t, spect, "spectators-xiangqi-live")
	if p := b.Problems(); len(p) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(p, "\n"))
	}
}

// freeHostPort returns a loopback host:port nothing listens on now.
func freeHostPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}
