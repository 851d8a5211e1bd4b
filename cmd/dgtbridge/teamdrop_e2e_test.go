package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/hall"
	"github.com/dgtbridge/dgtbridge/internal/daemon"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
	"github.com/dgtbridge/dgtbridge/rules/teamdrop"
	"github.com/dgtbridge/dgtbridge/serialport"
)

// teamBoard is one emulated board of the end-to-end match and the moves
// its hands have made so far (its own view: the pockets it is told).
type teamBoard struct {
	t   *testing.T
	e   *emu.Emulator
	pos *chess.Position
}

// play schedules the hands making moves (UCI, N@f3, -f8) on the board
// now, each after a short think and completed by the mover's press, and
// returns when the script is over.
func (b *teamBoard) play(moves ...string) {
	b.t.Helper()
	var s emu.Script
	for _, u := range moves {
		mv, err := b.pos.ParseMove(u)
		if err != nil {
			// A drop of a piece the board's pocket lacks: the hands have
			// one anyway (a piece from the box).
			k, _ := rules.KindFromLetter(u[0])
			if mv, err = b.pos.WithPocket(b.pos.Turn(), k, 1).ParseMove(u); err != nil {
				b.t.Fatalf("%s: %v", u, err)
			}
		}
		side := emu.Left
		if b.pos.Turn() == rules.Black {
			side = emu.Right
		}
		ms, err := emu.MoveScript(b.pos, mv, emu.Handling{Press: true, Side: side, Speed: 2})
		if err != nil {
			b.t.Fatal(err)
		}
		s = s.Then(900*time.Millisecond, ms)
		next, err := b.pos.PlayIllegalMove(mv)
		if err != nil {
			next, _ = b.pos.WithPocket(b.pos.Turn(), mv.Drop, 1).PlayIllegalMove(mv)
		}
		b.pos = next
	}
	b.e.Schedule(time.Now(), s)
	time.Sleep(s.Duration() + 200*time.Millisecond)
}

// feed gives the board's own view a piece its partner sent.
func (b *teamBoard) feed(c rules.Color, k rules.Kind) {
	b.pos = b.pos.WithPocket(c, k, b.pos.Pocket(c, k)+1)
}

// teamFeed follows the payloads on NATS.
type teamFeed struct {
	t      *testing.T
	mu     sync.Mutex
	moves  map[string][]game.MoveEvent
	alerts []game.Alert
	ends   map[string][]game.Result
}

func (f *teamFeed) handle(m *nats.Msg) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case strings.HasSuffix(m.Subject, ".move") && strings.HasPrefix(m.Subject, "dgt.game."):
		var ev game.MoveEvent
		json.Unmarshal(m.Data, &ev)
		g := ev.Game.String()
		if l := f.moves[g]; len(l) == 0 || l[len(l)-1].Ply < ev.Ply {
			f.moves[g] = append(f.moves[g], ev)
		}
	case strings.HasSuffix(m.Subject, ".alert"):
		var a game.Alert
		json.Unmarshal(m.Data, &a)
		f.alerts = append(f.alerts, a)
	case strings.HasSuffix(m.Subject, ".end") && strings.HasPrefix(m.Subject, "dgt.game."):
		var r game.Result
		json.Unmarshal(m.Data, &r)
		f.ends[r.Game.String()] = append(f.ends[r.Game.String()], r)
	}
}

// waitMoves waits until game g has n MoveEvents and returns them.
func (f *teamFeed) waitMoves(g string, n int) []game.MoveEvent {
	f.t.Helper()
	var out []game.MoveEvent
	waitUntil(f.t, 45*time.Second, fmt.Sprintf("%d moves of %s", n, g), func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		out = append(out[:0], f.moves[g]...)
		return len(out) >= n
	})
	return out
}

// waitAlert waits for an alert of kind on game g and returns it.
func (f *teamFeed) waitAlert(g, kind string) game.Alert {
	f.t.Helper()
	var a game.Alert
	waitUntil(f.t, 45*time.Second, kind+" alert on "+g, func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		for _, x := range f.alerts {
			if x.Game.String() == g && x.Kind == kind {
				a = x
				return true
			}
		}
		return false
	})
	return a
}

// count returns how many alerts of kind game g has.
func (f *teamFeed) count(g, kind string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, x := range f.alerts {
		if x.Game.String() == g && x.Kind == kind {
			n++
		}
	}
	return n
}

// TestTeamDropEndToEnd runs a team-drop match on two emulated boards, each
// on its own pseudo-terminal opened through go.bug.st/serial as real boards
// are, through the daemon (its configuration, the hall, the match) to the
// embedded NATS server and the HTTP server: captures pass between the
// boards at the presses (MoveEvent pockets and partner), a drop (P@e7), a
// pawn on the last rank removed by lifting it (-f8), an illegal drop
// reported as illegal_move with the 004 article and confirmed by the
// arbiter as a technical error ("te"), the loss at the second error ending
// the match with partner_board on the other board and a later move there
// not recorded, the match as BPGN over HTTP; and the daemon stopped and
// started again mid-match with the pockets intact.
func TestTeamDropEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: two emulated boards on pseudo-terminals and the daemon in real time")
	}
	dir := t.TempDir()
	natsAddr, httpAddr := freePort(t), freePort(t)
	var boards [2]*teamBoard
	var paths [2]string
	for i := range boards {
		e := emu.New(emu.Setup{Serial: fmt.Sprintf("0%d001", i+1), Clock: emu.ClockSetting{Base: 5 * time.Minute}}, time.Now())
		p, stop := servedPTY(t, e)
		defer stop()
		paths[i] = p
		rs, _ := ruleset.Lookup(ruleset.BGO2026Team)
		pos, err := chess.NewPositionOptions(chess.TeamDrop, teamdrop.Options(rs), chess.TeamDrop.StartFEN())
		if err != nil {
			t.Fatal(err)
		}
		boards[i] = &teamBoard{t: t, e: e, pos: pos}
	}
	cfgFile := filepath.Join(dir, "dgtbridge.yaml")
	body := fmt.Sprintf(`data_dir: %s
record: true
nats: {prefix: dgt, embedded: {listen: %q}}
http: {listen: %q}
event: {id: open2026, name: "Cờ đặt 2026", ruleset: bgo2026-team, time_control: "300", public_delay: 1s}
boards:
  - {port: %s, round: 1, board: 1, variant: team-drop, partner: 2, white: "An", black: "Bình", white_team: "Hà Nội", black_team: "Sài Gòn"}
  - {port: %s, round: 1, board: 2, variant: team-drop, partner: 1, white: "Chi", black: "Dũng", white_team: "Sài Gòn", black_team: "Hà Nội"}
`, filepath.Join(dir, "data"), natsAddr, httpAddr, paths[0], paths[1])
	if err := os.WriteFile(cfgFile, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(config.LoadOptions{File: cfgFile})
	if err != nil {
		t.Fatal(err)
	}
	logf, _ := os.Create(filepath.Join(dir, "daemon.log"))
	defer func() {
		if t.Failed() {
			b, _ := os.ReadFile(logf.Name())
			t.Logf("daemon log:\n%s", b)
		}
	}()
	log := slog.New(slog.NewTextHandler(logf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	start := func() (stop func()) {
		claims := &serialport.Claims{}
		hb, err := daemon.HallBoards(&cfg, func(b config.Board) (hall.Board, error) {
			return hall.Board{Open: serialport.Opener(b.Port, claims, 0, log)}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- daemon.Run(ctx, cfg, daemon.Options{Boards: hb}, log, nil) }()
		return func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("daemon: %v", err)
			}
		}
	}
	stop := start()
	defer func() { stop() }()

	var nc *nats.Conn
	waitUntil(t, 45*time.Second, "the embedded NATS server", func() bool {
		nc, err = nats.Connect("nats://" + natsAddr)
		return err == nil
	})
	defer nc.Close()
	feed := &teamFeed{t: t, moves: map[string][]game.MoveEvent{}, ends: map[string][]game.Result{}}
	defer func() {
		if t.Failed() {
			feed.mu.Lock()
			defer feed.mu.Unlock()
			for g, ms := range feed.moves {
				for _, m := range ms {
					t.Logf("%s ply %d %s %v", g, m.Ply, m.SAN, m.Pockets)
				}
			}
			for _, a := range feed.alerts {
				t.Logf("alert %s %s %s ply %d: %s", a.Game, a.Severity, a.Kind, a.Ply, a.Message)
			}
		}
	}()
	for _, s := range []string{"dgt.game.>", "dgt.arbiter.>"} {
		if _, err := nc.Subscribe(s, feed.handle); err != nil {
			t.Fatal(err)
		}
	}
	nc.Flush()
	healthy := func() {
		waitUntil(t, 45*time.Second, "both boards connected (/healthz)", func() bool {
			resp, err := http.Get("http://" + httpAddr + "/healthz")
			if err != nil {
				return false
			}
			resp.Body.Close()
			return resp.StatusCode == 200
		})
	}
	healthy()
	a, b := boards[0], boards[1]
	const ga, gb = "open2026.1.1", "open2026.1.2"
	// Both clocks start (Black presses).
	for _, bd := range boards {
		bd.e.Schedule(time.Now(), emu.Script{{Kind: emu.Press, Side: emu.Right}})
	}
	time.Sleep(time.Second)

	// Board 1: Black takes a white pawn: it goes to White on board 2.
	a.play("e2e4", "d7d5", "b1c3", "d5e4")
	ma := feed.waitMoves(ga, 4)
	if m := ma[3]; m.SAN != "dxe4" || m.Partner != gb || m.Pockets == nil || *m.Pockets != (game.Pockets{}) {
		t.Fatalf("board 1 ply 4: %+v (pockets %v)", m, m.Pockets)
	}
	b.feed(rules.White, rules.Pawn)

	// The daemon stops and starts again mid-match: the pawn is still in
	// White's pocket on board 2, who drops it on e7.
	stop()
	stop = start()
	healthy()
	// The embedded server restarted with the daemon: our subscriber
	// reconnects before anything is played.
	waitUntil(t, 45*time.Second, "the subscriber reconnected", func() bool { return nc.IsConnected() && nc.Flush() == nil })
	b.play("d2d4", "e7e5", "P@e7")
	mb := feed.waitMoves(gb, 3)
	if m := mb[2]; m.SAN != "P@e7" || m.UCI != "P@e7" || m.Pockets == nil || *m.Pockets != (game.Pockets{}) || m.Partner != ga {
		t.Fatalf("board 2 ply 3 after the restart: %+v (pockets %v)", m, m.Pockets)
	}
	// The game in progress over HTTP (the public copy): Bughouse, teams,
	// the drop and the pockets after every move.
	waitUntil(t, 45*time.Second, "board 2's public PGN with the drop", func() bool {
		st, ok := fetchState(t, httpAddr, 2)
		return ok && strings.Contains(st.PGN, "P@e7") && strings.Contains(st.PGN, "[%pocket P/-]") &&
			strings.Contains(st.PGN, `[Variant "Bughouse"]`) && strings.Contains(st.PGN, `[WhiteTeam "Sài Gòn"]`)
	})
	// The dropped pawn takes the bishop on f8 and stays a pawn; Black
	// lifts it off (the removal, 004 A6): it goes to White on board 1.
	b.play("b8c6", "e7f8")
	up := feed.waitAlert(gb, game.KindUnpromotedPawn)
	if up.Side != "black" || !strings.Contains(up.Article, "A6") {
		t.Errorf("unpromoted_pawn %+v", up)
	}
	b.play("-f8")
	mb = feed.waitMoves(gb, 6)
	if m := mb[4]; m.SAN != "exf8" {
		t.Errorf("board 2 ply 5: %+v", m)
	}
	if m := mb[5]; m.SAN != "-f8" || m.UCI != "-f8" {
		t.Errorf("board 2 ply 6: %+v", m)
	}
	// Board 1's game state (KV) has the pawn in White's pocket and names
	// the partner.
	js, _ := jetstream.New(nc)
	kv, err := js.KeyValue(context.Background(), "dgt_games")
	if err != nil {
		t.Fatal(err)
	}
	var last string
	defer func() {
		if t.Failed() {
			t.Logf("board 1 state: %s", last)
		}
	}()
	waitUntil(t, 45*time.Second, "White's pocket on board 1", func() bool {
		e, err := kv.Get(context.Background(), ga)
		if err != nil {
			return false
		}
		var st game.GameState
		json.Unmarshal(e.Value(), &st)
		last = fmt.Sprintf("pockets %v partner %q bpgn %q", st.Pockets, st.Partner, st.BPGN)
		return st.Pockets != nil && st.Pockets.White == "P" && st.Partner == gb && strings.Contains(st.BPGN, "-f8")
	})

	// White on board 1 drops a knight he does not have: illegal_move
	// (crit, A1/A2 D2) once no capture could have brought it.
	a.play("N@f3")
	ill := feed.waitAlert(ga, game.KindIllegalMove)
	if ill.Severity != game.Crit || ill.Side != "white" || !strings.Contains(ill.Article, "D2") || ill.Proposal["technical_error"] != "white" {
		t.Fatalf("illegal_move %+v", ill)
	}
	// The arbiter confirms it: technical error number 1; a second one
	// proposes the loss; applying it ends the match.
	reply := func(g string, cmd map[string]any) {
		t.Helper()
		data, _ := json.Marshal(cmd)
		m, err := nc.Request("dgt.arbiter."+g+".cmd", data, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		var r struct {
			OK    bool   `json:"ok"`
			Error string `json:"error"`
		}
		json.Unmarshal(m.Data, &r)
		if !r.OK {
			t.Fatalf("%v: %s", cmd, r.Error)
		}
	}
	reply(ga, map[string]any{"cmd": "apply_penalty", "alert_id": ill.ID})
	te := feed.waitAlert(ga, game.KindTechnicalError)
	if te.TE != 1 || te.Severity != game.Warn || te.Side != "white" {
		t.Fatalf("technical_error %+v", te)
	}
	reply(ga, map[string]any{"cmd": "apply_penalty", "penalty": "technical_error", "side": "white"})
	var loss game.Alert
	waitUntil(t, 45*time.Second, "the second technical error", func() bool {
		feed.mu.Lock()
		defer feed.mu.Unlock()
		for _, x := range feed.alerts {
			if x.Kind == game.KindTechnicalError && x.TE == 2 {
				loss = x
				return true
			}
		}
		return false
	})
	if loss.Proposal["result"] != "0-1" {
		t.Fatalf("second technical error %+v", loss)
	}
	reply(ga, map[string]any{"cmd": "apply_penalty", "alert_id": loss.ID})
	var endA, endB game.Result
	waitUntil(t, 45*time.Second, "both boards' results", func() bool {
		feed.mu.Lock()
		defer feed.mu.Unlock()
		ra, rb := feed.ends[ga], feed.ends[gb]
		if len(ra) == 0 || len(rb) == 0 {
			return false
		}
		endA, endB = ra[len(ra)-1], rb[len(rb)-1]
		return true
	})
	if endA.Result != "0-1" || endB.Result != "1-0" || endB.Termination != teamdrop.TermPartnerBoard {
		t.Errorf("results: board 1 %+v, board 2 %+v", endA, endB)
	}
	// A move on board 2 after the end is not recorded; the arbiter hears.
	b.play("d4e5")
	feed.waitAlert(gb, game.KindNotRecorded)
	if n := len(feed.waitMoves(gb, 6)); n != 6 {
		t.Errorf("board 2 has %d moves after the end", n)
	}

	// The match as BPGN over HTTP (the public copy, a second later).
	var bpgn string
	waitUntil(t, 45*time.Second, "the BPGN", func() bool {
		resp, err := http.Get("http://" + httpAddr + "/bpgn/open2026/1/2.bpgn")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		bpgn = string(body)
		return resp.StatusCode == 200 && strings.Contains(bpgn, "-f8") && strings.Contains(bpgn, "0-1")
	})
	for _, want := range []string{`[WhiteA "An"]`, `[BlackB "Dũng"]`, `[Variant "Bughouse"]`, "2B. P@e7", "1a. d5", "-f8", `[Result "0-1"]`} {
		if !strings.Contains(bpgn, want) {
			t.Errorf("BPGN lacks %q:\n%s", want, bpgn)
		}
	}
	if st, ok := fetchState(t, httpAddr, 2); !ok || !strings.Contains(st.PGN, `[Termination "partner_board"]`) {
		t.Errorf("board 2 public PGN:\n%s", st.PGN)
	}
	if n := feed.count(gb, game.KindIllegalMove); n != 0 {
		t.Errorf("board 2 has %d illegal_move alerts", n)
	}
}

// publicState is what the public PGN feed tells of a board.
type publicState struct {
	PGN string
}

// fetchState reads board n's public PGN over HTTP.
func fetchState(t *testing.T, addr string, n int) (publicState, bool) {
	resp, err := http.Get(fmt.Sprintf("http://%s/pgn/open2026/1/%d.pgn", addr, n))
	if err != nil {
		return publicState{}, false
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return publicState{}, false
	}
	body, _ := io.ReadAll(resp.Body)
	return publicState{PGN: string(body)}, true
}
