package hall

import (
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestHallBusTicksWhenDue: a full bus line (32 boards at 9600 baud), four
// of them playing and the others set up with their clocks stopped. A
// board's session is let time pass only when one of its windows falls due,
// after input, or once a second (due.go), not at every 50 ms tick: every
// move still comes out, once, in order, and the line's idle boards cost
// about one Tick a second each instead of twenty.
func TestHallBusTicksWhenDue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		now := time.Now()
		var es []*emu.Emulator
		var boards []Board
		var games []game.ID
		for i := range 32 {
			e := emu.New(emu.Setup{Serial: fmt.Sprintf("%05d", 201+i), Seed: uint64(i + 1)}, now)
			es = append(es, e)
		}
		srv := servePipe(t, emu.NewLine(now, es...))
		for i := range 32 {
			g := game.ID{Event: "open2026", Round: 6, Board: i + 1}
			b := boardFor(t, fmt.Sprintf("r6-b%d", i+1), g, srv.Open)
			b.Port, b.BusAddress = "line1", uint16(201+i)
			boards, games = append(boards, b), append(games, g)
		}
		sh := startSim(t, t.TempDir(), Options{Boards: boards})
		waitConnected(t, sh.h)
		const playing = 4
		var lines [playing][]string
		start := time.Now()
		for i := range playing {
			lines[i] = longGame(t, uint64(300+i), 12)
			es[i].Schedule(start.Add(time.Duration(i)*400*time.Millisecond), scriptThink(t, 1500*time.Millisecond, lines[i]...))
		}
		t0, ticks0 := time.Now(), sh.h.pace.ticks.Load()
		moves := func(g game.ID) int { r, _ := sh.h.Record(g); return len(r.Moves) }
		waitFor(t, 2*time.Minute, "every game", func() bool {
			for i := range playing {
				if moves(games[i]) < len(lines[i]) {
					return false
				}
			}
			return true
		})
		time.Sleep(5 * time.Second) // simulated: a stray move would show
		synctest.Wait()
		secs := time.Since(t0).Seconds()
		ticks := sh.h.pace.ticks.Load() - ticks0
		for i := range playing {
			if got := sh.journalledUCIs(games[i]); strings.Join(got, " ") != strings.Join(lines[i], " ") {
				t.Errorf("game %s:\n got %v\nwant %v", games[i], got, lines[i])
			}
		}
		perBoard := float64(ticks) / 32 / secs
		t.Logf("%d ticks in %.0f s for 32 boards: %.1f a board a second (every 50 ms: 20)", ticks, secs, perBoard)
		if perBoard > 4 {
			t.Errorf("%.1f ticks a board a second: the sessions are ticked whether due or not", perBoard)
		}
	})
}
