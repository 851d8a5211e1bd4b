package broadcast

import (
	"encoding/json"
	"errors"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestHealthDetail: /healthz?detail on the admin listener gives the same
// verdict as /healthz, its problems one per line, and every board's
// report; /healthz stays plain text.
func TestHealthDetail(t *testing.T) {
	var boardErr error = errors.New("board r1-b2 (/dev/b): disconnected: EOF\nboard r1-b3 (/dev/c): not connected yet")
	rep := StatusReport{Boards: []BoardReport{{BoardID: "r1-b1", Connected: true, Game: game.ID{Event: "open", Round: 1, Board: 1}, Ply: 4, LastMove: &ReportMove{SAN: "Nf3", UCI: "g1f3"}},
		{BoardID: "r1-b2", Game: game.ID{Event: "open", Round: 1, Board: 2}, Error: "EOF"}}, Lichess: []PushReport{{Round: 1, ID: "AbCd1234", Pushes: 3}}}
	h := NewHTTPServer(HTTPOptions{Games: NewStore(nil), Health: []HealthSource{healthFunc(func() error { return boardErr })}, Detail: func() StatusReport { return rep }})
	ts := httptest.NewServer(h.adminHandler())
	defer ts.Close()
	get := func(path string) (int, string, string) {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
	}
	code, ct, body := get("/healthz?detail")
	var d HealthDetail
	if err := json.Unmarshal([]byte(body), &d); err != nil || code != 503 || ct != "application/json; charset=utf-8" {
		t.Fatalf("%d %s %v\n%s", code, ct, err, body)
	}
	if d.Healthy || len(d.Problems) != 2 || len(d.Boards) != 2 || d.Boards[0].LastMove.SAN != "Nf3" || d.Lichess[0].Pushes != 3 {
		t.Errorf("detail %+v", d)
	}
	if code, ct, body := get("/healthz"); code != 503 || ct != "text/plain; charset=utf-8" || body != boardErr.Error()+"\n" {
		t.Errorf("plain: %d %s %q", code, ct, body)
	}
	boardErr = nil
	code, _, body = get("/healthz?detail")
	if err := json.Unmarshal([]byte(body), &d); err != nil || code != 200 || !d.Healthy || len(d.Problems) != 0 {
		t.Errorf("healthy: %d %+v", code, d)
	}
}
