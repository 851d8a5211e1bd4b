package hall

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/internal/browser"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
)

// TestBrowserSwitchToSpare: the spare-board button end to end, from the
// arbiters' page in a real browser, on pseudo-terminal DGT boards. The
// board's Move to a spare form: empty, the page asks for the spare's
// name; a spare that does not exist, the daemon's refusal is shown; the
// spare's name, the reply is ok. The spare, one pawn short of the game's
// position, brings a spare_setup alert naming that square onto the page;
// set up right, the game goes on there: a move made on the spare is the
// board's position on the page.
func TestBrowserSwitchToSpare(t *testing.T) {
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

	own := newPTYBoard(t, emu.Setup{Serial: "04711"})
	spare := newPTYBoard(t, emu.Setup{Serial: "05000"})
	start := chess.StartPosition(chess.Standard).Placement()
	short := start
	e2, _ := rules.Chess8x8.ParseSquare("e2")
	short.Sq[e2] = rules.NoPiece
	spare.e.SetPlacement(time.Now(), &short)
	g := game.ID{Event: "open2026", Round: 1, Board: 1}
	d := startSpareDaemon(t, filepath.Join(dir, "data"), srv, []Spare{{ID: "spare-1", Port: "pty-spare", Open: spare.Open, Link: patientLink}},
		boardFor(t, "r1-b1", g, own.Open))
	_ = connect(t, srv, "arb", "arb-pw", nats.CustomInboxPrefix(broadcast.ArbiterInboxPrefix))

	subj, _ := broadcast.NewSubjects(testPrefix)
	w, err := broadcast.NewWeb(broadcast.WebOptions{Subjects: subj, EventID: g.Event, EventName: "Open 2026", Connect: srv.Dialer(), Websocket: ws,
		Public: d.p.Public(), Boards: []broadcast.WebBoard{{Game: g, BoardID: "r1-b1", White: "White r1-b1", Black: "Black r1-b1", Variant: "chess"}}})
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
	submit := func(to string) {
		browser.MustEval[bool](t, tab, `(() => { const c = document.querySelector('`+card+`'); c.querySelector('details').open = true; const f = c.querySelector('button[data-cmd="switch_board"]').form; f.to.value = `+browser.Quote(to)+`; f.requestSubmit(); return true; })()`)
	}
	submit("")
	browser.MustWait(t, tab, `document.querySelector('`+card+` [data-error]')?.textContent.includes('Name the spare')`, 10*time.Second)
	submit("spare-9")
	browser.MustWait(t, tab, `document.querySelector('`+card+` [data-error]')?.textContent.includes('spare-1')`, 30*time.Second)
	if r, _ := d.h.Record(g); r.Spare != "" {
		t.Fatalf("a refused switch moved the game to %q", r.Spare)
	}
	submit("spare-1")
	browser.MustWait(t, tab, `document.querySelector('`+card+` [data-reply="ok"]') !== null`, 30*time.Second)
	alert := `[data-kind="spare_setup"]`
	browser.MustWait(t, tab, `[...document.querySelectorAll('`+alert+`')].some(a => a.textContent.includes('e2 empty, want P'))`, 30*time.Second)

	// Set up right, then a move on the spare.
	spare.e.SetPlacement(time.Now(), &start)
	waitFor(t, 30*time.Second, "the spare set up", func() bool {
		br, _ := d.h.current(g)
		done := make(chan bool, 1)
		_ = d.h.onBoard(context.Background(), br, func(br *boardRun) error { done <- br.setup == nil; return nil })
		return <-done
	})
	pos := rules.Position(chess.StartPosition(chess.Standard))
	m := mustMove(t, pos, "e2e4")
	s, err := emu.GameScript(pos, []rules.Move{m}, emu.GameOptions{Think: func(int) time.Duration { return time.Second }})
	if err != nil {
		t.Fatal(err)
	}
	spare.e.Schedule(time.Now(), s)
	after, _ := pos.Play(m)
	browser.MustWait(t, tab, `document.querySelector('`+card+`').dataset.fen === `+browser.Quote(after.FEN()), 30*time.Second)
	browser.Keep(t, tab, "arbiter-switch-board")
	if p := b.Problems(); len(p) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(p, "\n"))
	}
}
