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

// TestHallBusBoardUnplugged: of two boards on one DGT bus line (emulated,
// served over a pipe through the bus code), one is unplugged from the line
// mid-game, a move is made on it meanwhile, and it is plugged back: its
// game gets exactly one board_disconnected alert (crit) and one info alert
// when the line finds it again; the other game gets none; no move of
// either game is lost. It runs in simulated time (testing/synctest), so a
// loaded machine cannot starve the emulated line into false losses (it
// was flaky under -race on a loaded machine with real ptys).
func TestHallBusBoardUnplugged(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		now := time.Now()
		e1 := emu.New(emu.Setup{Serial: "00201", Seed: 1}, now)
		e2 := emu.New(emu.Setup{Serial: "00202", Seed: 2}, now)
		line := emu.NewLine(now, e1, e2)
		srv := servePipe(t, line)
		g1 := game.ID{Event: "open2026", Round: 5, Board: 1}
		g2 := game.ID{Event: "open2026", Round: 5, Board: 2}
		b1 := boardFor(t, "r5-b1", g1, srv.Open)
		b2 := boardFor(t, "r5-b2", g2, srv.Open)
		b1.Port, b1.BusAddress = "line1", 201
		b2.Port, b2.BusAddress = "line1", 202
		sh := startSim(t, t.TempDir(), Options{Boards: []Board{b1, b2}, BusRediscover: time.Second})
		h := sh.h
		waitConnected(t, h)
		moves := func(g game.ID) int { r, _ := h.Record(g); return len(r.Moves) }

		game1 := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"}
		game2 := []string{"d2d4", "g8f6", "c2c4", "e7e6", "g1f3", "d7d5"}
		e1.Schedule(time.Now(), scriptThink(t, time.Second, game1...))
		e2.Schedule(time.Now(), scriptFrom(t, nil, time.Second, game2[:2]...))
		waitFor(t, 30*time.Second, "board 2's two moves", func() bool { return moves(g2) >= 2 })
		line.Unplug(202)
		waitFor(t, 20*time.Second, "board 2 lost", func() bool { _, dis := h.Summary(); return dis == 1 })
		e2.Schedule(time.Now(), scriptFrom(t, game2[:2], 300*time.Millisecond, game2[2])) // made while it is away
		handsDone(t, e2, 20*time.Second)
		line.Plug(202)
		waitConnected(t, h)
		e2.Schedule(time.Now(), scriptFrom(t, game2[:3], time.Second, game2[3:]...))

		for _, c := range []struct {
			g    game.ID
			want []string
		}{{g1, game1}, {g2, game2}} {
			if !waitUntil(40*time.Second, func() bool { return moves(c.g) >= len(c.want) }) {
				r, _ := h.Record(c.g)
				t.Fatalf("game %s: moves %v, want %v", c.g, r.UCIs(), c.want)
			}
		}
		time.Sleep(5 * time.Second) // simulated: any later alert or stray move would show
		synctest.Wait()
		for _, c := range []struct {
			g    game.ID
			want []string
		}{{g1, game1}, {g2, game2}} {
			r, _ := h.Record(c.g)
			if got := strings.Join(r.UCIs(), " "); got != strings.Join(c.want, " ") {
				t.Errorf("game %s: moves %s, want %s", c.g, got, strings.Join(c.want, " "))
			}
		}
		var seen []string
		for _, ob := range sh.observed() {
			al, ok := ob.Payload.(game.Alert)
			if !ok {
				continue
			}
			switch al.Kind {
			case game.KindBoardDisconnected, game.KindClockDisconnected:
				seen = append(seen, fmt.Sprintf("%s:%s/%s", al.Game, al.Kind, al.Severity))
			case game.KindClockDefect, game.KindFlagFall:
				t.Errorf("alert %s %s: %s", al.Game, al.Kind, al.Message)
			}
		}
		want := "open2026.5.2:board_disconnected/crit open2026.5.2:board_disconnected/info"
		if got := strings.Join(seen, " "); got != want {
			t.Errorf("device alerts\n got %s\nwant %s", got, want)
		}
	})
}
