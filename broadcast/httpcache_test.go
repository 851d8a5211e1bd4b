package broadcast

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestPGNCaching: the public PGN (round and game) carries an ETag and a
// Cache-Control max-age of a few seconds, so that a CDN in front of the
// hall or a Lichess poller can cache it; If-None-Match with the current
// ETag gets a 304 without a body; a change gives a new ETag.
func TestPGNCaching(t *testing.T) {
	games := NewStore(nil)
	st := game.GameState{Game: game.ID{Event: "open", Round: 1, Board: 1}, Event: "open", Round: 1, Board: 1, White: "W", Black: "B", SAN: []string{"e4"}, Result: "*"}
	games.Put(st)
	ts := httptest.NewServer(NewHTTPServer(HTTPOptions{Games: games}).handler())
	defer ts.Close()
	get := func(path, inm string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, ts.URL+path, nil)
		if inm != "" {
			req.Header.Set("If-None-Match", inm)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	for _, path := range []string{"/pgn/open/1.pgn", "/pgn/open/1/1.pgn"} {
		resp, _ := get(path, "")
		etag, cc := resp.Header.Get("ETag"), resp.Header.Get("Cache-Control")
		if resp.StatusCode != 200 || etag == "" {
			t.Fatalf("%s: %d, ETag %q", path, resp.StatusCode, etag)
		}
		age := -1
		for _, d := range strings.Split(cc, ",") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(d), "max-age="); ok {
				age, _ = strconv.Atoi(v)
			}
		}
		if age < 1 || age > 10 || strings.Contains(cc, "no-cache") || strings.Contains(cc, "no-store") || strings.Contains(cc, "private") {
			t.Errorf("%s: Cache-Control %q, want a max-age of a few seconds a shared cache may use", path, cc)
		}
		resp, body := get(path, etag)
		if resp.StatusCode != http.StatusNotModified || body != "" || resp.Header.Get("ETag") != etag || resp.Header.Get("Cache-Control") != cc {
			t.Errorf("%s with If-None-Match: %d, body %q, headers %v", path, resp.StatusCode, body, resp.Header)
		}
		if resp, _ := get(path, `"other", `+etag); resp.StatusCode != http.StatusNotModified {
			t.Errorf("%s: a list of ETags holding the current one: %d", path, resp.StatusCode)
		}
	}
	old, _ := get("/pgn/open/1.pgn", "")
	st.SAN = append(st.SAN, "e5")
	games.Put(st)
	resp, body := get("/pgn/open/1.pgn", old.Header.Get("ETag"))
	if resp.StatusCode != 200 || !strings.Contains(body, "1. e4 e5") || resp.Header.Get("ETag") == old.Header.Get("ETag") {
		t.Errorf("after a change: %d, ETag %q (was %q)\n%s", resp.StatusCode, resp.Header.Get("ETag"), old.Header.Get("ETag"), body)
	}
}
