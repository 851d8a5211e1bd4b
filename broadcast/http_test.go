package broadcast

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/internal/metrics"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

func TestHTTPFeeds(t *testing.T) {
	games := NewStore(nil)
	for b := 3; b >= 1; b-- {
		st := game.GameState{Game: game.ID{Event: "open2026", Round: 2, Board: b}, Event: "open2026", Round: 2, Board: b, White: "W", Black: "B", SAN: []string{"d4"}, Result: "*"}
		if b == 2 {
			st.PGN = "[Event \"open2026\"]\n[Round \"2.2\"]\n\n1. c4 {[%clk 1:30:00]} *\n\n\n"
		}
		games.Put(st)
	}
	games.Put(game.GameState{Game: game.ID{Event: "open2026", Round: 1, Board: 1}, Round: 1, Board: 1})
	var boardErr error
	h := NewHTTPServer(HTTPOptions{Games: games, Health: []HealthSource{
		healthFunc(func() error { return nil }),
		healthFunc(func() error { return boardErr }),
	}})
	ts := httptest.NewServer(h.handler())
	defer ts.Close()
	get := func(path string) (int, string, http.Header) {
		t.Helper()
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header
	}
	t.Run("round", func(t *testing.T) {
		code, body, hdr := get("/pgn/open2026/2.pgn")
		if code != 200 || hdr.Get("Content-Type") != pgnContentType {
			t.Fatalf("%d %s", code, hdr.Get("Content-Type"))
		}
		if n := strings.Count(body, "[Event "); n != 3 {
			t.Errorf("%d games in round PGN:\n%s", n, body)
		}
		i1, i2, i3 := strings.Index(body, `[Round "2.1"]`), strings.Index(body, `[Round "2.2"]`), strings.Index(body, `[Round "2.3"]`)
		if !(i1 >= 0 && i1 < i2 && i2 < i3) {
			t.Errorf("games not in board order:\n%s", body)
		}
		if !strings.Contains(body, "*\n\n[Event") || strings.Contains(body, "\n\n\n") {
			t.Errorf("games must be separated by exactly one blank line:\n%q", body)
		}
		if !strings.Contains(body, "{[%clk 1:30:00]}") {
			t.Errorf("a state's own PGN was not used")
		}
	})
	t.Run("game", func(t *testing.T) {
		code, body, _ := get("/pgn/open2026/2/3.pgn")
		if code != 200 || !strings.Contains(body, `[Round "2.3"]`) || !strings.Contains(body, "1. d4 *") || strings.Count(body, "[Event ") != 1 {
			t.Errorf("%d\n%s", code, body)
		}
	})
	for _, path := range []string{"/pgn/open2026/9.pgn", "/pgn/open2026/2/9.pgn", "/pgn/open2026/x.pgn", "/pgn/Open/2.pgn", "/pgn/open2026/2.txt", "/pgn/open2026/0/1.pgn"} {
		t.Run("404 "+path, func(t *testing.T) {
			if code, _, _ := get(path); code != 404 {
				t.Errorf("%s: %d, want 404", path, code)
			}
		})
	}
	t.Run("etag", func(t *testing.T) {
		_, body, hdr := get("/pgn/open2026/2.pgn")
		etag := hdr.Get("ETag")
		if etag == "" {
			t.Fatal("no ETag")
		}
		req, _ := http.NewRequest("GET", ts.URL+"/pgn/open2026/2.pgn", nil)
		req.Header.Set("If-None-Match", etag)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotModified {
			t.Errorf("unchanged round with its ETag: %d, want 304", resp.StatusCode)
		}
		games.Put(game.GameState{Game: game.ID{Event: "open2026", Round: 2, Board: 1}, Event: "open2026", Round: 2, Board: 1, SAN: []string{"d4", "d5"}, Result: "*"})
		resp, err = http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(b) == body || resp.Header.Get("ETag") == etag {
			t.Errorf("changed round: %d, new ETag %q", resp.StatusCode, resp.Header.Get("ETag"))
		}
	})
	t.Run("method", func(t *testing.T) {
		resp, err := http.Post(ts.URL+"/pgn/open2026/2.pgn", "text/plain", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("POST: %d", resp.StatusCode)
		}
	})
	t.Run("healthz", func(t *testing.T) {
		if code, body, _ := get("/healthz"); code != 200 || body != "ok\n" {
			t.Errorf("healthy: %d %q", code, body)
		}
		boardErr = errors.New("board 3: /dev/ttyACM2 disconnected")
		if code, body, _ := get("/healthz"); code != 503 || body != "not healthy (the admin listener says why)\n" {
			t.Errorf("unhealthy: %d %q", code, body)
		}
		adm := httptest.NewServer(h.adminHandler())
		defer adm.Close()
		resp, err := http.Get(adm.URL + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 503 || string(b) != "board 3: /dev/ttyACM2 disconnected\n" {
			t.Errorf("unhealthy, admin listener: %d %q", resp.StatusCode, b)
		}
	})
}

// TestHealthzFollowsNATS: /healthz is 503 while the publisher has no NATS
// connection (saying so, without the error's text) and 200 once it has.
func TestHealthzFollowsNATS(t *testing.T) {
	var d switchable
	p := newPublisher(t, t.TempDir(), d.dial, 0)
	runPublisher(t, p)
	h := NewHTTPServer(HTTPOptions{Games: p.Public(), Health: []HealthSource{p}})
	ts := httptest.NewServer(h.handler())
	defer ts.Close()
	code := func() int {
		resp, err := http.Get(ts.URL + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	waitFor(t, "a failed connect", 5*time.Second, func() bool { return p.Health() != nil && strings.Contains(p.Health().Error(), "no server") })
	resp, err := http.Get(ts.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 503 || string(b) != "nats: not connected\n" {
		t.Errorf("without NATS: %d %q (public: the part, not the error's text)", resp.StatusCode, b)
	}
	srv := startServer(t, t.TempDir())
	defer srv.Shutdown()
	d.set(srv)
	waitFor(t, "healthy", 5*time.Second, func() bool { return code() == 200 })
}

func TestHTTPRunShutdown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h := NewHTTPServer(HTTPOptions{Games: NewStore(nil)})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.serve(ctx, ln, h.handler()) }()
	resp, err := http.Get("http://" + ln.Addr().String() + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve after cancel: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after cancel")
	}
	if _, err := http.Get("http://" + ln.Addr().String() + "/healthz"); err == nil {
		t.Error("still serving after shutdown")
	}
}

// TestHTTPServesDelayedCopy: the public round PGN appears only once the
// delayed state is due, while the organisers' live PGN has it at once.
func TestHTTPServesDelayedCopy(t *testing.T) {
	srv := startServer(t, t.TempDir())
	defer srv.Shutdown()
	const delay = 300 * time.Millisecond
	p := newPublisher(t, t.TempDir(), srv.Dialer(), delay)
	runPublisher(t, p)
	ts := httptest.NewServer(NewHTTPServer(HTTPOptions{Games: p.Public()}).handler())
	defer ts.Close()
	status := func() int {
		resp, err := http.Get(ts.URL + "/pgn/open2026/1.pgn")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	start := time.Now()
	p.PublishState(game.GameState{Game: testGame, Event: "open2026", Round: 1, Board: 1, SAN: []string{"e4"}, Result: "*"})
	if pgn, n := p.live.RoundPGN("open2026", 1); n != 1 || !strings.Contains(pgn, "1. e4") {
		t.Errorf("live store: %d %q", n, pgn)
	}
	if c := status(); c != 404 && time.Since(start) < delay {
		t.Errorf("public PGN served before the delay: %d", c)
	}
	waitFor(t, "public PGN", 5*time.Second, func() bool { return status() == 200 })
	if early := time.Until(start.Add(delay)); early > 0 {
		t.Errorf("public PGN appeared %v early", early)
	}
}

// TestStoresReloadedAfterRestart: a new process (fresh outbox) rebuilds the
// live store from the KV bucket and the public one from the PUBLIC stream.
func TestStoresReloadedAfterRestart(t *testing.T) {
	srv := startServer(t, t.TempDir())
	defer srv.Shutdown()
	p1 := newPublisher(t, t.TempDir(), srv.Dialer(), 0)
	stop := runPublisher(t, p1)
	for b := 1; b <= 3; b++ {
		p1.PublishState(game.GameState{Game: game.ID{Event: "open2026", Round: 1, Board: b}, Event: "open2026", Round: 1, Board: b, SAN: []string{"e4"}, Revision: b})
	}
	waitFor(t, "sent", 5*time.Second, func() bool { return p1.Pending() == 0 })
	stop()
	p2 := newPublisher(t, t.TempDir(), srv.Dialer(), 0)
	runPublisher(t, p2)
	waitFor(t, "reloaded", 5*time.Second, func() bool {
		_, n1 := p2.live.RoundPGN("open2026", 1)
		_, n2 := p2.Public().RoundPGN("open2026", 1)
		return n1 == 3 && n2 == 3
	})
	st, _ := p2.Public().Get(game.ID{Event: "open2026", Round: 1, Board: 2})
	if st.Revision != 2 {
		t.Errorf("reloaded public state %+v", st)
	}
}

// TestHTTPBounds: a kept-alive connection left idle is closed by the
// server (before: never, so idle clients could hold connections and file
// descriptors for ever: 20 of 20 still open here) and a request with
// 64 KiB of headers is refused with 431 (before: accepted, up to 1 MB of
// headers a request).
func TestHTTPBounds(t *testing.T) {
	h := NewHTTPServer(HTTPOptions{Games: NewStore(nil)})
	h.limits.idle = 300 * time.Millisecond
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.serve(ctx, ln, h.handler()) }()
	defer func() { cancel(); <-done }()

	const n = 20
	conns := make([]net.Conn, n)
	buf := make([]byte, 4096)
	for i := range conns {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		if n, err := c.Read(buf); err != nil || !strings.HasPrefix(string(buf[:n]), "HTTP/1.1 200") {
			t.Fatalf("first request: %q %v", buf[:n], err)
		}
		conns[i] = c
	}
	// Each connection is kept alive and idle now. The server closes it:
	// the next read ends (EOF) well before the deadline.
	open := 0
	for _, c := range conns {
		if _, err := c.Read(buf); errors.Is(err, os.ErrDeadlineExceeded) {
			open++
		}
	}
	if open != 0 {
		t.Errorf("%d of %d idle connections still open after 10 s", open, n)
	}

	req, _ := http.NewRequest("GET", "http://"+ln.Addr().String()+"/healthz", nil)
	req.Header.Set("X-Filler", strings.Repeat("a", 64<<10))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("64 KiB of headers: %d, want 431", resp.StatusCode)
	}
}

type backlogged struct{ lines []string }

func (b backlogged) Health() error     { return nil }
func (b backlogged) Backlog() []string { return b.lines }

type someMetrics struct{}

func (someMetrics) WriteMetrics(w io.Writer) {
	io.WriteString(w, "# TYPE x_total counter\nx_total 3\n")
}

// TestHTTPMetricsAndBacklog: /metrics on the admin listener has the
// process's figures and its sources'; /healthz stays 200 while behind and
// says so (where, on the admin listener); pprof is off unless asked for.
func TestHTTPMetricsAndBacklog(t *testing.T) {
	for _, pp := range []bool{false, true} {
		h := NewHTTPServer(HTTPOptions{Games: NewStore(nil), Health: []HealthSource{backlogged{[]string{"behind: line 3: input handled 2.1 s after it was read"}}},
			Metrics: []metrics.Source{someMetrics{}}, Pprof: pp})
		ts := httptest.NewServer(h.adminHandler())
		pub := httptest.NewServer(h.handler())
		get := func(path string) (int, string) {
			resp, err := http.Get(ts.URL + path)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, string(b)
		}
		if code, body := get("/metrics"); code != 200 || !strings.Contains(body, "process_resident_memory_bytes ") || !strings.Contains(body, "\nx_total 3\n") {
			t.Errorf("/metrics %d:\n%s", code, body)
		}
		if code, body := get("/healthz"); code != 200 || body != "ok\nbehind: line 3: input handled 2.1 s after it was read\n" {
			t.Errorf("/healthz %d %q", code, body)
		}
		if code, _ := get("/debug/pprof/"); (code == 200) != pp {
			t.Errorf("pprof %v: /debug/pprof/ %d", pp, code)
		}
		resp, err := http.Get(pub.URL + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(b) != "ok\nbehind (the admin listener says where)\n" {
			t.Errorf("public /healthz %d %q", resp.StatusCode, b)
		}
		ts.Close()
		pub.Close()
	}
}

// TestStoreRendersOnce: a state without PGN is rendered when asked for,
// once per change of the game.
func TestStoreRendersOnce(t *testing.T) {
	calls := 0
	s := NewStore(func(st game.GameState) string {
		calls++
		return fmt.Sprintf("[Event %q]\n\n%d. e4 *\n", st.Event, len(st.Moves))
	})
	g := game.ID{Event: "open2026", Round: 1, Board: 1}
	s.Put(game.GameState{Game: g, Event: "open2026", Moves: []string{"e2e4"}, Revision: 0})
	for range 3 {
		if p, ok := s.GamePGN(g); !ok || !strings.HasSuffix(p, "1. e4 *\n") {
			t.Fatalf("%q %v", p, ok)
		}
		s.RoundPGN("open2026", 1)
	}
	s.Put(game.GameState{Game: g, Event: "open2026", Moves: []string{"e2e4", "e7e5"}, Revision: 0})
	s.GamePGN(g)
	if calls != 2 {
		t.Errorf("rendered %d times for two states", calls)
	}
}
