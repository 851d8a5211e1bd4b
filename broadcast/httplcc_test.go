package broadcast

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// getJSON fetches url into v and returns the status and ETag.
func getJSON(t *testing.T, url string, v any) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == 200 {
		if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("%s: Content-Type %q", url, ct)
		}
		if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
			t.Fatalf("%s: %v", url, err)
		}
	}
	return resp.StatusCode, resp.Header.Get("ETag")
}

// lccState is a game of the round with a clock reading and the time used
// on every ply.
func lccState(board int, white, wfide string, sans []string) game.GameState {
	st := game.GameState{Game: game.ID{Event: "open2026", Round: 3, Board: board}, Event: "open2026", Round: 3, Board: board,
		White: white, Black: "Nakamura, Hikaru", WhiteFideID: wfide, BlackFideID: "2016192", BlackTitle: "GM", Variant: "chess",
		SAN: sans, Result: "*", Started: game.T(time.Date(2026, 3, 7, 14, 0, 0, 0, time.UTC)),
		Clock: &game.ClockPair{WhiteMS: 5_000_000, BlackMS: 4_990_000}, UpdatedAt: game.T(time.Now())}
	for i := range sans {
		st.Clocks = append(st.Clocks, 5_400_000-int64(i+1)*30_500)
		st.EMT = append(st.EMT, int64(i+1)*1_000+400)
	}
	return st
}

// TestLCCNeverServesUnpublished: a move still inside the public delay is
// in the live store but never in the Cloud JSON, until it falls due.
func TestLCCNeverServesUnpublished(t *testing.T) {
	srv := startServer(t, t.TempDir())
	defer srv.Shutdown()
	const delay = time.Second
	p := newPublisher(t, t.TempDir(), srv.Dialer(), delay)
	runPublisher(t, p)
	ts := httptest.NewServer(NewHTTPServer(HTTPOptions{Games: p.Public()}).handler())
	defer ts.Close()
	url := ts.URL + "/lcc/open2026/round-3/game-1.json"
	var g LCCGame
	if c, _ := getJSON(t, url, &g); c != 404 {
		t.Fatalf("a round with nothing public: %d, want 404", c)
	}
	p.PublishState(lccState(1, "Carlsen, Magnus", "1503014", []string{"e4", "c5"}))
	waitFor(t, "the first state public", 5*time.Second, func() bool {
		c, _ := getJSON(t, url, &g)
		return c == 200
	})
	start := time.Now()
	p.PublishState(lccState(1, "Carlsen, Magnus", "1503014", []string{"e4", "c5", "Nf3"}))
	if st, _ := p.live.Get(game.ID{Event: "open2026", Round: 3, Board: 1}); len(st.SAN) != 3 {
		t.Fatalf("the live store lacks the move: %v", st.SAN)
	}
	for time.Since(start) < delay*8/10 {
		var g LCCGame
		getJSON(t, url, &g)
		if len(g.Moves) != 2 {
			t.Fatalf("%v after the move, inside the public delay, game-1.json has %q", time.Since(start), g.Moves)
		}
		time.Sleep(50 * time.Millisecond)
	}
	waitFor(t, "Nf3 public", 5*time.Second, func() bool {
		var g LCCGame
		getJSON(t, url, &g)
		return len(g.Moves) == 3
	})
	if early := time.Until(start.Add(delay)); early > 0 {
		t.Errorf("Nf3 public %v early", early)
	}
}

// TestLCCLichessStylePull pulls a round as a Lichess broadcast does:
// index.json, then game-<k>.json for every pairing. Every game comes with
// its players, a clock and the time used on every move, and its Chess960
// number; a repeat with the ETag is 304; malformed paths are 404.
func TestLCCLichessStylePull(t *testing.T) {
	srv := startServer(t, t.TempDir())
	defer srv.Shutdown()
	p := newPublisher(t, t.TempDir(), srv.Dialer(), 0)
	runPublisher(t, p)
	ts := httptest.NewServer(NewHTTPServer(HTTPOptions{Games: p.Public()}).handler())
	defer ts.Close()

	p.PublishState(lccState(1, "Carlsen, Magnus", "1503014", []string{"e4", "c5", "Nf3", "d6"}))
	p.PublishState(lccState(2, "Ding Liren", "", []string{"d4", "Nf6"}))
	st3 := lccState(3, "Gukesh, D", "46616543", []string{"Nf3"})
	st3.Variant, st3.StartFEN, st3.Result = "chess960", chess.Chess960Start(100).FEN(), "1-0"
	p.PublishState(st3)
	xq := lccState(4, "Lai, Ly Huynh", "", nil)
	xq.Variant = "xiangqi"
	p.PublishState(xq)

	base := ts.URL + "/lcc/open2026/round-3/"
	var idx LCCIndex
	waitFor(t, "three public games", 5*time.Second, func() bool {
		idx = LCCIndex{}
		c, _ := getJSON(t, base+"index.json", &idx)
		return c == 200 && len(idx.Pairings) == 3 && idx.Pairings[2].White != nil
	})
	if idx.Date != "2026.03.07" {
		t.Errorf("date %q", idx.Date)
	}
	w := idx.Pairings[0].White
	if w.LName != "Carlsen" || w.FName != "Magnus" || w.FideID != 1503014 || w.Title != "" || idx.Pairings[0].Black.FideID != 2016192 ||
		idx.Pairings[0].Black.Title != "GM" {
		t.Errorf("board 1's players: %+v %+v", w, idx.Pairings[0].Black)
	}
	if idx.Pairings[1].White.LName != "Ding Liren" || idx.Pairings[1].White.FideID != 0 || idx.Pairings[2].Result != "1-0" {
		t.Errorf("boards 2 and 3: %+v", idx.Pairings[1:])
	}
	moveRE := regexp.MustCompile(`^\S+ \d+\+\d+$`)
	want960 := []int{518, 518, 100}
	for k := 1; k <= len(idx.Pairings); k++ {
		var g LCCGame
		c, etag := getJSON(t, fmt.Sprintf("%sgame-%d.json", base, k), &g)
		if c != 200 || len(g.Moves) == 0 {
			t.Fatalf("game-%d.json: %d %+v", k, c, g)
		}
		for i, m := range g.Moves {
			if !moveRE.MatchString(m) {
				t.Errorf("game %d move %d %q has no clock+emt", k, i+1, m)
			}
		}
		if g.Clock == nil || g.Clock.White != 5000 || g.Clock.Black != 4990 || g.Clock.Time == 0 {
			t.Errorf("game %d clock %+v", k, g.Clock)
		}
		if g.Chess960 != want960[k-1] {
			t.Errorf("game %d chess960 %d, want %d", k, g.Chess960, want960[k-1])
		}
		req, _ := http.NewRequest("GET", fmt.Sprintf("%sgame-%d.json", base, k), nil)
		req.Header.Set("If-None-Match", etag)
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != http.StatusNotModified {
			t.Errorf("game %d with its ETag: %v %v", k, resp.Status, err)
		}
		resp.Body.Close()
	}
	var g LCCGame
	getJSON(t, base+"game-1.json", &g)
	if g.Moves[0] != "e4 5369+1" || g.Moves[3] != "d6 5278+4" {
		t.Errorf("moves %q, want \"e4 5369+1\" … \"d6 5278+4\"", g.Moves)
	}
	for _, path := range []string{"/lcc/open2026/round-3/game-4.json", "/lcc/open2026/round-3/game-0.json",
		"/lcc/open2026/round-0/index.json", "/lcc/open2026/3/index.json", "/lcc/Open2026/round-3/index.json",
		"/lcc/open2026/round-4/index.json", "/lcc/open2026/round-3/game-1.pgn", "/lcc/open2026/round-3/../index.json"} {
		var v any
		if c, _ := getJSON(t, ts.URL+path, &v); c != 404 {
			t.Errorf("%s: %d, want 404", path, c)
		}
	}
	if strings.Contains(fmt.Sprint(idx), "Lai") {
		t.Errorf("the xiangqi game is in the index: %+v", idx)
	}
}
