package broadcast

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/internal/browser"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

const fenNf3 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"

// announced waits until the live region (aria-live polite, data-announce)
// says want, and returns how long after since that was.
func announced(t *testing.T, ctx context.Context, since time.Time, want string) time.Duration {
	t.Helper()
	browser.MustWait(t, ctx, q(`[aria-live="polite"][data-announce]`)+"?.textContent.includes("+browser.Quote(want)+")", 10*time.Second)
	return time.Since(since)
}

// ask types a command in the command field, presses Enter, and waits for
// the answer to say want.
func ask(t *testing.T, ctx context.Context, cmd, want string) {
	t.Helper()
	must(t, browser.Type(ctx, "#command", cmd+"\r"))
	browser.MustWait(t, ctx, q("#answer")+"?.textContent.includes("+browser.Quote(want)+")", 5*time.Second)
}

// TestBrowserFollowByEar: Enter on a board follows its game; its public
// moves (spoken long form, SAN, German squares, a drop, xiangqi in words
// and in the Vietnamese notation), a flag and the result are announced in
// the polite live region; every keyboard command answers; every control is
// named and focusable in Chromium's accessibility tree; axe-core finds no
// serious or critical violation. The time from the public MoveEvent to its
// announcement is logged.
func TestBrowserFollowByEar(t *testing.T) {
	b := browser.Start(t)
	axe := browser.AxeScript(t, "../web")
	f := startBrowserFixture(t)
	s := f.web.o.Subjects
	ctx := b.Tab(t)
	must(t, browser.Navigate(ctx, f.base+"?lang=en"))
	browser.MustWait(t, ctx, q(cardSel(testGame))+" !== null", 10*time.Second)

	// Enter on board 1 (keyboard): followed, the focus on the command field.
	_, err := browser.Eval[bool](ctx, "(() => { "+q(cardSel(testGame))+".focus(); return true; })()")
	must(t, err)
	must(t, browser.Press(ctx, "\r"))
	announced(t, ctx, time.Now(), "Following board 1: Carlsen, Magnus – Nepomniachtchi, Ian.")
	if id := browser.MustEval[string](t, ctx, "document.activeElement.id"); id != "command" {
		t.Errorf("after Enter on a board the focus is on %q, want the command field", id)
	}

	// A public move, spoken.
	t0 := time.Now()
	f.publish(t, s.publicMove(testGame), game.MoveEvent{Game: testGame, Ply: 1, SAN: "e4", UCI: "e2e4", FEN: fenE4, At: game.T(t0), Clock: &game.ClockPair{WhiteMS: 61000, BlackMS: 62000}})
	first := announced(t, ctx, t0, "1. White: Pawn e2 to e4")
	// SAN, picked by the listener.
	_, err = browser.Eval[bool](ctx, `(() => { const s = document.getElementById('notation'); s.value = 'san'; s.dispatchEvent(new Event('change')); return true; })()`)
	must(t, err)
	t1 := time.Now()
	f.publish(t, s.publicMove(testGame), game.MoveEvent{Game: testGame, Ply: 2, SAN: "e5", UCI: "e7e5", FEN: fenE4E5, At: game.T(t1), Clock: &game.ClockPair{WhiteMS: 61000, BlackMS: 60000}})
	second := announced(t, ctx, t1, "1… Black: e5")
	t.Logf("public MoveEvent to its announcement in the live region: %v, %v", first, second)
	// The moves came and nothing took the focus away from the command field.
	if id := browser.MustEval[string](t, ctx, "document.activeElement.id"); id != "command" {
		t.Errorf("after two announced moves the focus is on %q, want still the command field", id)
	}

	// The keyboard commands.
	browser.MustWait(t, ctx, `document.querySelectorAll('#moves [data-ply]').length === 2`, 10*time.Second)
	ask(t, ctx, "l", "Last moves: 1. White: e4; 1… Black: e5.")
	ask(t, ctx, "c", "Black 1:00.")
	ask(t, ctx, "p e4", "e4: white pawn.")
	ask(t, ctx, "p d4", "d4: empty.")
	ask(t, ctx, "p z9", "No square z9")
	ask(t, ctx, "k n", "white knight: b1, g1; black knight: b8, g8.")
	ask(t, ctx, "k queen", "white queen: d1; black queen: d8.")
	ask(t, ctx, "r", "1… Black: e5")
	ask(t, ctx, "x", "Unknown command")
	// The same from the buttons.
	must(t, browser.Click(ctx, "#ask-clocks"))
	browser.MustWait(t, ctx, q("#answer")+".textContent.startsWith('White ') && "+q("#answer")+".textContent.endsWith('Black 1:00.')", 5*time.Second)

	// German, spoken: the squares of Appendix D.
	_, err = browser.Eval[bool](ctx, `(() => { const s = document.querySelector('select[data-lang-switch]'); s.value = 'de'; s.dispatchEvent(new Event('change')); const n = document.getElementById('notation'); n.value = 'spoken'; n.dispatchEvent(new Event('change')); return true; })()`)
	must(t, err)
	f.publish(t, s.publicMove(testGame), game.MoveEvent{Game: testGame, Ply: 3, SAN: "Nf3", UCI: "g1f3", FEN: fenNf3, At: game.T(time.Now())})
	announced(t, ctx, time.Now(), "2. Weiß: Springer Gustav eins – Felix drei")
	ask(t, ctx, "p f3", "Felix drei: weißer Springer.")

	// A flag: Black's clock runs out.
	f.publish(t, s.publicClock(testGame), game.ClockEvent{Game: testGame, WhiteMS: 50000, BlackMS: 300, Running: "black", At: game.T(time.Now())})
	announced(t, ctx, time.Now(), "Schwarz: Zeit überschritten.")
	// The result.
	f.publish(t, s.publicEnd(testGame), game.Result{Game: testGame, Result: "1-0", Termination: "flag_fall", At: game.T(time.Now())})
	announced(t, ctx, time.Now(), "Ergebnis 1-0, Zeitüberschreitung.")

	// The other chess forms, spoken (the payload's SAN and UCI; the
	// positions do not matter to the words): castling, a capture, a
	// promotion with mate; and Vietnamese.
	_, err = browser.Eval[bool](ctx, `(() => { const s = document.querySelector('select[data-lang-switch]'); s.value = 'en'; s.dispatchEvent(new Event('change')); return true; })()`)
	must(t, err)
	must(t, browser.Click(ctx, cardSel(g960)))
	announced(t, ctx, time.Now(), "Following board 2")
	for i, m := range []struct {
		san, uci, want string
	}{
		{"O-O", "f1g1", "1. White: Short castling"},
		{"exd5", "e6d5", "1… Black: Pawn e6 takes d5"},
		{"Qxf7+", "d1f7", "2. White: Queen d1 takes f7, check"},
		{"O-O-O", "f8c8", "2… Black: Long castling"},
		{"e8=Q#", "e7e8q", "3. White: Pawn e7 to e8, promotes to Queen, checkmate"},
	} {
		f.publish(t, s.publicMove(g960), game.MoveEvent{Game: g960, Ply: i + 1, SAN: m.san, UCI: m.uci, FEN: fen960, At: game.T(time.Now())})
		announced(t, ctx, time.Now(), m.want)
	}
	_, err = browser.Eval[bool](ctx, `(() => { const s = document.querySelector('select[data-lang-switch]'); s.value = 'vi'; s.dispatchEvent(new Event('change')); return true; })()`)
	must(t, err)
	f.publish(t, s.publicMove(g960), game.MoveEvent{Game: g960, Ply: 6, SAN: "Nf6", UCI: "g8f6", FEN: fen960, At: game.T(time.Now())})
	announced(t, ctx, time.Now(), "3… Đen: Mã g8 – f6")

	// Back to English; a team-drop drop, and xiangqi.
	_, err = browser.Eval[bool](ctx, `(() => { const s = document.querySelector('select[data-lang-switch]'); s.value = 'en'; s.dispatchEvent(new Event('change')); return true; })()`)
	must(t, err)
	must(t, browser.Click(ctx, cardSel(gTeamA)))
	announced(t, ctx, time.Now(), "Following board 3")
	f.publish(t, s.publicMove(gTeamA), webMoveEvent{MoveEvent: game.MoveEvent{Game: gTeamA, Ply: 1, SAN: "N@f3", UCI: "N@f3", FEN: "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKBNR[] b KQkq - 0 1", At: game.T(time.Now())},
		Pockets: &webPockets{White: "", Black: ""}, Partner: gTeamB.String()})
	announced(t, ctx, time.Now(), "1. White: Knight dropped on f3")
	browser.DocScreenshot(t, ctx, docImages, "web-spectators", true)
	must(t, browser.Click(ctx, cardSel(gXQ)))
	announced(t, ctx, time.Now(), "Following board 5")
	f.publish(t, s.publicMove(gXQ), game.MoveEvent{Game: gXQ, Ply: 1, SAN: "C2.5", UCI: "h2e2", FEN: fenXQ1, Notation: "P2-5", At: game.T(time.Now())})
	announced(t, ctx, time.Now(), "1. Red: Cannon 2 traverses to 5")
	if opts := browser.MustEval[string](t, ctx, `[...document.querySelectorAll('#notation option')].map(o => o.value).join(',')`); opts != "spoken,vi,wxf,iccs" {
		t.Errorf("xiangqi notations offered: %s", opts)
	}
	ask(t, ctx, "p e2", "e2: red cannon.")
	ask(t, ctx, "k chariot", "red chariot: a0, i0; black chariot: a9, i9.")
	_, err = browser.Eval[bool](ctx, `(() => { const n = document.getElementById('notation'); n.value = 'vi'; n.dispatchEvent(new Event('change')); return true; })()`)
	must(t, err)
	ask(t, ctx, "l", "Last moves: 1. Red: P2-5.")

	// What a screen reader is told: every control named and focusable, the live regions polite.
	ax, err := browser.AXTree(ctx)
	must(t, err)
	live := 0
	names := map[string]bool{}
	for _, n := range ax {
		if n.Live == "polite" {
			live++
		}
		if n.Ignored {
			continue
		}
		switch n.Role {
		case "button", "textbox", "combobox", "link", "article":
			if n.Role == "article" && !n.Focusable {
				continue // the large board's card: not a control
			}
			if strings.TrimSpace(n.Name) == "" {
				t.Errorf("a %s without a name in the accessibility tree", n.Role)
			}
			if !n.Focusable {
				t.Errorf("%s %q cannot take the keyboard focus", n.Role, n.Name)
			}
			names[n.Role+":"+n.Name] = true
		}
	}
	if live < 2 {
		t.Errorf("%d polite live regions in the accessibility tree, want the announcements and the answers", live)
	}
	for _, want := range []string{"textbox:Command", "combobox:Notation of the announcements", "button:Last moves", "button:Clocks", "button:Repeat", "button:Back one move (←)", "combobox:Language",
		"article:Board 1: Carlsen, Magnus – Nepomniachtchi, Ian. Enter follows this game."} {
		if !names[want] {
			var got []string
			for k := range names {
				got = append(got, k)
			}
			slices.Sort(got)
			t.Errorf("no %s in the accessibility tree; named controls: %s", want, strings.Join(got, " | "))
		}
	}
	browser.MustAxe(t, ctx, axe, "/")
	browser.Keep(t, ctx, "spectators-ear")
	noProblems(t, b)
}
