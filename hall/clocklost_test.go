package hall

import (
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestHallClockCableMoves pulls the clock's cable on a pty board in the
// middle of a game and plays three moves (a capture and its recapture
// among them) before putting it back: the moves enter the record while
// the clock is lost (completed as on a board without a clock: no clock
// time), the game goes on by press once the clock is back, and every move
// is recorded and published exactly once, in order.
func TestHallClockCableMoves(t *testing.T) {
	integration(t)
	line := []string{"e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5a5", "d2d4", "g8f6"}
	const before, gap = 2, 3 // plies before the cable is pulled, plies while it is out
	g := game.ID{Event: "open2026", Round: 4, Board: 7}
	f := startHall(t, "r4-b7", g, "00047", nil)
	srv, b, d, moves := f.srv, f.b, f.d, f.moves
	_, alerts := f.alerts(t)

	b.e.Schedule(time.Now(), scriptFrom(t, line[:0], 500*time.Millisecond, line[:before]...))
	waitFor(t, 30*time.Second, "the moves before the gap", func() bool { return moves() >= before })
	b.e.UnplugClock(time.Now())
	waitFor(t, 10*time.Second, "the clock_disconnected alert", func() bool {
		for {
			select {
			case m := <-alerts:
				var al game.Alert
				decode(t, m.Data, &al)
				if al.Kind == game.KindClockDisconnected && al.Severity == game.Crit {
					return true
				}
			default:
				return false
			}
		}
	})
	b.e.Schedule(time.Now(), scriptFrom(t, line[:before], 800*time.Millisecond, line[before:before+gap]...))
	// The last move of the gap is completed by the stable window (3 s).
	waitFor(t, 30*time.Second, "the moves made while the clock was out", func() bool { return moves() >= before+gap })
	b.e.PlugClock(time.Now())
	awaitAlert(t, alerts, 10*time.Second, "the clock back", func(al game.Alert) {
		switch al.Kind {
		case game.KindFlagFall, game.KindBothFlags, game.KindClockDefect, game.KindIllegalMove:
			t.Errorf("alert %s: %s", al.Kind, al.Message)
		}
	}, alertIs(game.KindClockDisconnected, game.Info))
	b.e.Schedule(time.Now(), scriptFrom(t, line[:before+gap], 500*time.Millisecond, line[before+gap:]...))
	if !waitUntil(30*time.Second, func() bool { return moves() >= len(line) }) {
		r, _ := d.h.Record(g)
		t.Fatalf("moves %v, want %v", r.UCIs(), line)
	}
	// An observation window, not a synchronisation: a stray second
	// completion would come from the tracker's windows (up to its 3 s
	// stable window) after the last move.
	time.Sleep(time.Second)

	r, _ := d.h.Record(g)
	if got := strings.Join(r.UCIs(), " "); got != strings.Join(line, " ") {
		t.Fatalf("record\n got %s\nwant %s", got, strings.Join(line, " "))
	}
	for i, p := range r.Moves {
		inGap := i >= before && i < before+gap
		if inGap != (p.Clock == nil) {
			t.Errorf("ply %d %s: clock %v (made while the clock was out: %v)", i+1, p.UCI, p.Clock, inGap)
		}
	}
	expectPublished(t, srv, testPrefix+".game.open2026.4.7.move", line)
	for done := false; !done; {
		select {
		case m := <-alerts:
			var al game.Alert
			decode(t, m.Data, &al)
			switch al.Kind {
			case game.KindFlagFall, game.KindBothFlags, game.KindClockDefect, game.KindIllegalMove:
				t.Errorf("alert %s: %s", al.Kind, al.Message)
			}
		case <-time.After(500 * time.Millisecond):
			done = true
		}
	}
}

// TestHallPortAwayCatchUp unplugs a pty board (its port closes) and
// plays four plies with captures, 800 ms apart, pressing the clock, before
// plugging it back: the board's full read after the reconnect catches all
// of them up; each is recorded and published once, in order, and the
// presses made meanwhile raise no clock alert.
func TestHallPortAwayCatchUp(t *testing.T) {
	integration(t)
	line := []string{"e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5a5", "d2d4", "g8f6"}
	const before, gap = 2, 4
	g := game.ID{Event: "open2026", Round: 4, Board: 8}
	f := startHall(t, "r4-b8", g, "00048", nil)
	srv, b, d, moves := f.srv, f.b, f.d, f.moves
	_, alerts := f.alerts(t)

	b.e.Schedule(time.Now(), scriptFrom(t, line[:0], 500*time.Millisecond, line[:before]...))
	waitFor(t, 30*time.Second, "the moves before the gap", func() bool { return moves() >= before })
	b.Unplug()
	waitFor(t, 20*time.Second, "the disconnection", func() bool { _, dis := d.h.Summary(); return dis == 1 })
	b.e.Schedule(time.Now(), scriptFrom(t, line[:before], 800*time.Millisecond, line[before:before+gap]...))
	handsDone(t, b.e, 30*time.Second) // four plies, 800 ms think and the hands
	b.Plug()
	waitConnected(t, d.h)
	if !waitUntil(20*time.Second, func() bool { return moves() >= before+gap-1 }) {
		r, _ := d.h.Record(g)
		t.Fatalf("after the reconnect: moves %v, want %v", r.UCIs(), line[:before+gap])
	}
	b.e.Schedule(time.Now(), scriptFrom(t, line[:before+gap], 500*time.Millisecond, line[before+gap:]...))
	if !waitUntil(30*time.Second, func() bool { return moves() >= len(line) }) {
		r, _ := d.h.Record(g)
		t.Fatalf("moves %v, want %v", r.UCIs(), line)
	}
	time.Sleep(time.Second) // an observation window: a stray completion would show
	r, _ := d.h.Record(g)
	if got := strings.Join(r.UCIs(), " "); got != strings.Join(line, " ") {
		t.Fatalf("record\n got %s\nwant %s", got, strings.Join(line, " "))
	}
	expectPublishedOnlyDisconnects(t, srv, alerts, testPrefix+".game.open2026.4.8.move", line)
}
