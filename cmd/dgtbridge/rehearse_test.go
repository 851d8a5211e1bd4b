package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/internal/cli"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/nats-io/nats.go"
	"golang.org/x/crypto/bcrypt"
)

// rehearsalLichess imitates Lichess for a rehearsal: the broadcast rounds
// the token's account may push to (writeable) or only read, and the
// pushes it takes, with one token.
type rehearsalLichess struct {
	srv    *httptest.Server
	mu     sync.Mutex
	pushes map[string]int
}

func newRehearsalLichess(t *testing.T, token string, writeable map[string]bool) *rehearsalLichess {
	l := &rehearsalLichess{pushes: map[string]int{}}
	mux := http.NewServeMux()
	auth := func(w http.ResponseWriter, r *http.Request) bool {
		if r.Header.Get("Authorization") != "Bearer "+token {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"error":"No such token"}`)
			return false
		}
		return true
	}
	mux.HandleFunc("GET /api/broadcast/{tour}/{round}/{id}", func(w http.ResponseWriter, r *http.Request) {
		if !auth(w, r) {
			return
		}
		wr, ok := writeable[r.PathValue("id")]
		if !ok {
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"error":"Not found"}`)
			return
		}
		fmt.Fprintf(w, `{"round":{"id":%q},"tour":{},"study":{"writeable":%v}}`, r.PathValue("id"), wr)
	})
	mux.HandleFunc("POST /api/broadcast/round/{id}/push", func(w http.ResponseWriter, r *http.Request) {
		if !auth(w, r) {
			return
		}
		if !writeable[r.PathValue("id")] {
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprint(w, `{"error":"Not your broadcast"}`)
			return
		}
		l.mu.Lock()
		l.pushes[r.PathValue("id")]++
		l.mu.Unlock()
		fmt.Fprint(w, `{"games":[]}`)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("Lichess imitation: unexpected %s %s", r.Method, r.URL.Path)
		w.WriteHeader(http.StatusNotFound)
	})
	l.srv = httptest.NewServer(mux)
	t.Cleanup(l.srv.Close)
	return l
}

func (l *rehearsalLichess) pushed(id string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.pushes[id]
}

// rehearsalHall is a rehearsal's setting: two DGT boards with clocks on
// pseudo-terminals (board 2 with a blind player's board), users with
// bcrypt passwords, a Lichess imitation, and the configuration file.
type rehearsalHall struct {
	cfg, nats string
	boards    []*emu.Emulator
	lichess   *rehearsalLichess
}

// rehearsalSetup writes the configuration: port1 replaces board 1's port
// when set (a board that is not there); clock2 is board 2's clock setting;
// token the token in the token file; relay whether board 2 has a relay user.
func rehearsalSetup(t *testing.T, port1 string, clock2 emu.ClockSetting, token string, relay bool) *rehearsalHall {
	t.Helper()
	dir := t.TempDir()
	h := &rehearsalHall{nats: freePort(t), lichess: newRehearsalLichess(t, "lip_good", map[string]bool{"real0001": true, "test0001": true})}
	right := emu.ClockSetting{Base: 90 * time.Minute, Increment: 30 * time.Second, Mode: emu.Fischer}
	var ports []string
	for i, set := range []emu.ClockSetting{right, clock2, right} {
		e := emu.New(emu.Setup{Serial: fmt.Sprintf("0420%d", i), Clock: set, NoClock: i == 2}, time.Now())
		p, stop := servedPTY(t, e)
		t.Cleanup(stop)
		h.boards = append(h.boards, e)
		ports = append(ports, p)
	}
	if port1 != "" {
		ports[0] = port1
	}
	hash := func(pw string) string {
		b, err := bcrypt.GenerateFromPassword([]byte(pw), bcrypt.MinCost)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	users := fmt.Sprintf("      - {user: chief, password: %q, role: organiser}\n      - {user: arb1, password: %q, role: arbiter}\n", hash("chief-pw"), hash("arb1-pw"))
	if relay {
		users += fmt.Sprintf("      - {user: relay2, password: %q, role: relay, board: 2}\n", hash("relay2-pw"))
	}
	os.WriteFile(filepath.Join(dir, "lichess.token"), []byte(token+"\n"), 0o600)
	h.cfg = filepath.Join(dir, "dgtbridge.yaml")
	os.WriteFile(h.cfg, []byte(fmt.Sprintf(`data_dir: data
record: false
nats:
  embedded:
    listen: %q
    users:
%shttp: {listen: ""}
lichess: {url: %q, token_file: lichess.token, rounds: {1: real0001}}
event: {id: open, public_delay: 15m, ruleset: fide2018-standard, time_control: "5400+30"}
boards:
  - {port: %s, round: 1, board: 1, white: "A", black: "B"}
  - {port: %s, round: 1, board: 2, white: "C", black: "D", blind: {side: black, port: %s, lang: en}}
`, h.nats, users, h.lichess.srv.URL, ports[0], ports[1], ports[2])), 0o644)
	return h
}

// rehearse runs "dgtbridge rehearse" in-process until it returns.
func (h *rehearsalHall) rehearse(ctx context.Context, out *syncBuffer, args ...string) chan error {
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"rehearse", "--config", h.cfg, "--lichess-round", "test0001"}, args...), out, out)
	}()
	return done
}

// move makes the organiser's move on a board: a pawn, and the clock.
func move(t *testing.T, e *emu.Emulator) {
	pos := rules.Position(chess.StartPosition(chess.Standard))
	m, _ := pos.ParseMove("e2e4")
	s, err := emu.GameScript(pos, []rules.Move{m}, emu.GameOptions{Think: func(int) time.Duration { return 200 * time.Millisecond }})
	if err != nil {
		t.Fatal(err)
	}
	e.Schedule(time.Now(), s)
}

func waitOutput(t *testing.T, out *syncBuffer, done chan error, what ...string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		ok := true
		for _, w := range what {
			ok = ok && strings.Contains(out.String(), w)
		}
		if ok {
			return
		}
		select {
		case err := <-done:
			done <- err
			t.Fatalf("rehearse returned %v before %q:\n%s", err, what, out.String())
		case <-time.After(100 * time.Millisecond):
		}
	}
	t.Fatalf("never %q:\n%s", what, out.String())
}

// TestRehearsalPasses: a hall set up right. The clocks at rest fit the
// time control; the organiser moves a pawn on each board; both staff
// users sign in; the blind player's relay device listens; Lichess takes
// the test push. Every check passes, dgtbridge status shows the
// checklist meanwhile, and the rehearsal's games never reach the event's
// Lichess round.
func TestRehearsalPasses(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: the daemon with pty boards in real time")
	}
	h := rehearsalSetup(t, "", emu.ClockSetting{Base: 90 * time.Minute, Increment: 30 * time.Second, Mode: emu.Fischer}, "lip_good", true)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out syncBuffer
	done := h.rehearse(ctx, &out, "--public-delay", "2s", "--timeout", "90s")
	waitOutput(t, &out, done, "passed  clock of board r1-b1", "passed  clock of board r1-b2", "passed  board r1-b2-blind answers")

	// The relay device of board 2 listens before the move.
	relay, err := nats.Connect("nats://"+h.nats, nats.UserInfo("relay2", "relay2-pw"), nats.CustomInboxPrefix("_INBOX_relay"))
	if err != nil {
		t.Fatal(err)
	}
	defer relay.Close()
	heard := make(chan *nats.Msg, 8)
	if _, err := relay.ChanSubscribe("dgt.relay.*.*.2.announce", heard); err != nil {
		t.Fatal(err)
	}
	relay.Flush()
	for _, e := range h.boards[:2] {
		move(t, e)
	}
	for _, u := range [][2]string{{"chief", "chief-pw"}, {"arb1", "arb1-pw"}} {
		nc, err := nats.Connect("nats://"+h.nats, nats.UserInfo(u[0], u[1]))
		if err != nil {
			t.Fatalf("%s signs in: %v", u[0], err)
		}
		nc.Close()
	}
	waitOutput(t, &out, done, "passed  a move on board r1-b2 reaches the live feed")

	// dgtbridge status shows the checklist while the rehearsal runs.
	t.Setenv("DGTBRIDGE_STATUS_PASSWORD", "chief-pw")
	var st syncBuffer
	if err := run(ctx, []string{"status", "--config", h.cfg, "--user", "chief"}, &st, &st); err != nil {
		t.Errorf("status: %v\n%s", err, st.String())
	} else if !strings.Contains(st.String(), "rehearsal since") || !strings.Contains(st.String(), "passed  a move on board r1-b2 reaches the live feed (open-rehearsal.1.2)") {
		t.Errorf("status shows no checklist:\n%s", st.String())
	}

	var js syncBuffer
	if err := run(ctx, []string{"status", "--config", h.cfg, "--user", "chief", "--json"}, &js, &js); err != nil ||
		!strings.Contains(js.String(), `"rehearsal": {`) || !strings.Contains(js.String(), `"kind": "live"`) {
		t.Errorf("status --json shows no checklist: %v\n%s", err, js.String())
	}

	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("rehearse: %v\n%s", err, out.String())
		}
	case <-ctx.Done():
		t.Fatalf("rehearse did not end:\n%s", out.String())
	}
	for _, want := range []string{"every check passed: 14 passed, 0 failed, 0 waiting",
		"passed  the blind player's relay of board r1-b2 hears an announcement (open-rehearsal.1.2): received by relay2",
		"passed  Lichess round real0001 of round 1 accepts the token's pushes",
		"passed  Lichess takes a test push to round test0001",
		"passed  arbiter user arb1 signs in", "passed  organiser user chief signs in"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if len(heard) == 0 {
		t.Error("the relay device heard nothing")
	}
	t.Logf("rehearse:\n%s", out.String())
	if n := h.lichess.pushed("real0001"); n != 0 {
		t.Errorf("the rehearsal pushed %d times to the event's Lichess round", n)
	}
}

// TestRehearsalFails: board 1 is not there, board 2's clock is set for
// an hour, the token is refused, an arbiter types a wrong password and
// the organiser never signs in, and the blind player's relay has nobody
// to hear it. Each line fails with its reason; the rehearsal exits 1.
func TestRehearsalFails(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: the daemon with pty boards in real time")
	}
	h := rehearsalSetup(t, "/dev/dgtbridge-no-such-board", emu.ClockSetting{Base: time.Hour, Mode: emu.Fischer}, "lip_revoked", false)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out syncBuffer
	done := h.rehearse(ctx, &out, "--public-delay", "1s", "--timeout", "25s")
	waitOutput(t, &out, done, "failed  clock of board r1-b2")
	move(t, h.boards[1])
	if nc, err := nats.Connect("nats://"+h.nats, nats.UserInfo("arb1", "arb1-typo"), nats.NoReconnect()); err == nil {
		nc.Close()
		t.Fatal("a wrong password signed in")
	}
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		t.Fatalf("rehearse did not end:\n%s", out.String())
	}
	if err == nil || !strings.Contains(err.Error(), "checks not passed") || cli.ExitCode(err) != 1 {
		t.Errorf("rehearse returned %v (exit %d), want checks not passed, exit 1", err, cli.ExitCode(err))
	}
	final := out.String()[strings.LastIndex(out.String(), "rehearsal over at"):]
	for _, want := range []string{
		"failed  board r1-b1 answers (/dev/dgtbridge-no-such-board): nothing within 25s: no answer",
		"failed  clock of board r1-b2 is set for 5400+30: the clock shows 1:00:00 | 1:00:00 at rest; time control 5400+30 starts at 1:30:00 or 1:30:30",
		"passed  a move on board r1-b2 reaches the live feed",
		"passed  a move on board r1-b2 reaches the public copy 1s later",
		"failed  Lichess round real0001 of round 1 accepts the token's pushes: Lichess round real0001 (lichess.rounds 1): 401 Unauthorized: No such token",
		"failed  Lichess takes a test push to round test0001: Lichess refused the test push: 401 Unauthorized: No such token",
		"failed  arbiter user arb1 signs in: a wrong password for arb1 at",
		"failed  organiser user chief signs in: nothing within 25s: sign in as chief",
		"failed  the blind player's relay of board r1-b2 hears an announcement (open-rehearsal.1.2): nothing can hear the announcements",
	} {
		if !strings.Contains(final, want) {
			t.Errorf("checklist lacks %q:\n%s", want, final)
		}
	}
}

// TestRehearsalCommandLine: mistakes on the command line and a
// configuration the rehearsal cannot run are said, before anything opens.
func TestRehearsalCommandLine(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "dgtbridge.yaml")
	os.WriteFile(cfg, []byte("nats: {url: \"nats://127.0.0.1:4222\"}\nboards:\n  - {port: /dev/a, round: 1, board: 1}\n"), 0o644)
	// The daemon runs: its NATS listener is taken.
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	running := filepath.Join(dir, "running.yaml")
	os.WriteFile(running, []byte(fmt.Sprintf("data_dir: data\nnats: {embedded: {listen: %q}}\nhttp: {listen: \"\"}\nboards:\n  - {port: /dev/dgtbridge-none, round: 1, board: 1}\n", taken.Addr())), 0o644)
	for _, c := range []struct {
		cfg  string
		args []string
		code int
		msg  string
	}{
		{cfg, []string{"--timeout", "10s", "--public-delay", "30s"}, 2, "--timeout (10s) must be longer than --public-delay (30s)"},
		{cfg, []string{"--log-level", "loud"}, 2, `--log-level "loud"`},
		{cfg, []string{"extra"}, 2, `unexpected argument "extra"`},
		{cfg, nil, 1, "nats.url is set"},
		{running, nil, 1, "is the daemon running? Stop it first"},
	} {
		var out syncBuffer
		err := run(context.Background(), append([]string{"rehearse", "--config", c.cfg}, c.args...), &out, &out)
		if err == nil || cli.ExitCode(err) != c.code || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("rehearse %v: %v (exit %d), want exit %d with %q", c.args, err, cli.ExitCode(err), c.code, c.msg)
		}
	}
}

// TestRehearsalBusLine: two boards with clocks on one bus line: each
// answers at its bus address, each clock at rest is read over the line
// and fits the time control, a move on each reaches the live feed and
// the public copy. Without users or Lichess those are the whole list.
func TestRehearsalBusLine(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: the daemon with a bus line on a pty in real time")
	}
	set := emu.ClockSetting{Base: 25 * time.Minute, Increment: 10 * time.Second, Mode: emu.Fischer}
	a := emu.New(emu.Setup{Serial: "05101", BusAddress: 5101, Clock: set}, time.Now())
	b := emu.New(emu.Setup{Serial: "05102", BusAddress: 5102, Clock: set}, time.Now())
	port, stop := servedPTY(t, emu.NewLine(time.Now(), a, b))
	defer stop()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "dgtbridge.yaml")
	os.WriteFile(cfg, []byte(fmt.Sprintf(`data_dir: data
record: false
nats: {embedded: {listen: %q}}
http: {listen: ""}
event: {id: rapid, ruleset: fide2018-rapid, time_control: "1500+10"}
boards:
  - {port: %s, bus_address: 5101, round: 2, board: 1, white: "A", black: "B"}
  - {port: %s, bus_address: 5102, round: 2, board: 2, white: "C", black: "D"}
`, freePort(t), port, port)), 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"rehearse", "--config", cfg, "--public-delay", "1s", "--timeout", "90s"}, &out, &out)
	}()
	waitOutput(t, &out, done, "passed  clock of board r2-b1", "passed  clock of board r2-b2")
	move(t, a)
	move(t, b)
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("rehearse: %v\n%s", err, out.String())
		}
	case <-ctx.Done():
		t.Fatalf("rehearse did not end:\n%s", out.String())
	}
	for _, want := range []string{"every check passed: 8 passed, 0 failed, 0 waiting",
		"passed  board r2-b1 answers (" + port + ", bus address 5101)", "passed  board r2-b2 answers (" + port + ", bus address 5102)",
		"passed  a move on board r2-b2 reaches the public copy 1s later (rapid-rehearsal.2.2)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
