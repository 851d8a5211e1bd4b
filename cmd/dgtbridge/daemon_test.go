package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// A game long enough to kill things in the middle of it.
var killGame = []string{"e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "a7a6", "c1e3", "e7e5"}

// buildBinary builds dgtbridge into dir.
func buildBinary(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "dgtbridge")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// freePort returns a loopback address nobody listens on now.
func freePort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func startNATS(t *testing.T, store, listen string) *broadcast.Server {
	t.Helper()
	srv, err := broadcast.StartServer(broadcast.ServerOptions{Prefix: "dgt", StoreDir: store, Listen: listen})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// daemonProc is the binary running "run --config".
type daemonProc struct {
	cmd *exec.Cmd
	log *os.File
}

func startProc(t *testing.T, bin, cfg, logPath string) *daemonProc {
	t.Helper()
	lf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "run", "--config", cfg, "--log-level", "debug")
	cmd.Stdout, cmd.Stderr = lf, lf
	dieWithTest(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &daemonProc{cmd: cmd, log: lf}
	t.Cleanup(func() { p.kill(syscall.SIGKILL) })
	return p
}

func (p *daemonProc) kill(sig syscall.Signal) {
	if p.cmd.ProcessState != nil {
		return
	}
	p.cmd.Process.Signal(sig)
	p.cmd.Wait()
	p.log.Close()
}

// movesOnStream returns the MoveEvents of the GAMES stream for game 1.1,
// once at least want have arrived (or the timeout passed).
func movesOnStream(t *testing.T, url string, want int, timeout time.Duration) []game.MoveEvent {
	t.Helper()
	deadline := time.Now().Add(timeout)
	var got []game.MoveEvent
	for time.Now().Before(deadline) {
		got = got[:0]
		func() {
			nc, err := nats.Connect(url)
			if err != nil {
				return
			}
			defer nc.Close()
			js, _ := jetstream.New(nc)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			cons, err := js.OrderedConsumer(ctx, "DGT_GAMES", jetstream.OrderedConsumerConfig{FilterSubjects: []string{"dgt.game.open2026.1.1.move"}})
			if err != nil {
				return
			}
			for {
				m, err := cons.Next(jetstream.FetchMaxWait(300 * time.Millisecond))
				if err != nil {
					return
				}
				var ev game.MoveEvent
				if err := json.Unmarshal(m.Data(), &ev); err != nil {
					t.Errorf("payload %s: %v", m.Data(), err)
				}
				got = append(got, ev)
			}
		}()
		if len(got) >= want {
			return got
		}
		time.Sleep(250 * time.Millisecond)
	}
	return got
}

// TestDaemonKillAndNATSRestart runs the real binary against an emulated
// board on a pseudo-terminal (opened through go.bug.st/serial) and an
// external NATS server: the daemon is killed with SIGKILL mid-game and
// restarted after two plies were made without it, then the NATS server is
// restarted after two more were made while it was down. Every move of the
// game reaches the GAMES stream exactly once, in order, at revision 0.
func TestDaemonKillAndNATSRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: builds the binary, kills it and restarts NATS in real time")
	}
	dir := t.TempDir()
	bin := buildBinary(t, dir)
	addr := freePort(t)
	store := filepath.Join(dir, "nats")
	srv := startNATS(t, store, addr)
	defer func() { srv.Shutdown() }()
	url := srv.ClientURL()

	e := emu.New(emu.Setup{Serial: "04711"}, time.Now())
	path, stop := servedPTY(t, e)
	defer stop()

	data := filepath.Join(dir, "data")
	cfg := filepath.Join(dir, "dgtbridge.yaml")
	os.WriteFile(cfg, []byte(fmt.Sprintf(`data_dir: %s
record: true
nats: {url: %q, prefix: dgt}
http: {listen: ""}
event: {id: open2026, name: Test Open, ruleset: fide2018-standard, time_control: "5400+30", public_delay: 0s}
boards:
  - {port: %s, round: 1, board: 1, white: "A, Anna", black: "B, Bella"}
`, data, url, path)), 0o644)
	logPath := filepath.Join(dir, "daemon.log")
	defer func() {
		if t.Failed() {
			b, _ := os.ReadFile(logPath)
			t.Logf("daemon log:\n%s", b)
			b, _ = os.ReadFile(filepath.Join(data, "games", "open2026.1.1.json"))
			t.Logf("game record:\n%s", b)
		}
	}()
	p := startProc(t, bin, cfg, logPath)

	// Wait for the board to be up (its status on NATS), then play.
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	status := make(chan *nats.Msg, 16)
	nc.ChanSubscribe("dgt.board.r1-b1.status", status)
	waitStatus(t, status, true)
	nc.Close()

	// The game is played in parts, each scheduled once the test has seen
	// what the part before must cause, so that exactly two plies are
	// made while the daemon is down and two while NATS is, however slowly
	// a loaded machine starts the binary or the server.
	played := 0
	play := func(n int) {
		t.Helper()
		e.Schedule(time.Now(), gameScript(t, killGame[:played], killGame[played:played+n]))
		played += n
	}
	handsDone := func() {
		t.Helper()
		for deadline := time.Now().Add(time.Minute); e.Pending() > 0; time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("the hands did not finish: %d actions pending", e.Pending())
			}
		}
	}

	// SIGKILL after the third move; two plies are made while the daemon
	// is down (caught up from the board dump on reconnect).
	play(3)
	if got := movesOnStream(t, url, 3, time.Minute); len(got) < 3 {
		t.Fatalf("only %d moves before the kill", len(got))
	}
	p.kill(syscall.SIGKILL)
	play(2)
	handsDone()
	nc, err = nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	status = make(chan *nats.Msg, 16)
	nc.ChanSubscribe("dgt.board.r1-b1.status", status)
	nc.Flush()
	p = startProc(t, bin, cfg, logPath)
	waitStatus(t, status, true)
	nc.Close()

	// Restart NATS after the seventh move; two plies are made while it is
	// down.
	play(2)
	if got := movesOnStream(t, url, 7, time.Minute); len(got) < 7 {
		t.Fatalf("only %d moves before the NATS restart", len(got))
	}
	srv.Shutdown()
	play(2)
	handsDone()
	srv = startNATS(t, store, addr)
	play(len(killGame) - played)

	got := movesOnStream(t, url, len(killGame), 2*time.Minute)
	var ucis []string
	for i, ev := range got {
		ucis = append(ucis, ev.UCI)
		if ev.Ply != i+1 || ev.Revision != 0 {
			t.Errorf("message %d: ply %d revision %d", i, ev.Ply, ev.Revision)
		}
	}
	if strings.Join(ucis, " ") != strings.Join(killGame, " ") {
		t.Logf("emulator: %d actions pending, placement %v, clock %+v", e.Pending(), e.Placement(), e.Clock(time.Now()))
		t.Fatalf("moves on the stream\n got %v\nwant %v", ucis, killGame)
	}
	p.kill(syscall.SIGTERM)
	if !p.cmd.ProcessState.Success() {
		t.Errorf("daemon exit after SIGTERM: %v", p.cmd.ProcessState)
	}
}

// gameScript is the emulator's script of moves (UCI) played after before
// from the start position: 1.2 s of thought before each, ordinary hands,
// every move completed by its mover's press.
func gameScript(t *testing.T, before, moves []string) emu.Script {
	t.Helper()
	pos := rules.Position(chess.StartPosition(chess.Standard))
	for _, u := range before {
		m, err := pos.ParseMove(u)
		if err != nil {
			t.Fatal(err)
		}
		pos, _ = pos.Play(m)
	}
	start := pos
	var ms []rules.Move
	for _, u := range moves {
		m, err := pos.ParseMove(u)
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
		pos, _ = pos.Play(m)
	}
	s, err := emu.GameScript(start, ms, emu.GameOptions{Think: func(int) time.Duration { return 1200 * time.Millisecond }})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func waitStatus(t *testing.T, ch chan *nats.Msg, connected bool) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case m := <-ch:
			var st game.BoardStatus
			if err := json.Unmarshal(m.Data, &st); err != nil {
				t.Fatalf("board status %s: %v", m.Data, err)
			}
			if st.Connected == connected {
				return
			}
		case <-deadline:
			t.Fatalf("no board status connected=%v", connected)
		}
	}
}
