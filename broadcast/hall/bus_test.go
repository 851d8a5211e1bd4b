package hall

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/dgt/pty"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestHallBusLine: two boards on one DGT bus line (emulated, on a real
// pseudo-terminal) each play their own game; one goroutine owns the line
// and both games reach the GAMES stream move by move.
func TestHallBusLine(t *testing.T) {
	dir := t.TempDir()
	srv := testServer(t, filepath.Join(dir, "nats"))
	defer srv.Shutdown()
	bl := newTestBusLine(t, 4, 100)
	e1, e2 := bl.e1, bl.e2
	b1, b2 := bl.b1, bl.b2
	d := startDaemon(t, filepath.Join(dir, "data"), srv, 0, b1, b2)
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

// testBusLine is two emulated boards on one DGT bus line, served on a real
// pseudo-terminal until the test ends, and the hall boards reading them.
type testBusLine struct {
	line   *emu.Line
	e1, e2 *emu.Emulator
	g1, g2 game.ID
	b1, b2 Board
}

// newTestBusLine starts a bus line with boards at addresses (and serials
// 00<base+1>, 00<base+2>) base+1 and base+2 playing games open2026.<round>.1
// and .2.
func newTestBusLine(t *testing.T, round, base int) testBusLine {
	t.Helper()
	now := time.Now()
	l := testBusLine{
		e1: emu.New(emu.Options{Serial: fmt.Sprintf("%05d", base+1), Seed: 1}, now),
		e2: emu.New(emu.Options{Serial: fmt.Sprintf("%05d", base+2), Seed: 2}, now),
		g1: game.ID{Event: "open2026", Round: round, Board: 1},
		g2: game.ID{Event: "open2026", Round: round, Board: 2},
	}
	l.line = emu.NewLine(now, l.e1, l.e2)
	master, path, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { emu.ServePTY(ctx, master, l.line) })
	t.Cleanup(func() { cancel(); wg.Wait() })
	open := func(context.Context) (io.ReadWriteCloser, error) {
		return os.OpenFile(path, os.O_RDWR|syscall.O_NOCTTY, 0)
	}
	l.b1 = boardFor(t, fmt.Sprintf("r%d-b1", round), l.g1, open)
	l.b2 = boardFor(t, fmt.Sprintf("r%d-b2", round), l.g2, open)
	l.b1.Port, l.b1.BusAddress = "line1", uint16(base+1)
	l.b2.Port, l.b2.BusAddress = "line1", uint16(base+2)
	return l
}
