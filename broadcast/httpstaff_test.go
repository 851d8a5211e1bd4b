package broadcast

import (
	"context"
	"errors"
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
