package broadcast

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestRefusedSignInLogThrottled: one line per refusedLogEvery, the next
// one counting those left out, so a client trying passwords cannot fill
// the log.
func TestRefusedSignInLogThrottled(t *testing.T) {
	var l logThrottle
	t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	if ok, n := l.allow(t0); !ok || n != 0 {
		t.Fatalf("first: %v %d", ok, n)
	}
	for i := 1; i <= 500; i++ {
		if ok, _ := l.allow(t0.Add(time.Duration(i) * 10 * time.Millisecond)); ok {
			t.Fatalf("attempt %d within %v logged", i, refusedLogEvery)
		}
	}
	if ok, n := l.allow(t0.Add(refusedLogEvery)); !ok || n != 500 {
		t.Errorf("after %v: %v, %d left out, want true, 500", refusedLogEvery, ok, n)
	}
}

// TestHTTPRunRefusesOpenAdmin: Run refuses an admin listener that is not
// on loopback (it has no sign-in), and a listener that cannot be opened is
// named by its key.
func TestHTTPRunRefusesOpenAdmin(t *testing.T) {
	for _, tc := range []struct {
		o    HTTPOptions
		want string
	}{
		{HTTPOptions{Listen: "127.0.0.1:0", AdminListen: "0.0.0.0:0"}, "http.admin_listen 0.0.0.0:0"},
		{HTTPOptions{AdminListen: "[::]:0"}, "http.admin_listen [::]:0"},
		{HTTPOptions{Listen: "127.0.0.1:x"}, "http.listen 127.0.0.1:x"},
		{HTTPOptions{AdminListen: "127.0.0.1:x"}, "http.admin_listen 127.0.0.1:x"},
	} {
		tc.o.Games = NewStore(nil)
		err := NewHTTPServer(tc.o).Run(context.Background())
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want an error naming %q", tc.o, err, tc.want)
		}
		if strings.Contains(tc.want, "0.0.0.0") || strings.Contains(tc.want, "[::]") {
			if !errors.Is(err, ErrAdminNotLoopback) {
				t.Errorf("%v is not ErrAdminNotLoopback", err)
			}
		}
	}
}

// TestAdminListenerLoopbackHostOnly: the admin listener answers requests
// naming localhost or a loopback address, and refuses (403) one naming
// another host: a page elsewhere that points its own name at 127.0.0.1
// (DNS rebinding) cannot read the live hall through a browser on the
// machine.
func TestAdminListenerLoopbackHostOnly(t *testing.T) {
	h := NewHTTPServer(HTTPOptions{Games: NewStore(nil), Detail: func() StatusReport {
		return StatusReport{Boards: []BoardReport{{BoardID: "r1-b1", LastMove: &ReportMove{SAN: "Qxh7+", UCI: "d3h7"}}}}
	}})
	ts := httptest.NewServer(h.adminHandler())
	defer ts.Close()
	for host, want := range map[string]int{"127.0.0.1:8081": 200, "localhost:8081": 200, "[::1]:8081": 200, "localhost": 200, "127.0.0.2": 200,
		"evil.example:8081": 403, "evil.example": 403, "192.168.1.5:8081": 403} {
		req, _ := http.NewRequest("GET", ts.URL+"/healthz?detail", nil)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want || (want == 403 && strings.Contains(string(b), "d3h7")) {
			t.Errorf("Host %q: %d, want %d\n%s", host, resp.StatusCode, want, b)
		}
		checkHeaders(t, "Host "+host, resp.Header)
	}
}
