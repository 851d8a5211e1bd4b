package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/dgtbridge/dgtbridge/internal/testenv"
)

// AcceptLanguage makes the tab's browser language (navigator.languages and
// the Accept-Language header) langs, e.g. "de-DE,de".
func AcceptLanguage(ctx context.Context, langs string) error {
	ua, err := Eval[string](ctx, "navigator.userAgent")
	if err != nil {
		return err
	}
	return chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: ua, AcceptLanguage: langs})
		return err
	}))
}

// AXNode is one node of Chromium's accessibility tree: what a screen
// reader is told about an element.
type AXNode struct {
	Role    string
	Name    string
	Ignored bool
	// Live is the node's aria-live politeness ("" when none).
	Live string
	// Focusable says whether the node can take the keyboard focus.
	Focusable bool
}

func axString(v *accessibility.Value) string {
	if v == nil || len(v.Value) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(v.Value, &s) == nil {
		return s
	}
	return strings.Trim(string(v.Value), `"`)
}

// AXTree returns the tab's whole accessibility tree (the DevTools
// protocol's Accessibility.getFullAXTree), ignored nodes included.
func AXTree(ctx context.Context) ([]AXNode, error) {
	res, err := chromedp.Run(ctx, func(ctx context.Context, t *chromedp.Target) (accessibility.GetFullAXTreeResult, error) {
		return cdp.Call(ctx, t, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
	})
	if err != nil {
		return nil, err
	}
	out := make([]AXNode, 0, len(res.Nodes))
	for _, n := range res.Nodes {
		a := AXNode{Role: axString(n.Role), Name: axString(n.Name), Ignored: n.Ignored}
		for _, p := range n.Properties {
			switch p.Name {
			case accessibility.PropertyNameLive:
				a.Live = axString(p.Value)
			case accessibility.PropertyNameFocusable:
				a.Focusable = string(p.Value.Value) == "true"
			}
		}
		out = append(out, a)
	}
	return out, nil
}

// Press sends key presses to the focused element, as a keyboard would
// ("\r" is Enter, "\t" Tab).
func Press(ctx context.Context, keys string) error {
	return chromedp.Do(ctx, chromedp.KeyEvent(keys))
}

// Type focuses the element the CSS selector finds and types text into it.
func Type(ctx context.Context, selector, text string) error {
	return chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(selector)), chromedp.KeyEvent(text))
}

// ScreenshotOf returns a PNG of the element the CSS selector finds.
func ScreenshotOf(ctx context.Context, selector string) ([]byte, error) {
	return chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS(selector)))
}

// AxeViolation is one rule axe-core found broken, with how many elements
// break it.
type AxeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target []any `json:"target"`
	} `json:"nodes"`
}

func (v AxeViolation) String() string {
	var where []string
	for _, n := range v.Nodes {
		where = append(where, fmt.Sprint(n.Target...))
	}
	return fmt.Sprintf("%s (%s): %s at %s", v.ID, v.Impact, v.Help, strings.Join(where, ", "))
}

// AxeScript returns axe-core's script from the web pages' npm
// dependencies (web/node_modules, installed by npm ci); the test stops
// through testenv when it is missing.
func AxeScript(tb testing.TB, webDir string) string {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(webDir, "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		testenv.Unavailable(tb, "axe-core is not installed (cd web && npm ci): "+err.Error())
	}
	return string(b)
}

// Axe runs axe-core (its script, from AxeScript) on the tab's page and
// returns the violations of the WCAG 2 A and AA rules and best practices.
// The script is evaluated through the DevTools protocol, which the page's
// Content-Security-Policy does not restrict.
func Axe(ctx context.Context, script string) ([]AxeViolation, error) {
	if _, err := Eval[bool](ctx, "(() => { if (!window.axe) { "+script+"\n}; return true; })()"); err != nil {
		return nil, fmt.Errorf("loading axe-core: %w", err)
	}
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](`axe.run(document, {resultTypes: ['violations']}).then(r => JSON.stringify(r.violations))`, chromedp.EvalAwaitPromise))
	if err != nil {
		return nil, fmt.Errorf("axe.run: %w", err)
	}
	var v []AxeViolation
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		return nil, err
	}
	return v, nil
}

// MustAxe fails the test for every serious or critical axe-core violation
// on the tab's page (minor and moderate ones are logged).
func MustAxe(t *testing.T, ctx context.Context, script, page string) {
	t.Helper()
	v, err := Axe(ctx, script)
	if err != nil {
		t.Fatalf("%s: %v", page, err)
	}
	for _, x := range v {
		if x.Impact == "serious" || x.Impact == "critical" {
			t.Errorf("%s: axe-core: %s", page, x)
		} else {
			t.Logf("%s: axe-core (%s): %s", page, x.Impact, x)
		}
	}
}

// UpdateScreenshots is the switch that makes DocScreenshot write: the
// environment variable DGTBRIDGE_UPDATE_SCREENSHOTS=1.
const UpdateScreenshots = "DGTBRIDGE_UPDATE_SCREENSHOTS"

// DocScreenshot writes a JPEG of the tab (the whole page when full, else
// the viewport) to dir/<name>.jpg when DGTBRIDGE_UPDATE_SCREENSHOTS=1: the
// documentation's screenshots are made by the tests that check the pages,
// so they show what the pages do. Nothing otherwise.
func DocScreenshot(t *testing.T, ctx context.Context, dir, name string, full bool) {
	t.Helper()
	if os.Getenv(UpdateScreenshots) != "1" {
		return
	}
	var b []byte
	var err error
	if full {
		b, err = chromedp.Run(ctx, chromedp.FullScreenshot(70))
	} else {
		q := int64(70)
		b, err = chromedp.Run(ctx, func(ctx context.Context, t *chromedp.Target) ([]byte, error) {
			r, err := cdp.Call(ctx, t, page.CaptureScreenshot, page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatJpeg, Quality: &q})
			return r.Data, err
		})
	}
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".jpg"), b, 0o644); err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	t.Logf("wrote %s", filepath.Join(dir, name+".jpg"))
}
