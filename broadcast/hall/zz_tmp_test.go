package hall

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
)

func TestTmpKillGame(t *testing.T) {
	game := []string{"e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "a7a6", "c1e3", "e7e5"}
	dir := t.TempDir()
	srv := testServer(t, filepath.Join(dir, "nats"))
	defer srv.Shutdown()
	g1 := broadcast.GameID{Event: "open2026", Round: 1, Board: 1}
	b1 := newPTYBoard(t, emu.Options{Serial: "00001"})
	d := startDaemon(t, filepath.Join(dir, "data"), srv.Dialer(), 0, boardFor(t, "r1-b1", g1, b1.Open))
	waitConnected(t, d.h)
	pos := rules.Position(chess.StartPosition(chess.Standard))
	var moves []rules.Move
	for _, u := range game {
		m, _ := pos.ParseMove(u)
		moves = append(moves, m)
		pos, _ = pos.Play(m)
	}
	s, _ := emu.GameScript(chess.StartPosition(chess.Standard), moves, emu.GameOptions{Think: func(int) time.Duration { return 1200 * time.Millisecond }})
	t.Logf("script duration %v, last %v", s.Duration(), s[len(s)-3:])
	b1.e.Schedule(time.Now(), s)
	time.Sleep(30 * time.Second)
	r, _ := d.h.Record(g1)
	t.Logf("%v", strings.Join(r.UCIs(), " "))
	t.Logf("placement %v", b1.e.Placement())
}
