package hall

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
)

// TestHallPortVanishes pulls the board's port (the pseudo-terminal closes)
// in the middle of a game and plugs it back (a new one): the board status
// says disconnected then connected, the arbiter gets board_disconnected,
// and the moves, including those made while the port was away, reach the
// GAMES stream exactly once.
func TestHallPortVanishes(t *testing.T) {
	integration(t)
	line := []string{"d2d4", "d7d5", "c2c4", "e7e6", "b1c3", "g8f6", "c1g5", "f8e7"}
	g := game.ID{Event: "open2026", Round: 2, Board: 5}
	f := startHall(t, "r2-b5", g, "00005", nil)
	dir, srv, b, d := f.dir, f.srv, f.b, f.d

	arb, alerts := f.alerts(t)
	status := make(chan *nats.Msg, 64)
	arb.ChanSubscribe(testPrefix+".board.r2-b5.status", status)
	arb.Flush()

	b.e.Schedule(time.Now(), scriptThink(t, 1500*time.Millisecond, line[:3]...))
	waitFor(t, 30*time.Second, "three moves", func() bool {
		r, _ := d.h.Record(g)
		return len(r.Moves) >= 3
	})
	b.Unplug()
	waitFor(t, 20*time.Second, "the disconnection", func() bool { _, dis := d.h.Summary(); return dis == 1 })
	if err := d.h.Health(); err == nil || !strings.Contains(err.Error(), "r2-b5") {
		t.Errorf("health while unplugged: %v", err)
	}
	b.e.Schedule(time.Now(), scriptFrom(t, line[:3], 300*time.Millisecond, line[3])) // made while the port is away
	handsDone(t, b.e, 20*time.Second)
	b.Plug()
	b.e.Schedule(time.Now(), scriptFrom(t, line[:4], 1500*time.Millisecond, line[4:]...))
	waitConnected(t, d.h)

	org := connect(t, srv, "hall", "hall-pw")
	got := moveUCIs(t, streamMsgs(t, org, "DGT_GAMES", testPrefix+".game.open2026.2.5.move", len(line), 40*time.Second))
	if strings.Join(got, " ") != strings.Join(line, " ") {
		files, _ := filepath.Glob(filepath.Join(dir, "data", "record", "r2-b5", "*.hexlog"))
		for _, f := range files {
			b, _ := os.ReadFile(f)
			t.Logf("%s:\n%s", f, b)
		}
		t.Fatalf("moves\n got %v\nwant %v", got, line)
	}
	var seen []bool
	for len(seen) < 2 || seen[len(seen)-1] != true {
		select {
		case m := <-status:
			var st game.BoardStatus
			decode(t, m.Data, &st)
			if len(seen) == 0 && st.Connected {
				continue
			}
			seen = append(seen, st.Connected)
		case <-time.After(10 * time.Second):
			t.Fatalf("board statuses %v, want disconnected then connected", seen)
		}
	}
	if seen[0] {
		t.Errorf("statuses %v", seen)
	}
	for {
		select {
		case m := <-alerts:
			var al game.Alert
			decode(t, m.Data, &al)
			if al.Kind == game.KindBoardDisconnected {
				return
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no board_disconnected alert")
		}
	}
}
