package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
)

// lichessImitation records the pushes Lichess would get; it checks the
// method, the path and the token, and answers as Lichess does.
type lichessImitation struct {
	t      *testing.T
	token  string
	mu     sync.Mutex
	pushes map[string][]string // round id → bodies
	srv    *httptest.Server
}

func newLichessImitation(t *testing.T, token string) *lichessImitation {
	l := &lichessImitation{t: t, token: token, pushes: map[string][]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/broadcast/round/{id}/push", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Header.Get("Authorization") != "Bearer "+l.token {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"error":"No such token"}`)
			return
		}
		if !strings.HasPrefix(string(body), "[Event ") {
			l.t.Errorf("push body is not PGN: %q", body)
		}
		l.mu.Lock()
		l.pushes[r.PathValue("id")] = append(l.pushes[r.PathValue("id")], string(body))
		l.mu.Unlock()
		fmt.Fprint(w, `{"games":[]}`)
	})
	l.srv = httptest.NewServer(mux)
	t.Cleanup(l.srv.Close)
	return l
}

// last returns the last push to round id ("" for none).
func (l *lichessImitation) last(id string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	p := l.pushes[id]
	if len(p) == 0 {
		return ""
	}
	return p[len(p)-1]
}

// play returns the emulator script of moves from pos, and the position
// after them.
func play(t *testing.T, pos rules.Position, ucis ...string) (emu.Script, rules.Position) {
	t.Helper()
	var moves []rules.Move
	start := pos
	for _, u := range ucis {
		m, err := pos.ParseMove(u)
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, m)
		pos, _ = pos.Play(m)
	}
	s, err := emu.GameScript(start, moves, emu.GameOptions{Think: func(int) time.Duration { return 400 * time.Millisecond }})
	if err != nil {
		t.Fatal(err)
	}
	return s, pos
}

// resetTo is the players' hands setting up the start position from p.
func resetTo(p rules.Placement) emu.Script {
	start := emu.StartPlacement()
	var s emu.Script
	at := time.Duration(0)
	for _, sq := range p.Diff(&start, nil) {
		if !p.At(sq).IsEmpty() {
			s = append(s, emu.Action{At: at, Kind: emu.Lift, Square: sq})
			at += 150 * time.Millisecond
		}
	}
	for _, sq := range p.Diff(&start, nil) {
		if !start.At(sq).IsEmpty() {
			s = append(s, emu.Action{At: at, Kind: emu.Place, Square: sq, Piece: start.At(sq)})
			at += 150 * time.Millisecond
		}
	}
	return s
}

// statusJSON runs "dgtbridge status --json" in-process.
func statusJSON(t *testing.T, cfg string) (broadcast.StatusReport, error) {
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"status", "--config", cfg, "--json"}, &out, &errb); err != nil {
		return broadcast.StatusReport{}, err
	}
	var r broadcast.StatusReport
	err := json.Unmarshal(out.Bytes(), &r)
	return r, err
}

func waitUntil(t *testing.T, d time.Duration, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", d, what)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestOrganiserWorkflow runs the built daemon as an organiser would: a
// configuration with relative paths, players from a pairing file, round 1
// pushed to a Lichess imitation, "dgtbridge status" and /healthz?detail
// reading the running daemon, then a round change by SIGHUP in the middle
// of a game (the game keeps its players; after its result, the set-up
// begins round 2's game with round 2's players, pushed to round 2's
// Lichess round), and an invalid configuration refused on SIGHUP while
// the daemon carries on.
func TestOrganiserWorkflow(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: builds the binary, a board on a pty in real time")
	}
	dir := t.TempDir()
	bin := buildBinary(t, dir)
	li := newLichessImitation(t, "lip_organiser")
	e := emu.New(emu.Setup{Serial: "04321"}, time.Now())
	port, stop := servedPTY(t, e)
	defer stop()
	// Board 2 is set up and waits: its game does not start before the reload.
	port2, stop2 := servedPTY(t, emu.New(emu.Setup{Serial: "04322"}, time.Now()))
	defer stop2()

	ev := filepath.Join(dir, "event")
	os.MkdirAll(ev, 0o755)
	natsAddr, httpAddr, adminAddr := freePort(t), freePort(t), freePort(t)
	os.WriteFile(filepath.Join(ev, "lichess.token"), []byte("lip_organiser\n"), 0o600)
	os.WriteFile(filepath.Join(ev, "pairings.csv"), []byte("round,board,white,black,white_fide_id,black_fide_id\n"+
		"1,1,\"Nguyen, Van An\",\"Tran, Thi Binh\",12400010,12400029\n"+
		"1,2,\"Vu, Duc Khanh\",\"Hoang, Thu Ha\",12400061,12400053\n"+
		"2,1,\"Le, Quang Cuong\",\"Pham, Minh Duc\",12400037,12400045\n"+
		"2,2,\"Dang, Thanh Long\",\"Do, Hai Nam\",12400070,12400096\n"), 0o644)
	config := func(round int, rounds string) string {
		return fmt.Sprintf(`data_dir: data
nats: {embedded: {listen: %q}}
http: {listen: %q, admin_listen: %q}
lichess: {url: %q, token_file: lichess.token, rounds: {%s}}
event: {id: open, name: "Hanoi Open", round: %d, pairings: pairings.csv, public_delay: 0s, ruleset: fide2018-rapid, time_control: "900+10"}
boards:
  - {port: %s, board: 1}
  - {port: %s, board: 2}
`, natsAddr, httpAddr, adminAddr, li.srv.URL, rounds, round, port, port2)
	}
	cfg := filepath.Join(ev, "dgtbridge.yaml")
	os.WriteFile(cfg, []byte(config(1, "1: AbCd1234")), 0o644)

	// The check first, from another directory: relative paths follow the file.
	wd, _ := os.Getwd()
	os.Chdir(dir)
	code, out, errOut := runMain(t, "run", "--check", "--config", cfg)
	os.Chdir(wd)
	if code != 0 || !strings.Contains(out, "Nguyen, Van An – Tran, Thi Binh") || !strings.Contains(out, "Vu, Duc Khanh – Hoang, Thu Ha") || !strings.Contains(out, "round 1 → AbCd1234") {
		t.Fatalf("check: exit %d\n%s%s", code, out, errOut)
	}

	logPath := filepath.Join(dir, "daemon.log")
	defer func() {
		if t.Failed() {
			b, _ := os.ReadFile(logPath)
			t.Logf("daemon log:\n%s", b)
		}
	}()
	p := startProc(t, bin, cfg, logPath)
	waitUntil(t, 20*time.Second, "data_dir beside the configuration", func() bool {
		_, err := os.Stat(filepath.Join(ev, "data", "outbox"))
		return err == nil
	})
	waitUntil(t, 30*time.Second, "status: board connected", func() bool {
		r, err := statusJSON(t, cfg)
		return err == nil && len(r.Boards) == 2 && r.Boards[0].Connected && r.Boards[1].Connected
	})

	// Round 1: four moves, pushed with the pairing file's players.
	pos := rules.Position(chess.StartPosition(chess.Standard))
	s, pos := play(t, pos, "e2e4", "c7c5")
	e.Schedule(time.Now(), s)
	waitUntil(t, 30*time.Second, "round 1 pushed to Lichess", func() bool {
		return movetext(li.last("AbCd1234")) == "1. e4 c5 *"
	})
	push := li.last("AbCd1234")
	for _, want := range []string{`[White "Nguyen, Van An"]`, `[Black "Tran, Thi Binh"]`, `[WhiteFideId "12400010"]`, `[Round "1.1"]`, `[GameId "open.1.1"]`} {
		if !strings.Contains(push, want) {
			t.Errorf("the push lacks %s:\n%s", want, push)
		}
	}
	// The status bucket is written at most once a second.
	var r broadcast.StatusReport
	waitUntil(t, 10*time.Second, "status at ply 2", func() bool {
		var err error
		r, err = statusJSON(t, cfg)
		return err == nil && len(r.Boards) == 2 && r.Boards[0].Ply == 2
	})
	b := r.Boards[0]
	if b.BoardID != "r1-b1" || b.Port != port || !b.Connected || b.Game.String() != "open.1.1" || b.Ply != 2 || b.LastMove == nil || b.LastMove.SAN != "c5" || b.LastMove.UCI != "c7c5" || b.Clock == nil {
		t.Errorf("status: %+v", b)
	}
	if len(r.Lichess) != 1 || r.Lichess[0].Pushes == 0 || r.Lichess[0].Error != "" {
		t.Errorf("status of the push: %+v", r.Lichess)
	}
	code, out, _ = runMain(t, "status", "--config", cfg)
	if code != 0 || !strings.Contains(out, "r1-b1") || !strings.Contains(out, "open.1.1") || !strings.Contains(out, "connected") || !strings.Contains(out, "c5") {
		t.Errorf("status table: %d\n%s", code, out)
	}
	resp, err := http.Get("http://" + adminAddr + "/healthz?detail")
	if err != nil {
		t.Fatal(err)
	}
	var hd broadcast.HealthDetail
	json.NewDecoder(resp.Body).Decode(&hd)
	resp.Body.Close()
	if resp.StatusCode != 200 || !hd.Healthy || len(hd.Boards) != 2 || hd.Boards[0].Ply != 2 || hd.Boards[1].Game.String() != "open.1.2" {
		t.Errorf("/healthz?detail %d %+v", resp.StatusCode, hd)
	}

	// Round 2 is published mid-game: the game keeps its players.
	os.WriteFile(cfg, []byte(config(2, "1: AbCd1234, 2: EfGh5678")), 0o644)
	p.cmd.Process.Signal(syscall.SIGHUP)
	waitUntil(t, 20*time.Second, "the reload in the log", func() bool {
		b, _ := os.ReadFile(logPath)
		return strings.Contains(string(b), "configuration reloaded")
	})
	// Board 2 had not started: it is on round 2's game at once, in the
	// status too (the reload makes no payload that would show it).
	waitUntil(t, 10*time.Second, "status: board 2 on round 2", func() bool {
		r, err := statusJSON(t, cfg)
		return err == nil && r.Boards[1].Game.String() == "open.2.2" && r.Boards[0].Game.String() == "open.1.1"
	})
	waitUntil(t, 10*time.Second, "round 2's board 2 pushed", func() bool {
		return strings.Contains(li.last("EfGh5678"), `[White "Dang, Thanh Long"]`)
	})
	s, pos = play(t, pos, "g1f3", "d7d6")
	e.Schedule(time.Now(), s)
	waitUntil(t, 30*time.Second, "round 1 goes on", func() bool { return movetext(li.last("AbCd1234")) == "1. e4 c5 2. Nf3 d6 *" })
	if push := li.last("AbCd1234"); !strings.Contains(push, `[White "Nguyen, Van An"]`) {
		t.Errorf("the game in progress lost its players:\n%s", push)
	}

	// The result (kings to the centre), the set-up, and round 2's game.
	pl := pos.Placement()
	gesture, err := emu.ResultGesture(&pl, emu.Draw, 1)
	if err != nil {
		t.Fatal(err)
	}
	after := pos.Placement()
	for _, a := range gesture {
		switch a.Kind {
		case emu.Lift:
			after.Sq[a.Square] = rules.NoPiece
		case emu.Place:
			after.Sq[a.Square] = a.Piece
		}
	}
	s2, _ := play(t, chess.StartPosition(chess.Standard), "d2d4", "g8f6")
	e.Schedule(time.Now(), gesture.Then(3*time.Second, resetTo(after)).Then(3*time.Second, s2))
	waitUntil(t, 60*time.Second, "round 2 pushed", func() bool { return movetext(li.last("EfGh5678")) == "1. d4 Nf6 *" })
	push = li.last("EfGh5678")
	for _, want := range []string{`[White "Le, Quang Cuong"]`, `[Black "Pham, Minh Duc"]`, `[Round "2.1"]`, `[GameId "open.2.1"]`} {
		if !strings.Contains(push, want) {
			t.Errorf("round 2's push lacks %s:\n%s", want, push)
		}
	}
	if push := li.last("AbCd1234"); !strings.Contains(push, `[Result "1/2-1/2"]`) {
		t.Errorf("round 1's last push has no result:\n%s", push)
	}
	waitUntil(t, 20*time.Second, "status shows round 2", func() bool {
		r, err := statusJSON(t, cfg)
		return err == nil && r.Boards[0].Game.String() == "open.2.1" && r.Boards[0].Ply == 2
	})
	if push := li.last("EfGh5678"); !strings.Contains(push, `[Round "2.2"]`) || !strings.Contains(push, `[Round "2.1"]`) {
		t.Errorf("round 2's push lacks a board:\n%s", push)
	}

	// An invalid configuration is refused, naming the key; the daemon goes on.
	os.WriteFile(cfg, []byte(config(2, "2: EfGh5678")+"penalties: sometimes\n"), 0o644)
	p.cmd.Process.Signal(syscall.SIGHUP)
	waitUntil(t, 20*time.Second, "the refusal in the log", func() bool {
		b, _ := os.ReadFile(logPath)
		return strings.Contains(string(b), "reload refused") && strings.Contains(string(b), "penalties: \\\"sometimes\\\" is not one of alert, auto")
	})
	if p.cmd.ProcessState != nil {
		t.Fatal("the daemon exited after an invalid reload")
	}
	p.kill(syscall.SIGTERM)
	if !p.cmd.ProcessState.Success() {
		t.Errorf("exit after SIGTERM: %v", p.cmd.ProcessState)
	}
	if r, err := statusJSON(t, cfg); err == nil {
		t.Errorf("status after the daemon stopped: no error, %+v", r)
	}
}

// movetext returns the moves and result of the first game of a PGN
// without its comments, one space between tokens ("1. e4 c5 *").
func movetext(pgn string) string {
	if i := strings.Index(pgn, "\n[Event "); i >= 0 {
		pgn = pgn[:i]
	}
	var b strings.Builder
	depth := 0
	for _, line := range strings.Split(pgn, "\n") {
		if strings.HasPrefix(line, "[") {
			continue
		}
		for _, r := range line + " " {
			switch {
			case r == '{':
				depth++
			case r == '}':
				depth--
			case depth == 0:
				b.WriteRune(r)
			}
		}
	}
	var toks []string
	for _, f := range strings.Fields(b.String()) {
		if !strings.HasSuffix(f, "...") { // "1... c5" after a comment
			toks = append(toks, f)
		}
	}
	return strings.Join(toks, " ")
}
