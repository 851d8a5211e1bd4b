package broadcast

import (
	"bytes"
	"context"
	"image/png"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/internal/browser"
)

// redPixels counts the clearly red pixels of a PNG (the red side's ink).
func redPixels(t *testing.T, b []byte) int {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if cr>>8 > 140 && cg>>8 < 90 && cb>>8 < 90 {
				n++
			}
		}
	}
	return n
}

func xqStyle(t *testing.T, ctx context.Context, v string) {
	t.Helper()
	_, err := browser.Eval[bool](ctx, `(() => { const s = document.querySelector('select[data-xq-style]'); s.value = `+browser.Quote(v)+`; s.dispatchEvent(new Event('change')); return true; })()`)
	must(t, err)
	browser.MustWait(t, ctx, "document.documentElement.dataset.xq === "+browser.Quote(v), 5*time.Second)
}

// TestBrowserXiangqiPieces: the xiangqi pieces are drawn with their
// characters from the page's own font (loaded, no font needed on the
// machine): the pixels of two red pieces differ from each other and from
// the letters the setting offers instead, and carry the red side's ink;
// each piece is an image named in the page's language in Chromium's
// accessibility tree ("red chariot", Vietnamese "Xe đỏ").
func TestBrowserXiangqiPieces(t *testing.T) {
	b := browser.Start(t)
	f := startBrowserFixture(t)
	ctx := b.Tab(t)
	must(t, browser.Navigate(ctx, f.base+"?lang=en"))
	browser.MustWait(t, ctx, q(cardSel(gXQ))+" !== null", 10*time.Second)
	must(t, browser.Click(ctx, cardSel(gXQ)))
	focusXQ := `[data-view="focus"][data-game="open2026.1.5"]`
	browser.MustWait(t, ctx, q(focusXQ+" cg-board")+"?.querySelectorAll('piece').length === 32", 10*time.Second)
	browser.MustWait(t, ctx, `[...document.fonts].some(f => f.family.replace(/["']/g, '') === 'dgtbridge xiangqi' && f.status === 'loaded')`, 10*time.Second)
	if !browser.MustEval[bool](t, ctx, `document.fonts.check('700 20px "dgtbridge xiangqi"', '帥仕相傌俥炮兵將士象馬車砲卒')`) {
		t.Error("the page's xiangqi font does not cover the fourteen characters")
	}
	// Let the glyphs paint.
	_, _ = browser.Eval[bool](ctx, `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`)

	chariot := focusXQ + ` piece.r-piece.white`
	horse := focusXQ + ` piece.n-piece.white`
	c1, err := browser.ScreenshotOf(ctx, chariot)
	must(t, err)
	h1, err := browser.ScreenshotOf(ctx, horse)
	must(t, err)
	if bytes.Equal(c1, h1) {
		t.Error("the red chariot and the red horse look the same (no glyphs drawn)")
	}
	if n := redPixels(t, c1); n < 40 {
		t.Errorf("the red chariot has %d red pixels: no red character drawn", n)
	}
	xqStyle(t, ctx, "letters")
	_, _ = browser.Eval[bool](ctx, `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`)
	c2, err := browser.ScreenshotOf(ctx, chariot)
	must(t, err)
	if bytes.Equal(c1, c2) {
		t.Error("the letters setting draws the chariot as the character does")
	}
	browser.Keep(t, ctx, "xiangqi-letters")
	xqStyle(t, ctx, "chars")

	// The accessibility tree: every piece an image with its name.
	count := func(name string) int {
		ax, err := browser.AXTree(ctx)
		must(t, err)
		n := 0
		for _, a := range ax {
			if !a.Ignored && a.Role == "image" && a.Name == name {
				n++
			}
		}
		return n
	}
	for name, want := range map[string]int{"red chariot": 2, "black general": 1, "red soldier": 5, "black cannon": 2} {
		// The large board and the grid's card: at least the large board's.
		if n := count(name); n < want {
			t.Errorf("%d images named %q in the accessibility tree, want at least %d", n, name, want)
		}
	}
	_, err = browser.Eval[bool](ctx, `(() => { const s = document.querySelector('select[data-lang-switch]'); s.value = 'vi'; s.dispatchEvent(new Event('change')); return true; })()`)
	must(t, err)
	browser.MustWait(t, ctx, q(chariot)+"?.getAttribute('aria-label') === 'Xe đỏ'", 5*time.Second)
	if n := count("Xe đỏ"); n < 2 {
		t.Errorf("%d images named %q in Vietnamese", n, "Xe đỏ")
	}
	browser.Keep(t, ctx, "xiangqi-characters")
	browser.DocScreenshot(t, ctx, docImages, "web-xiangqi", true)
	noProblems(t, b)
}
