package hall

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/clock"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestHallDeviceAlerts unplugs an emulated board (its pty closes) in the
// middle of a game and plugs it back, then, while White thinks, pulls the
// clock's cable and puts it back: the arbiter subject gets exactly one board_disconnected alert
// (crit) and one "connected again" (info), then exactly one
// clock_disconnected (crit, with the last reliable times proposed) and one
// info when it is back; the board's "no clock" reading raises no flag
// fall; every move, including those made while the port was away, is
// recorded once.
func TestHallDeviceAlerts(t *testing.T) {
	integration(t)
	line := []string{"e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6"}
	g := game.ID{Event: "open2026", Round: 3, Board: 2}
	f := startHall(t, "r3-b2", g, "00032", func(hb *Board) { hb.Session.TimeControl = clock.MustParse("5400+30") })
	b, d, moves := f.b, f.d, f.moves
	arb, alerts := f.alerts(t)

	b.e.Schedule(time.Now(), scriptFrom(t, line[:0], 800*time.Millisecond, line[:2]...))
	waitFor(t, 30*time.Second, "two moves", func() bool { return moves() >= 2 })
	b.Unplug()
	waitFor(t, 20*time.Second, "the disconnection", func() bool { _, dis := d.h.Summary(); return dis == 1 })
	b.e.Schedule(time.Now(), scriptFrom(t, line[:2], 300*time.Millisecond, line[2])) // made while the port is away
	handsDone(t, b.e, 20*time.Second)
	b.Plug()
	waitConnected(t, d.h)
	b.e.Schedule(time.Now(), scriptFrom(t, line[:3], 800*time.Millisecond, line[3:]...))
	if !waitUntil(30*time.Second, func() bool { return moves() >= len(line) }) {
		r, _ := d.h.Record(g)
		t.Fatalf("moves %v, want %v", r.UCIs(), line)
	}
	var seen []string
	var clockLost game.Alert
	keep := func(al game.Alert) {
		switch al.Kind {
		case game.KindBoardDisconnected, game.KindClockDisconnected:
			seen = append(seen, fmt.Sprintf("%s/%s", al.Kind, al.Severity))
			if al.Kind == game.KindClockDisconnected && al.Severity == game.Crit {
				clockLost = al
			}
		case game.KindFlagFall, game.KindBothFlags, game.KindClockDefect:
			t.Errorf("alert %s: %s", al.Kind, al.Message)
		}
	}
	// The clock's cable is pulled while White thinks, and put back.
	b.e.UnplugClock(time.Now())
	awaitAlert(t, alerts, 20*time.Second, "the clock_disconnected alert", keep, alertIs(game.KindClockDisconnected, game.Crit))
	b.e.PlugClock(time.Now())
	awaitAlert(t, alerts, 20*time.Second, "the clock back", keep, alertIs(game.KindClockDisconnected, game.Info))

	r, _ := d.h.Record(g)
	if got := strings.Join(r.UCIs(), " "); got != strings.Join(line, " ") {
		t.Errorf("moves\n got %s\nwant %s", got, strings.Join(line, " "))
	}
	quiesce(t, d, arb)
	for done := false; !done; {
		select {
		case m := <-alerts:
			var al game.Alert
			decode(t, m.Data, &al)
			keep(al)
		default:
			done = true
		}
	}
	want := "board_disconnected/crit board_disconnected/info clock_disconnected/crit clock_disconnected/info"
	if got := strings.Join(seen, " "); got != want {
		t.Errorf("device alerts\n got %s\nwant %s", got, want)
	}
	if clockLost.Proposal["white_ms"] == nil || !strings.Contains(clockLost.Message, "no clock connected") {
		t.Errorf("clock_disconnected alert %v: %s", clockLost.Proposal, clockLost.Message)
	}
}

// scriptFrom is the emulator script of ucis played after the moves
// before, each after think.
func scriptFrom(t *testing.T, before []string, think time.Duration, ucis ...string) emu.Script {
	t.Helper()
	pos := rules.Position(chess.StartPosition(chess.Standard))
	for _, u := range before {
		pos, _ = pos.Play(mustMove(t, pos, u))
	}
	start := pos
	var moves []rules.Move
	for _, u := range ucis {
		m := mustMove(t, pos, u)
		moves = append(moves, m)
		pos, _ = pos.Play(m)
	}
	s, err := emu.GameScript(start, moves, emu.GameOptions{Think: func(int) time.Duration { return think },
		Handling: func(int) emu.Handling { return emu.Handling{Speed: 2} }})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// waitUntil polls ok until it holds (true) or d has passed (false).
func waitUntil(d time.Duration, ok func() bool) bool {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if ok() {
			return true
		}
	}
	return ok()
}
