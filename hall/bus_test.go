package hall

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestHallBusLine: two boards on one DGT bus line (emulated, served over
// a pipe through the bus code) each play their own game; one goroutine
// owns the line and both games are journalled for NATS move by move,
// each move once, in order. Simulated time (testing/synctest): the
// emulated line's timing cannot be starved by a loaded machine.
func TestHallBusLine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		now := time.Now()
		e1 := emu.New(emu.Setup{Serial: "00101", Seed: 1}, now)
		e2 := emu.New(emu.Setup{Serial: "00102", Seed: 2}, now)
		srv := servePipe(t, emu.NewLine(now, e1, e2))
		g1 := game.ID{Event: "open2026", Round: 4, Board: 1}
		g2 := game.ID{Event: "open2026", Round: 4, Board: 2}
		b1 := boardFor(t, "r4-b1", g1, srv.Open)
		b2 := boardFor(t, "r4-b2", g2, srv.Open)
		b1.Port, b1.BusAddress = "line1", 101
		b2.Port, b2.BusAddress = "line1", 102
		sh := startSim(t, t.TempDir(), Options{Boards: []Board{b1, b2}})
		waitConnected(t, sh.h)

		game1 := []string{"e2e4", "e7e5", "g1f3", "b8c6"}
		game2 := []string{"d2d4", "g8f6", "c2c4", "e7e6"}
		start := time.Now()
		e1.Schedule(start, scriptThink(t, 800*time.Millisecond, game1...))
		e2.Schedule(start.Add(300*time.Millisecond), scriptThink(t, 800*time.Millisecond, game2...))
		moves := func(g game.ID) int { r, _ := sh.h.Record(g); return len(r.Moves) }
		waitFor(t, 40*time.Second, "both games", func() bool { return moves(g1) >= len(game1) && moves(g2) >= len(game2) })
		time.Sleep(5 * time.Second) // simulated: a stray move would show
		synctest.Wait()
		for _, c := range []struct {
			g    game.ID
			want []string
		}{{g1, game1}, {g2, game2}} {
			if got := sh.journalledUCIs(c.g); strings.Join(got, " ") != strings.Join(c.want, " ") {
				t.Errorf("game %s on the bus:\n got %v\nwant %v", c.g, got, c.want)
			}
		}
	})
}
