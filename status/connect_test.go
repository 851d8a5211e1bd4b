package status

import (
	"strings"
	"testing"
	"time"
)

func TestDialable(t *testing.T) {
	for in, want := range map[string]string{
		"0.0.0.0:4222":   "127.0.0.1:4222",
		"[::]:4222":      "127.0.0.1:4222",
		":4222":          "127.0.0.1:4222",
		"10.0.0.5:4222":  "10.0.0.5:4222",
		"hall.lan:4222":  "hall.lan:4222",
		"no port at all": "no port at all",
	} {
		if got := dialable(in); got != want {
			t.Errorf("dialable(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestConnectNamesTheURL: a server that is not there is an error naming
// the address dialled.
func TestConnectNamesTheURL(t *testing.T) {
	_, _, err := Connect(Dial{Listen: "0.0.0.0:1", Timeout: 200 * time.Millisecond})
	if err == nil {
		t.Fatal("connected to port 1")
	}
	if want := "nats://127.0.0.1:1"; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not name %s", err, want)
	}
}
