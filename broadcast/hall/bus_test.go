package hall

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/dgt/pty"
)

// TestHallBusLine: two boards on one DGT bus line (emulated, on a real
// pseudo-terminal) each play their own game; one goroutine owns the line
// and both games reach the GAMES stream move by move.
func TestHallBusLine(t *testing.T) {
	dir := t.TempDir()
	srv := testServer(t, filepath.Join(dir, "nats"))
	defer srv.Shutdown()
	now := time.Now()
	e1 := emu.New(emu.Options{Serial: "00101", Seed: 1}, now)
	e2 := emu.New(emu.Options{Serial: "00102", Seed: 2}, now)
	line := emu.NewLine(now, e1, e2)
	master, path, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { emu.ServePTY(ctx, master, line) })
	defer func() { cancel(); wg.Wait() }()
	open := func(context.Context) (io.ReadWriteCloser, error) {
		return os.OpenFile(path, os.O_RDWR|syscall.O_NOCTTY, 0)
	}
	g1 := broadcast.GameID{Event: "open2026", Round: 4, Board: 1}
	g2 := broadcast.GameID{Event: "open2026", Round: 4, Board: 2}
	b1, b2 := boardFor(t, "r4-b1", g1, open), boardFor(t, "r4-b2", g2, open)
	b1.Port, b1.BusAddress = "line1", 101
	b2.Port, b2.BusAddress = "line1", 102
	d := startDaemon(t, filepath.Join(dir, "data"), srv.Dialer(), 0, b1, b2)
	waitConnected(t, d.h)

	game1 := []string{"e2e4", "e7e5", "g1f3", "b8c6"}
	game2 := []string{"d2d4", "g8f6", "c2c4", "e7e6"}
	start := time.Now()
	e1.Schedule(start, scriptThink(t, 800*time.Millisecond, game1...))
	e2.Schedule(start.Add(300*time.Millisecond), scriptThink(t, 800*time.Millisecond, game2...))
	org := connect(t, srv, "hall", "hall-pw")
	for _, c := range []struct {
		g    string
		want []string
	}{{"open2026.4.1", game1}, {"open2026.4.2", game2}} {
		got := moveUCIs(t, streamMsgs(t, org, "DGT_GAMES", testPrefix+".game."+c.g+".move", len(c.want), 40*time.Second))
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("game %s on the bus:\n got %v\nwant %v", c.g, got, c.want)
		}
	}
}
