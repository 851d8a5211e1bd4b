package broadcast

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/internal/metrics"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"golang.org/x/crypto/bcrypt"
)

// The HTTP attacker's suite: every path of both listeners, asked by every
// identity (no credentials, wrong ones, a user who is not staff, malformed
// headers, each staff role, a bcrypt one included), against a real
// nats-server, publisher (with a public delay) and spectators' view.

// liveMarks are strings only the live copy of the test's move holds.
var liveMarks = []string{"g1f3", "5N2", "5399123", "1. Nf3"}

// identity is who asks: the Authorization header it sends ("" none).
type identity struct {
	name  string
	auth  func(*http.Request)
	staff bool
}

func basic(user, pw string) func(*http.Request) {
	return func(r *http.Request) { r.SetBasicAuth(user, pw) }
}

func header(v string) func(*http.Request) {
	return func(r *http.Request) { r.Header.Set("Authorization", v) }
}

// httpIdentities: every way to ask. chief's password is a bcrypt hash in
// the configuration.
var httpIdentities = []identity{
	{"anonymous", nil, false},
	{"organiser, wrong password", basic("hall", "hall-pw "), false},
	{"arbiter, organiser's password", basic("arb", "hall-pw"), false},
	{"bcrypt arbiter, its hash as password", basic("chief", "HASH"), false},
	{"unknown user", basic("root", "hall-pw"), false},
	{"public user", basic("viewer", "viewer-pw"), false},
	{"empty user", basic("", "hall-pw"), false},
	{"not base64", header("Basic !!!not-base64"), false},
	{"bearer", header("Bearer hall-pw"), false},
	{"organiser", basic("hall", "hall-pw"), true},
	{"arbiter", basic("arb", "arb-pw"), true},
	{"bcrypt arbiter", basic("chief", "chief-pw"), true},
}

// staffPaths are the paths that show the live hall or the process.
var staffPaths = []string{"/healthz?detail", "/healthz?detail=1", "/metrics", "/debug/pprof/", "/debug/pprof/cmdline", "/debug/pprof/goroutine?debug=1"}

// publicPaths are the public listener's paths for anyone.
var publicPaths = []string{"/healthz", "/pgn/open2026/1.pgn", "/pgn/open2026/1/1.pgn", "/bpgn/open2026/1/1.bpgn", "/", "/arbiter",
	"/api/public.json", "/api/public/game/open2026.1.1.json", "/api/config.json", "/nothing-here", "/pgn/../healthz?detail"}

type httpAttack struct {
	t          *testing.T
	pub, admin *httptest.Server
	hash       string
	p          *Publisher
}

func newHTTPAttack(t *testing.T, delay time.Duration) *httpAttack {
	hash, err := bcrypt.GenerateFromPassword([]byte("chief-pw"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	users := append(append([]User{}, testUsers...), User{Name: "chief", Password: string(hash), Role: RoleArbiter})
	srv := startServer(t, t.TempDir(), users...)
	t.Cleanup(srv.Shutdown)
	p := newDaemonPublisher(t, srv, delay)
	runPublisher(t, p)
	waitFor(t, "publisher connected", 5*time.Second, func() bool { return p.Health() == nil })
	s, _ := NewSubjects(testPrefix)
	w, err := NewWeb(WebOptions{Subjects: s, EventID: testGame.Event, Public: p.Public(), Connect: srv.Dialer(),
		Boards: []WebBoard{{Game: testGame, BoardID: "r1-b1", White: "W", Black: "B", Variant: "chess"}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	// The detail is what the daemon's status keeper reports: the live
	// record (here the publisher's live store).
	detail := func() StatusReport {
		st, _ := p.live.Get(testGame)
		r := BoardReport{BoardID: "r1-b1", Connected: true, Game: testGame, Ply: len(st.SAN)}
		if n := len(st.SAN); n > 0 {
			r.LastMove = &ReportMove{SAN: st.SAN[n-1], UCI: st.Moves[n-1]}
		}
		if st.Clock != nil {
			r.Clock = &ReportClock{WhiteMS: st.Clock.WhiteMS, BlackMS: st.Clock.BlackMS}
		}
		return StatusReport{Boards: []BoardReport{r}}
	}
	hs := NewHTTPServer(HTTPOptions{Games: p.Public(), Web: w, Staff: users, Detail: detail, Health: []HealthSource{p},
		Metrics: []metrics.Source{p}, Pprof: true})
	a := &httpAttack{t: t, pub: httptest.NewServer(hs.handler()), admin: httptest.NewServer(hs.adminHandler()), hash: string(hash), p: p}
	t.Cleanup(a.pub.Close)
	t.Cleanup(a.admin.Close)
	t.Cleanup(func() { hs.webStop() })
	return a
}

// get asks base+path as id; it returns the status, the headers and the
// body (the first event of an event stream).
func (a *httpAttack) get(base, path string, id identity) (int, http.Header, string) {
	a.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", base+path, nil)
	if err != nil {
		a.t.Fatal(err)
	}
	if id.auth != nil {
		id.auth(req)
		if u, pw, ok := req.BasicAuth(); ok && pw == "HASH" {
			req.SetBasicAuth(u, a.hash)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		a.t.Fatalf("%s %s: %v", id.name, path, err)
	}
	defer resp.Body.Close()
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		var b strings.Builder
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() && sc.Text() != "" {
			b.WriteString(sc.Text() + "\n")
		}
		return resp.StatusCode, resp.Header, b.String()
	}
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

// checkHeaders: the security headers every answer carries.
func checkHeaders(t *testing.T, what string, h http.Header) {
	t.Helper()
	csp := h.Get("Content-Security-Policy")
	if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("X-Frame-Options") != "DENY" || h.Get("Referrer-Policy") != "no-referrer" ||
		!strings.Contains(csp, "frame-ancestors 'none'") || !strings.Contains(csp, "default-src 'none'") {
		t.Errorf("%s: security headers missing: nosniff %q, frame %q, referrer %q, CSP %q", what,
			h.Get("X-Content-Type-Options"), h.Get("X-Frame-Options"), h.Get("Referrer-Policy"), csp)
	}
}

func live(body string) string {
	for _, m := range liveMarks {
		if strings.Contains(body, m) {
			return m
		}
	}
	return ""
}

// TestHTTPAttackerRoles: with a live move out and its public copy an hour
// away, no path of the public listener shows it to anyone but staff; the
// staff paths refuse every identity but an organiser's or arbiter's (401
// with a challenge) and show them the live hall; the admin listener shows
// it without credentials and serves nothing else; every answer, 401 and
// 404 included, carries the security headers.
func TestHTTPAttackerRoles(t *testing.T) {
	a := newHTTPAttack(t, time.Hour)
	publishLiveMove(t, a.p)
	waitFor(t, "the live store has the move", 5*time.Second, func() bool { st, _ := a.p.live.Get(testGame); return len(st.SAN) == 1 })
	for _, id := range httpIdentities {
		for _, path := range append(append([]string{}, publicPaths...), "/api/public/events") {
			code, h, body := a.get(a.pub.URL, path, id)
			what := id.name + " GET " + path
			checkHeaders(t, what, h)
			if strings.Contains(path, "healthz") && id.auth != nil && !id.staff && code == http.StatusUnauthorized {
				continue // Basic credentials that do not pass; other headers get the public answer
			}
			if m := live(body); m != "" && !(id.staff && strings.Contains(path, "healthz")) {
				t.Errorf("%s: %d shows the live move (%q) an hour early:\n%s", what, code, m, body)
			}
		}
		for _, path := range staffPaths {
			code, h, body := a.get(a.pub.URL, path, id)
			what := id.name + " GET " + path
			checkHeaders(t, what, h)
			if !id.staff {
				if code != http.StatusUnauthorized || !strings.HasPrefix(h.Get("WWW-Authenticate"), "Basic ") {
					t.Errorf("%s: %d (challenge %q), want 401 with a Basic challenge", what, code, h.Get("WWW-Authenticate"))
				}
				if m := live(body); m != "" || strings.Contains(body, "dgtbridge_") || strings.Contains(body, "goroutine") {
					t.Errorf("%s: refused, yet the body shows %q:\n%s", what, m, body)
				}
				continue
			}
			if code != http.StatusOK {
				t.Errorf("%s: %d, want 200", what, code)
			}
			if strings.HasPrefix(path, "/healthz") && live(body) == "" {
				t.Errorf("%s: the staff's detail lacks the live move:\n%s", what, body)
			}
		}
	}
	// The admin listener: the staff paths without credentials, nothing else.
	for _, path := range append(append([]string{"/healthz"}, staffPaths...), "/pgn/open2026/1.pgn", "/", "/api/public.json", "/arbiter") {
		code, h, body := a.get(a.admin.URL, path, httpIdentities[0])
		what := "admin listener GET " + path
		checkHeaders(t, what, h)
		switch {
		case path == "/healthz" || strings.HasPrefix(path, "/healthz?") || path == "/metrics" || strings.HasPrefix(path, "/debug/pprof/"):
			if code != http.StatusOK {
				t.Errorf("%s: %d, want 200", what, code)
			}
			if strings.HasPrefix(path, "/healthz?") && live(body) == "" {
				t.Errorf("%s: the detail lacks the live move:\n%s", what, body)
			}
		case code != http.StatusNotFound:
			t.Errorf("%s: %d, want 404 (the admin listener serves the staff paths only)", what, code)
		}
	}
}

// publishLiveMove publishes the test game's first move (state and event)
// as the hall does.
func publishLiveMove(t *testing.T, p *Publisher) {
	t.Helper()
	fen := "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1"
	clk := &game.ClockPair{WhiteMS: 5399123, BlackMS: 5400000}
	if err := p.PublishState(game.GameState{Game: testGame, Event: testGame.Event, Round: 1, Board: 1, White: "W", Black: "B", Variant: "chess",
		FEN: fen, Moves: []string{"g1f3"}, SAN: []string{"Nf3"}, Clock: clk, Result: "*", Revision: 1,
		PGN: "[Event \"open2026\"]\n[Round \"1.1\"]\n\n1. Nf3 {[%clk 1:29:59]} *\n"}); err != nil {
		t.Fatal(err)
	}
	ev := move(1, 1)
	ev.SAN, ev.UCI, ev.FEN, ev.Clock = "Nf3", "g1f3", fen, clk
	if err := p.PublishMove(ev); err != nil {
		t.Fatal(err)
	}
}

// TestHTTPNeverBeforeTheDelay: an anonymous client polling every public
// path sees the move only once its public copy is due, and then sees it
// (the PGN, the spectators' view and its event stream), every answer (the
// PGN with its game too) with the security headers.
func TestHTTPNeverBeforeTheDelay(t *testing.T) {
	const delay = 2 * time.Second
	a := newHTTPAttack(t, delay)
	due := time.Now().Add(delay)
	publishLiveMove(t, a.p)
	paths := append(append([]string{}, publicPaths...), "/api/public/events", "/healthz?detail", "/metrics")
	seen := map[string]bool{}
	mustSee := []string{"/pgn/open2026/1.pgn", "/pgn/open2026/1/1.pgn", "/api/public.json", "/api/public/game/open2026.1.1.json", "/api/public/events"}
	deadline := time.Now().Add(delay + 10*time.Second)
	for len(seen) < len(mustSee) && time.Now().Before(deadline) {
		for _, path := range paths {
			_, h, body := a.get(a.pub.URL, path, httpIdentities[0])
			checkHeaders(t, "GET "+path, h)
			m := live(body)
			if m == "" {
				continue
			}
			if time.Now().Before(due) {
				t.Fatalf("GET %s shows the live move (%q) %v before its public copy is due:\n%s", path, m, time.Until(due), body)
			}
			seen[path] = true
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, path := range mustSee {
		if !seen[path] {
			t.Errorf("GET %s never showed the public move", path)
		}
	}
	for _, path := range []string{"/healthz", "/healthz?detail", "/metrics", "/arbiter", "/api/config.json"} {
		if seen[path] {
			t.Errorf("GET %s showed the move to an anonymous client", path)
		}
	}
}
