package broadcast

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestHTTPBPGN: /bpgn/<event>/<round>/<board>.bpgn serves the match from
// the newer of the two partner boards' public states, for either board;
// a board without a match, an unknown board and bad paths are 404.
func TestHTTPBPGN(t *testing.T) {
	games := NewStore(nil)
	t0 := time.Date(2026, 2, 8, 8, 0, 0, 0, time.UTC)
	a, b := game.ID{Event: "open2026", Round: 1, Board: 1}, game.ID{Event: "open2026", Round: 1, Board: 2}
	games.Put(game.GameState{Game: a, Partner: b.String(), BPGN: "old\n", UpdatedAt: game.T(t0)})
	games.Put(game.GameState{Game: b, Partner: a.String(), BPGN: "new\n", UpdatedAt: game.T(t0.Add(time.Second))})
	games.Put(game.GameState{Game: game.ID{Event: "open2026", Round: 1, Board: 3}, PGN: "x"})
	ts := httptest.NewServer(NewHTTPServer(HTTPOptions{Games: games}).handler())
	defer ts.Close()
	get := func(path string) (int, string) {
		t.Helper()
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	for _, p := range []string{"/bpgn/open2026/1/1.bpgn", "/bpgn/open2026/1/2.bpgn"} {
		if code, body := get(p); code != 200 || body != "new\n" {
			t.Errorf("%s: %d %q", p, code, body)
		}
	}
	for _, p := range []string{"/bpgn/open2026/1/3.bpgn", "/bpgn/open2026/1/9.bpgn", "/bpgn/open2026/1/1.pgn", "/bpgn/Open/1/1.bpgn", "/bpgn/open2026/0/1.bpgn"} {
		if code, _ := get(p); code != 404 {
			t.Errorf("%s: %d, want 404", p, code)
		}
	}
}
