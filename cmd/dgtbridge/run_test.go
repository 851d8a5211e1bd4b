package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
)

// syncBuffer is a bytes.Buffer safe for the daemon's logger and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// TestRunEmbedded runs "dgtbridge run" in-process with the embedded NATS
// server, HTTP and a board on a pseudo-terminal (through go.bug.st/serial):
// systemd hears READY=1 and watchdog pings, /healthz says 200 once the board
// is up, the round's public PGN carries the game's moves, and cancelling
// (SIGTERM) drains with STOPPING=1 and a nil error.
func TestRunEmbedded(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: the daemon with a pty board in real time")
	}
	dir := t.TempDir()
	sock := filepath.Join(dir, "notify")
	l, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	t.Setenv("NOTIFY_SOCKET", sock)
	t.Setenv("WATCHDOG_USEC", "400000") // pings every 200 ms
	t.Setenv("WATCHDOG_PID", "")
	notes := make(chan string, 64)
	go func() {
		buf := make([]byte, 4096)
		for {
			n, _, err := l.ReadFromUnix(buf)
			if err != nil {
				return
			}
			notes <- string(buf[:n])
		}
	}()

	e := emu.New(emu.Setup{Serial: "00042"}, time.Now())
	path, stop := servedPTY(t, e)
	defer stop()
	natsAddr, httpAddr := freePort(t), freePort(t)
	cfg := filepath.Join(dir, "dgtbridge.yaml")
	os.WriteFile(cfg, []byte(fmt.Sprintf(`data_dir: %s
record: false
nats: {prefix: dgt, embedded: {listen: %q}}
http: {listen: %q}
event: {id: cup, ruleset: fide2018-rapid, time_control: "900+10", public_delay: 0s}
boards:
  - {port: %s, round: 3, board: 7, white: "W", black: "B"}
`, filepath.Join(dir, "data"), natsAddr, httpAddr, path)), 0o644)

	ctx, cancel := context.WithCancel(context.Background())
	var logs syncBuffer
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"run", "--config", cfg}, io.Discard, &logs) }()
	defer func() {
		cancel()
		<-done
		if t.Failed() {
			t.Logf("log:\n%s", logs.String())
		}
	}()

	waitNote(t, notes, "READY=1")
	waitNote(t, notes, "WATCHDOG=1")
	get := func(p string) (int, string) {
		resp, err := http.Get("http://" + httpAddr + p)
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get("/healthz"); code != http.StatusOK {
		t.Errorf("/healthz %d %q after READY", code, body)
	}

	line := []string{"e2e4", "e7e5", "g1f3"}
	pos := rules.Position(chess.StartPosition(chess.Standard))
	var moves []rules.Move
	for _, u := range line {
		m, _ := pos.ParseMove(u)
		moves = append(moves, m)
		pos, _ = pos.Play(m)
	}
	s, err := emu.GameScript(chess.StartPosition(chess.Standard), moves, emu.GameOptions{Think: func(int) time.Duration { return 300 * time.Millisecond }})
	if err != nil {
		t.Fatal(err)
	}
	e.Schedule(time.Now(), s)
	deadline := time.Now().Add(30 * time.Second)
	var body string
	for time.Now().Before(deadline) {
		var code int
		code, body = get("/pgn/cup/3/7.pgn")
		if code == http.StatusOK && strings.Contains(body, "2. Nf3") {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if !strings.Contains(body, "1. e4 ") || !strings.Contains(body, "2. Nf3") || !strings.Contains(body, `[Round "3.7"]`) {
		t.Fatalf("game PGN:\n%s", body)
	}
	if code, round := get("/pgn/cup/3.pgn"); code != http.StatusOK || !strings.Contains(round, "2. Nf3") {
		t.Errorf("round PGN %d:\n%s", code, round)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run returned %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("run did not drain")
	}
	done <- nil
	waitNote(t, notes, "STOPPING=1")
}

func waitNote(t *testing.T, notes chan string, want string) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case n := <-notes:
			if strings.Contains(n, want) {
				return
			}
		case <-deadline:
			t.Fatalf("systemd never heard %s", want)
		}
	}
}
