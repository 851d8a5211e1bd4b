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

// TestHTTPRunBothListeners: Run opens both listeners (a free port each),
// says where, serves the public paths on one and the staff paths on the
// other, and stops both when its context ends.
func TestHTTPRunBothListeners(t *testing.T) {
	addrs := make(chan [2]string, 2)
	h := NewHTTPServer(HTTPOptions{Listen: "127.0.0.1:0", AdminListen: "127.0.0.1:0", Games: NewStore(nil),
		Detail:    func() StatusReport { return StatusReport{Boards: []BoardReport{{BoardID: "r1-b1", Ply: 41}}} },
		Listening: func(key, addr string) { addrs <- [2]string{key, addr} }})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Run(ctx) }()
	at := map[string]string{}
	for range 2 {
		select {
		case a := <-addrs:
			at[a[0]] = "http://" + a[1]
		case err := <-done:
			t.Fatalf("Run: %v", err)
		}
	}
	get := func(url string) (int, string) {
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get(at["http.listen"] + "/healthz"); code != 200 || body != "ok\n" {
		t.Errorf("public /healthz: %d %q", code, body)
	}
	if code, _ := get(at["http.listen"] + "/healthz?detail"); code != 401 {
		t.Errorf("public /healthz?detail: %d, want 401", code)
	}
	if code, body := get(at["http.admin_listen"] + "/healthz?detail"); code != 200 || !strings.Contains(body, `"ply": 41`) {
		t.Errorf("admin /healthz?detail: %d %s", code, body)
	}
	if code, _ := get(at["http.admin_listen"] + "/metrics"); code != 200 {
		t.Errorf("admin /metrics: %d", code)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run after cancel: %v", err)
	}
	for key, url := range at {
		if _, err := http.Get(url + "/healthz"); err == nil {
			t.Errorf("%s still serving after Run returned", key)
		}
	}
}
