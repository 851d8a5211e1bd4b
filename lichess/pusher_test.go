package lichess

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/pgn"
)

// fakeLichess imitates Lichess's push endpoint: it checks the method, the
// path, the bearer token and that the body is PGN, answers as Lichess does
// ({"games":[{"tags":…,"moves":N}…]}), and can be told to answer 429, 500
// or nothing at all.
type fakeLichess struct {
	t     *testing.T
	token string
	ids   map[string]bool

	mu     sync.Mutex
	mode   string            // "", "429", "500", "hang"
	refuse map[string]string // Round tag → a per-game error to answer
	pushes []push
	mux    *http.ServeMux
	srv    *httptest.Server
}

type push struct {
	at    time.Time
	id    string
	body  string
	games int
}

func newFakeLichess(t *testing.T, token string, ids ...string) *fakeLichess {
	f := newFakeHandler(t, token, ids...)
	f.srv = httptest.NewServer(f.mux)
	t.Cleanup(f.srv.Close)
	return f
}

// newFakeHandler is the imitation without a server: its client (Client)
// hands each request to the handler in memory, so that a test can run in
// a synctest bubble, where the push times are the bubble's exact ones.
func newFakeHandler(t *testing.T, token string, ids ...string) *fakeLichess {
	f := &fakeLichess{t: t, token: token, ids: map[string]bool{}}
	for _, id := range ids {
		f.ids[id] = true
	}
	f.mux = http.NewServeMux()
	f.mux.HandleFunc("/api/broadcast/round/{id}/push", f.handle)
	return f
}

// Client returns an HTTP client that serves every request with the
// imitation's handler, in memory (no connection). As a real transport,
// it answers a request whose context ended (a push abandoned after its
// Timeout) with the context's error, not with what the handler wrote.
func (f *fakeLichess) Client() *http.Client {
	return &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		rec := httptest.NewRecorder()
		f.mux.ServeHTTP(rec, r)
		if err := r.Context().Err(); err != nil {
			return nil, err
		}
		return rec.Result(), nil
	})}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (rt roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return rt(r) }

func (f *fakeLichess) setMode(m string) {
	f.mu.Lock()
	f.mode = m
	f.mu.Unlock()
}

func (f *fakeLichess) handle(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if r.Method != http.MethodPost {
		f.t.Errorf("method %s, want POST", r.Method)
		http.Error(w, "method", http.StatusMethodNotAllowed)
		return
	}
	if got := r.Header.Get("Authorization"); got != "Bearer "+f.token {
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, `{"error":"No such token"}`)
		return
	}
	id := r.PathValue("id")
	if !f.ids[id] {
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"error":"Not found"}`)
		return
	}
	f.mu.Lock()
	mode := f.mode
	f.mu.Unlock()
	switch mode {
	case "429":
		f.record(id, string(body), 0)
		w.WriteHeader(http.StatusTooManyRequests)
		return
	case "500":
		f.record(id, string(body), 0)
		http.Error(w, "oops", http.StatusInternalServerError)
		return
	case "hang":
		f.record(id, string(body), 0)
		<-r.Context().Done()
		return
	}
	games, errs := pgn.ReadAll(strings.NewReader(string(body)), pgn.ReaderOptions{})
	if len(errs) > 0 || len(games) == 0 {
		f.t.Errorf("push body is not PGN (%v):\n%s", errs, body)
		http.Error(w, `{"error":"bad PGN"}`, http.StatusBadRequest)
		return
	}
	// Lichess's limits: at most 100 games a push (else 400), and a game
	// whose player has neither a name nor a FIDE id is refused.
	if len(games) > MaxGames {
		f.record(id, string(body), 0)
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"error":"Too many games: %d > 100"}`, len(games))
		return
	}
	f.record(id, string(body), len(games))
	var reply struct {
		Games []map[string]any `json:"games"`
	}
	for _, g := range games {
		tags := map[string]string{"White": g.Tag("White"), "Black": g.Tag("Black"), "Round": g.Tag("Round")}
		entry := map[string]any{"tags": tags, "moves": len(g.Moves)}
		for _, side := range []string{"White", "Black"} {
			if !usableName(g.Tag(side)) && g.Tag(side+"FideId") == "" {
				entry = map[string]any{"tags": tags, "error": "Missing " + strings.ToLower(side) + " player name or FIDE ID"}
			}
		}
		f.mu.Lock()
		if msg, ok := f.refuse[g.Tag("Round")]; ok {
			entry = map[string]any{"tags": tags, "error": msg}
		}
		f.mu.Unlock()
		reply.Games = append(reply.Games, entry)
	}
	json.NewEncoder(w).Encode(reply)
}

func (f *fakeLichess) record(id, body string, games int) {
	f.mu.Lock()
	f.pushes = append(f.pushes, push{at: time.Now(), id: id, body: body, games: games})
	f.mu.Unlock()
}

func (f *fakeLichess) got() []push {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]push(nil), f.pushes...)
}

// waitFor waits (generously) until cond holds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// source is a changing public copy: round → PGN.
type source struct {
	mu     sync.Mutex
	rounds map[int]string
	calls  int
}

func (s *source) set(round int, pgn string) {
	s.mu.Lock()
	s.rounds[round] = pgn
	s.mu.Unlock()
}

func (s *source) get(round int) (string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	p := s.rounds[round]
	return p, strings.Count(p, "[Event ")
}

func (s *source) callCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls
}

// game is a PGN game of round r, board b, with moves.
func game(r, b int, moves string) string {
	return fmt.Sprintf("[Event \"Open\"]\n[Site \"Hanoi\"]\n[Date \"2026.03.07\"]\n[Round \"%d.%d\"]\n[White \"W%d\"]\n[Black \"B%d\"]\n[Result \"*\"]\n[GameId \"open.%d.%d\"]\n\n%s *\n", r, b, b, b, r, b, moves)
}

// fast are shrunk timings for the runner tests (the schedule tests check
// the contract's own values with fake time).
func fast(o Options) Options {
	o.Poll, o.MinInterval, o.Timeout = 10*time.Millisecond, 150*time.Millisecond, 200*time.Millisecond
	o.FirstBackoff, o.MaxBackoff, o.Pause = 100*time.Millisecond, 400*time.Millisecond, 600*time.Millisecond
	return o
}

func start(t *testing.T, o Options) *Pusher {
	t.Helper()
	p, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { p.Run(ctx); close(done) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("Run did not return")
		}
	})
	return p
}

// TestPushOnChange: the round's public PGN is pushed when it changes, as a
// POST with the bearer token and the PGN as body; a burst of changes gives
// at most one push per MinInterval, and the last change arrives. In a
// synctest bubble with the imitation served in memory: the push times are
// exact (measured at a real server's end, a first request delayed by a
// loaded machine arrived 135 ms before the next one, and the test failed).
func TestPushOnChange(t *testing.T) {
	synctest.Test(t, testPushOnChange)
}

func testPushOnChange(t *testing.T) {
	f := newFakeHandler(t, "lip_secret", "AbCd1234")
	src := &source{rounds: map[int]string{}}
	start(t, fast(Options{URL: "http://lichess.test/", Token: "lip_secret", Rounds: map[int]string{3: "AbCd1234"}, Source: src.get, Client: f.Client()}))
	src.set(3, game(3, 1, "1. e4")+"\n"+game(3, 2, "1. d4"))
	waitFor(t, "the first push", func() bool { return len(f.got()) == 1 })
	moves := []string{"1. e4 e5", "1. e4 e5 2. Nf3", "1. e4 e5 2. Nf3 Nc6", "1. e4 e5 2. Nf3 Nc6 3. Bb5", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6"}
	for _, m := range moves {
		src.set(3, game(3, 1, m)+"\n"+game(3, 2, "1. d4"))
		time.Sleep(40 * time.Millisecond)
	}
	final := game(3, 1, moves[len(moves)-1]) + "\n" + game(3, 2, "1. d4")
	waitFor(t, "the last change", func() bool {
		p := f.got()
		return p[len(p)-1].body == final
	})
	time.Sleep(300 * time.Millisecond) // nothing more comes for an unchanged round
	pushes := f.got()
	for i, p := range pushes {
		if p.id != "AbCd1234" || p.games != 2 {
			t.Errorf("push %d: round %s, %d games", i, p.id, p.games)
		}
		if i > 0 && p.at.Sub(pushes[i-1].at) < 140*time.Millisecond {
			t.Errorf("pushes %d and %d %v apart, want at least MinInterval", i-1, i, p.at.Sub(pushes[i-1].at))
		}
	}
	if len(pushes) > 4 || pushes[len(pushes)-1].body != final {
		t.Errorf("%d pushes for 6 changes within 200 ms (want at most 4), last %q", len(pushes), pushes[len(pushes)-1].body)
	}
}

// TestPushHangAndErrors: a push that gets no answer is abandoned after
// Timeout and tried again; a 500 backs off; while pushes hang the source
// is still read (the pusher never waits on the boards' side); Stats says
// what failed, and clears once a push goes through.
func TestPushHangAndErrors(t *testing.T) {
	synctest.Test(t, testPushHangAndErrors)
}

func testPushHangAndErrors(t *testing.T) {
	f := newFakeHandler(t, "tok", "AbCd1234")
	f.setMode("hang")
	src := &source{rounds: map[int]string{1: game(1, 1, "1. e4")}}
	p := start(t, fast(Options{URL: "http://lichess.test", Token: "tok", Rounds: map[int]string{1: "AbCd1234"}, Source: src.get, Client: f.Client()}))
	waitFor(t, "a retry after the hang", func() bool { return len(f.got()) >= 2 })
	pushes := f.got()
	if gap := pushes[1].at.Sub(pushes[0].at); gap != 300*time.Millisecond {
		t.Errorf("retry %v after the first push; want Timeout (200 ms) + back-off (100 ms)", gap)
	}
	calls := src.callCount()
	time.Sleep(100 * time.Millisecond) // ten polls (Poll 10 ms) while the retry hangs
	if src.callCount() <= calls {
		t.Error("the source was not read while a push hung")
	}
	if st := p.Stats(); len(st) != 1 || !strings.Contains(st[0].Error, "no answer within 200ms") {
		t.Errorf("stats %+v", st)
	}
	f.setMode("500")
	waitFor(t, "a 500", func() bool { return strings.Contains(p.Stats()[0].Error, "500") })
	f.setMode("")
	waitFor(t, "a push that goes through", func() bool { st := p.Stats()[0]; return st.Pushes == 1 && st.Error == "" })
}

// TestPush429PausesEveryRound: after a 429 on one round, no round is
// pushed for Pause.
func TestPush429PausesEveryRound(t *testing.T) {
	synctest.Test(t, testPush429PausesEveryRound)
}

func testPush429PausesEveryRound(t *testing.T) {
	f := newFakeHandler(t, "tok", "AbCd1234", "EfGh5678")
	f.setMode("429")
	src := &source{rounds: map[int]string{}}
	p := start(t, fast(Options{URL: "http://lichess.test", Token: "tok", Rounds: map[int]string{1: "AbCd1234", 2: "EfGh5678"}, Source: src.get, Client: f.Client()}))
	src.set(1, game(1, 1, "1. e4"))
	waitFor(t, "the 429", func() bool { return len(f.got()) == 1 })
	f.setMode("")
	src.set(2, game(2, 1, "1. d4"))
	time.Sleep(590 * time.Millisecond) // all but the last 10 ms of the Pause
	if n := len(f.got()); n != 1 {
		t.Errorf("%d pushes during the pause, want none after the 429", n-1)
	}
	waitFor(t, "both rounds after the pause", func() bool {
		st := p.Stats()
		return st[0].Pushes == 1 && st[1].Pushes == 1
	})
	if gap := f.got()[1].at.Sub(f.got()[0].at); gap < 600*time.Millisecond || gap > 610*time.Millisecond {
		t.Errorf("first push after the 429 came %v later, want Pause (600 ms, one 10-ms poll late at most)", gap)
	}
}

// TestPushBadTokenAndReload: a refused token is reported with Lichess's
// reason; SetRounds with the right token (a reload) makes the push go
// through, and a new round mapping is pushed.
func TestPushBadTokenAndReload(t *testing.T) {
	f := newFakeLichess(t, "good", "AbCd1234", "EfGh5678")
	src := &source{rounds: map[int]string{1: game(1, 1, "1. e4"), 2: game(2, 1, "1. c4")}}
	p := start(t, fast(Options{URL: f.srv.URL, Token: "bad", Rounds: map[int]string{1: "AbCd1234"}, Source: src.get}))
	waitFor(t, "the refusal", func() bool { return strings.Contains(p.Stats()[0].Error, "401 Unauthorized: No such token") })
	p.SetRounds(map[int]string{1: "AbCd1234", 2: "EfGh5678"}, "good")
	waitFor(t, "both rounds", func() bool { st := p.Stats(); return len(st) == 2 && st[0].Pushes == 1 && st[1].Pushes == 1 })
}
