package broadcast

import (
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/internal/browser"
)

// TestBrowserLanguages: both pages take their language from the browser's
// (Accept-Language de), ?lang= overrides it, the switch on the page
// changes it at once (<html lang>, the static texts, the boards, the
// alerts' messages), and no English word of the tables stays on a German
// or Vietnamese page.
func TestBrowserLanguages(t *testing.T) {
	b := browser.Start(t)
	f := startBrowserFixture(t)
	p := testPrefix

	// The spectators' page, the browser speaking German.
	tab := b.Tab(t)
	must(t, browser.AcceptLanguage(tab, "de-DE,de"))
	must(t, browser.Navigate(tab, f.base))
	browser.MustWait(t, tab, `document.documentElement.lang === "de"`, 10*time.Second)
	browser.MustWait(t, tab, q(cardSel(testGame))+"?.textContent.includes('Brett 1')", 10*time.Second)
	browser.MustWait(t, tab, q("#pgn")+".textContent === 'PGN herunterladen'", 10*time.Second)
	for _, en := range []string{"Download PGN", "Board 1", "Live boards", "arbiters"} {
		if browser.MustEval[bool](t, tab, "document.body.innerText.includes("+browser.Quote(en)+")") {
			t.Errorf("German spectators' page shows %q", en)
		}
	}
	if lbl := browser.MustEval[string](t, tab, q("#prev")+".getAttribute('aria-label')"); lbl != "Einen Zug zurück (←)" {
		t.Errorf("German back button named %q", lbl)
	}
	// The switch: Vietnamese at once, and in the address.
	_, err := browser.Eval[bool](tab, `(() => { const s = document.querySelector('select[data-lang-switch]'); s.value = 'vi'; s.dispatchEvent(new Event('change')); return true; })()`)
	must(t, err)
	browser.MustWait(t, tab, `document.documentElement.lang === "vi"`, 5*time.Second)
	browser.MustWait(t, tab, q(cardSel(testGame))+"?.textContent.includes('Bàn 1')", 5*time.Second)
	browser.MustWait(t, tab, q("#pgn")+".textContent === 'Tải PGN'", 5*time.Second)
	if s := browser.MustEval[string](t, tab, "location.search"); s != "?lang=vi" {
		t.Errorf("after the switch the address has %q", s)
	}
	browser.Keep(t, tab, "spectators-vi")

	// ?lang=en wins over the browser's German.
	tab2 := b.Tab(t)
	must(t, browser.AcceptLanguage(tab2, "de-DE,de"))
	must(t, browser.Navigate(tab2, f.base+"?lang=en"))
	browser.MustWait(t, tab2, `document.documentElement.lang === "en" && `+q("#pgn")+".textContent === 'Download PGN'", 10*time.Second)

	// The arbiters' page in German: the form, and an alert's message.
	arb := b.Tab(t)
	must(t, browser.AcceptLanguage(arb, "de"))
	// The switch above was remembered in this browser: forgotten first.
	must(t, browser.Navigate(arb, f.base+"arbiter"))
	_, err = browser.Eval[bool](arb, "(() => { localStorage.clear(); return true; })()")
	must(t, err)
	must(t, browser.Navigate(arb, f.base+"arbiter"))
	browser.MustWait(t, arb, `document.documentElement.lang === "de"`, 10*time.Second)
	browser.MustWait(t, arb, q("form[data-signin] button[type=submit]")+".textContent === 'Anmelden'", 10*time.Second)
	_, err = browser.Eval[bool](arb, `(() => { const f = document.querySelector('form[data-signin]'); f.user.value = 'arb'; f.password.value = 'arb-pw'; f.requestSubmit(); return true; })()`)
	must(t, err)
	browser.MustWait(t, arb, q(`#connection[data-connection="live"]`)+"?.textContent === 'live'", 10*time.Second)
	f.publish(t, p+".arbiter."+testGame.String()+".alert", map[string]any{"id": "lang-1", "game": testGame.String(), "kind": "illegal_move", "severity": "crit",
		"side": "white", "ply": 3, "message": "White's second illegal move.", "proposal": map[string]any{"result": "0-1"}, "at": "2026-02-08T08:01:03.500Z"})
	sel := `[data-alert-id="lang-1"]`
	browser.MustWait(t, arb, q(sel)+"?.textContent.includes('regelwidriger Zug')", 10*time.Second)
	txt := browser.MustEval[string](t, arb, q(sel)+".textContent")
	for _, want := range []string{"kritisch", "Halbzug 3", "Weiß", "Bestätigen", "Wortlaut des Dienstes: White's second illegal move."} {
		if !strings.Contains(txt, want) {
			t.Errorf("German alert lacks %q: %s", want, txt)
		}
	}
	// Switched to Vietnamese while signed in: still signed in, the alert re-worded.
	_, err = browser.Eval[bool](arb, `(() => { const s = document.querySelector('select[data-lang-switch]'); s.value = 'vi'; s.dispatchEvent(new Event('change')); return true; })()`)
	must(t, err)
	browser.MustWait(t, arb, q(sel)+"?.textContent.includes('nước đi không hợp lệ')", 5*time.Second)
	if st := browser.MustEval[string](t, arb, q("#connection")+".dataset.connection"); st != "live" {
		t.Errorf("switching the language signed out (%s)", st)
	}
	for _, want := range []string{"Xác nhận", "nửa nước 3"} {
		if !browser.MustEval[bool](t, arb, q(sel)+".textContent.includes("+browser.Quote(want)+")") {
			t.Errorf("Vietnamese alert lacks %q", want)
		}
	}
	if !browser.MustEval[bool](t, arb, q(`#boards [data-game="open2026.1.1"]`)+".textContent.includes('Bàn 1')") {
		t.Error("the arbiters' boards are not in Vietnamese")
	}
	browser.Keep(t, arb, "arbiter-vi")
	noProblems(t, b)
}
