// Package browser drives Debian's headless Chromium from Go tests through
// the DevTools protocol (chromedp): a fresh profile per browser, the flags
// of a quiet headless run, and every console error, uncaught exception and
// browser log error (a failed request, a Content-Security-Policy
// violation) of its tabs recorded, so a test can assert that a page has
// none. Without Chromium a test is skipped on a laptop and fails in CI
// (internal/testenv); under -short it is skipped.
package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dgtbridge/dgtbridge/internal/testenv"
)

// Flags are the command-line switches Chromium is started with (besides a
// fresh --user-data-dir): headless, no sandbox (CI runs as root), no GPU,
// and nothing that talks to the network on its own.
var Flags = []string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
	"--disable-background-networking", "--disable-component-update", "--disable-sync"}

// Path returns Chromium's executable: Debian's real binary (its
// /usr/bin/chromium is a shell wrapper), or chromium / chromium-browser on
// PATH. The test stops through testenv when there is none.
func Path(tb testing.TB) string {
	tb.Helper()
	if st, err := os.Stat("/usr/lib/chromium/chromium"); err == nil && !st.IsDir() {
		return "/usr/lib/chromium/chromium"
	}
	for _, n := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	testenv.Unavailable(tb, "chromium is not installed (apt-get install -y chromium): this browser test needs it")
	return ""
}

// Browser is one Chromium process.
type Browser struct {
	ctx context.Context

	mu       sync.Mutex
	problems []string
}

// Start launches Chromium for the test (skipped under -short) with a fresh
// profile, and closes it when the test ends.
func Start(t *testing.T) *Browser {
	t.Helper()
	if testing.Short() {
		t.Skip("browser test: skipped under -short")
	}
	exe := Path(t)
	opts := []chromedp.ExecAllocatorOption{chromedp.ExecPath(exe), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 1000)}
	for _, f := range Flags {
		opts = append(opts, chromedp.Flag(strings.TrimPrefix(f, "--"), true))
	}
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		acancel()
		t.Fatalf("chromium %s: %v", exe, err)
	}
	t.Cleanup(func() {
		cancel()
		acancel()
	})
	return &Browser{ctx: ctx}
}

func (b *Browser) problem(s string) {
	b.mu.Lock()
	b.problems = append(b.problems, s)
	b.mu.Unlock()
}

// Problems returns the console errors, uncaught exceptions and browser log
// errors (failed requests, CSP violations) of every tab so far.
func (b *Browser) Problems() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.problems...)
}

// Tab opens a new tab, whose problems are recorded from the start; it closes
// with the test.
func (b *Browser) Tab(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx)
	msgs := chromedp.Console(ctx) // subscribed now, before any navigation
	done := make(chan struct{})
	go func() {
		defer close(done)
		for m, err := range msgs {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				b.problem(fmt.Sprintf("%s: %s (%s)", m.Type, m.Text, m.URL))
			}
		}
	}()
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		t.Fatalf("new tab: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return ctx
}

// Navigate opens url in the tab.
func Navigate(ctx context.Context, url string) error {
	return chromedp.Do(ctx, chromedp.Navigate(url))
}

// Eval evaluates a JavaScript expression in the tab and returns its value
// decoded as T.
func Eval[T any](ctx context.Context, expr string) (T, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[T](expr))
}

// WaitFor polls the expression (every 10 ms, up to timeout) until it is
// true; it returns how long that took, or an error naming the expression.
func WaitFor(ctx context.Context, expr string, timeout time.Duration) (time.Duration, error) {
	start := time.Now()
	deadline := start.Add(timeout)
	for {
		ok, err := Eval[bool](ctx, "!!("+expr+")")
		if err == nil && ok {
			return time.Since(start), nil
		}
		if time.Now().After(deadline) {
			if err != nil {
				return time.Since(start), fmt.Errorf("waiting for %s: %w", expr, err)
			}
			return time.Since(start), fmt.Errorf("waiting %v for %s: still false", timeout, expr)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Click clicks the first element the CSS selector finds (by script, so it
// works for elements scrolled out of view too).
func Click(ctx context.Context, selector string) error {
	ok, err := Eval[bool](ctx, "(() => { const e = document.querySelector("+quote(selector)+"); if (!e) return false; e.click(); return true; })()")
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("click: nothing matches %s", selector)
	}
	return nil
}

// Quote returns s as a JavaScript string literal.
func Quote(s string) string { return quote(s) }

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Screenshot returns a PNG of the whole page (for a look at what a test saw).
func Screenshot(ctx context.Context) ([]byte, error) {
	return chromedp.Run(ctx, chromedp.FullScreenshot(100))
}

// Viewport sets the tab's window size in CSS pixels (e.g. a phone's).
func Viewport(ctx context.Context, w, h int64) error {
	return chromedp.Do(ctx, chromedp.EmulateViewport(w, h))
}

// Keep writes a screenshot of the tab to $DGTBRIDGE_SCREENSHOTS/<name>.png
// when that variable names a folder (to look at what a test saw); nothing
// otherwise.
func Keep(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("DGTBRIDGE_SCREENSHOTS")
	if dir == "" {
		return
	}
	png, err := Screenshot(ctx)
	if err != nil {
		t.Logf("screenshot %s: %v", name, err)
		return
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Logf("screenshot %s: %v", name, err)
	}
}

// MustWait waits up to timeout for expr to be true in the page; on a
// time-out it fails the test with the page's text, which says what the
// page showed instead.
func MustWait(t testing.TB, ctx context.Context, expr string, timeout time.Duration) {
	t.Helper()
	if _, err := WaitFor(ctx, expr, timeout); err != nil {
		body, _ := Eval[string](ctx, "document.body.innerText")
		t.Fatalf("%v\npage text:\n%s", err, body)
	}
}

// MustEval is Eval failing the test on an error.
func MustEval[T any](t testing.TB, ctx context.Context, expr string) T {
	t.Helper()
	v, err := Eval[T](ctx, expr)
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}
