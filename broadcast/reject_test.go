package broadcast

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestRejectedMessageSetAside: a game state the server can never take (a
// 1.1 MB player name puts it over the server's 1 MB max payload) is set
// aside: written to rejected.jsonl with the reason, named in an alert for
// the arbiter, and the messages behind it flow. Before, it was retried
// for ever and every board's messages waited behind it (here: 0 of the 20
// moves of two other games arrived; now 20 of 20, and game 1's move too).
func TestRejectedMessageSetAside(t *testing.T) {
	srv := startServer(t, t.TempDir())
	defer srv.Shutdown()
	dir := t.TempDir()
	p := newPublisher(t, dir, srv.Dialer(), 0)
	runPublisher(t, p)
	huge := strings.Repeat("x", 1100<<10)
	g1 := testGame
	if err := p.PublishState(game.GameState{Game: g1, Event: g1.Event, Round: 1, Board: 1, White: huge, Black: "B", Result: "*", UpdatedAt: game.T(time.Now())}); err != nil {
		t.Fatal(err)
	}
	var others []game.ID
	for b := 2; b <= 3; b++ {
		others = append(others, game.ID{Event: "open2026", Round: 1, Board: b})
	}
	for i := 1; i <= 10; i++ {
		for _, g := range others {
			ev := move(i, 0)
			ev.Game = g
			if err := p.PublishMove(ev); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := p.PublishMove(move(1, 0)); err != nil {
		t.Fatal(err)
	}
	nc := srv.mustConnect(t)
	for _, g := range others {
		if got := plies(t, streamMsgs(t, nc, "DGT_GAMES", "dgt.game."+g.String()+".move", 10, 10*time.Second)); fmt.Sprint(got) != fmt.Sprint(seq(1, 10)) {
			t.Errorf("game %s: plies %v arrived, want 1…10", g, got)
		}
	}
	if got := plies(t, streamMsgs(t, nc, "DGT_GAMES", "dgt.game."+g1.String()+".move", 1, 10*time.Second)); fmt.Sprint(got) != "[1]" {
		t.Errorf("game %s: plies %v arrived, want [1]", g1, got)
	}
	waitFor(t, "outbox empty", 10*time.Second, func() bool { return p.Pending() == 0 })

	// Set aside: the state and its public copy, each once, with the reason.
	f, err := os.Open(filepath.Join(dir, rejectedFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var kept []rejection
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		var r rejection
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("rejected.jsonl: %v", err)
		}
		kept = append(kept, r)
	}
	if len(kept) != 2 || kept[0].Record.Subject != "$KV.dgt_games.open2026.1.1" || kept[1].Record.Subject != "dgt.public.open2026.1.1.state" ||
		!strings.Contains(kept[0].Reason, "maximum payload") || len(kept[0].Record.Data) < 1100<<10 {
		for _, r := range kept {
			t.Logf("kept %s %d bytes: %s", r.Record.Subject, len(r.Record.Data), r.Reason)
		}
		t.Errorf("%d record(s) set aside, want the state and its public copy", len(kept))
	}
	if n := p.Rejected(); n != 2 {
		t.Errorf("Rejected() = %d, want 2", n)
	}
	alerts := streamMsgs(t, nc, "DGT_ALERTS", "", 1, 10*time.Second)
	if len(alerts) != 1 {
		t.Fatalf("%d alerts, want 1", len(alerts))
	}
	var a struct{ ID, Game, Kind, Severity, Message string }
	if err := json.Unmarshal(alerts[0].Data(), &a); err != nil || a.Game != g1.String() || a.Kind != game.KindMessageRejected ||
		!strings.Contains(a.Message, rejectedFile) || !strings.HasPrefix(a.ID, g1.String()+"."+game.KindMessageRejected+".") {
		t.Errorf("alert %s", alerts[0].Data())
	}
}
