package demo

import (
	"net"
	"os"
	"path/filepath"
	"testing"
)

// TestNextRound: a kept data directory goes on after the highest demo
// round recorded there; other events' records do not count.
func TestNextRound(t *testing.T) {
	dir := t.TempDir()
	if got := NextRound(dir); got != 1 {
		t.Errorf("empty dir: round %d, want 1", got)
	}
	games := filepath.Join(dir, "games")
	if err := os.MkdirAll(games, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"demo.3.1.json", "demo.12.2.json", "open2026.40.1.json", "demo.x.1.json"} {
		if err := os.WriteFile(filepath.Join(games, f), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := NextRound(dir); got != 13 {
		t.Errorf("round %d, want 13", got)
	}
}

// TestFreeAddr: a free address is kept (port 0 made a real port); a taken
// one gives another free port on the same host.
func TestFreeAddr(t *testing.T) {
	got := FreeAddr("127.0.0.1:0")
	if _, port, err := net.SplitHostPort(got); err != nil || port == "0" {
		t.Fatalf("FreeAddr(127.0.0.1:0) = %q", got)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	taken := l.Addr().String()
	got = FreeAddr(taken)
	if host, _, err := net.SplitHostPort(got); err != nil || host != "127.0.0.1" || got == taken {
		t.Errorf("FreeAddr(%s, taken) = %q, want another port on 127.0.0.1", taken, got)
	}
}
