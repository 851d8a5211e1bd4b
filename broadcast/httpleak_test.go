package broadcast

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/internal/metrics"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestHTTPLeaksClosed: on the public listener, without credentials,
// /healthz?detail shows no board's game (before: the ply, last move,
// clocks and open alerts of every board, to anyone) and /metrics is
// refused (before: public); /healthz still answers, with no device path
// or error text.
func TestHTTPLeaksClosed(t *testing.T) {
	rep := StatusReport{Boards: []BoardReport{{BoardID: "r1-b1", Connected: true, Game: game.ID{Event: "open", Round: 1, Board: 1}, Ply: 41,
		LastMove: &ReportMove{SAN: "Qxh7+", UCI: "d3h7"}, Clock: &ReportClock{WhiteMS: 1234567, BlackMS: 7654321},
		Alerts: []ReportAlert{{ID: "al-1", Kind: "touch_move"}}}}}
	h := NewHTTPServer(HTTPOptions{Games: NewStore(nil), Detail: func() StatusReport { return rep },
		Health:  []HealthSource{healthFunc(func() error { return errFake("board r1-b2 (/dev/ttyACM7): disconnected: EOF") })},
		Metrics: []metrics.Source{someMetrics{}}})
	ts := httptest.NewServer(h.handler())
	defer ts.Close()
	for _, path := range []string{"/healthz?detail", "/healthz?detail=1", "/metrics", "/healthz"} {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		body := string(b)
		for _, secret := range []string{"Qxh7", "d3h7", "1234567", "al-1", "touch_move", "x_total", "ttyACM7", "EOF", `"ply"`} {
			if strings.Contains(body, secret) {
				t.Errorf("%s without credentials shows %q: %d\n%s", path, secret, resp.StatusCode, body)
			}
		}
		if path != "/healthz" && resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s without credentials: %d, want 401", path, resp.StatusCode)
		}
	}
}

type errFake string

func (e errFake) Error() string { return string(e) }
