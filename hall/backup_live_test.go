package hall

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast/storage"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestBackupWithNATSRestores: the whole data folder (the records, the
// outbox and the embedded NATS server's store) is copied while a daemon
// publishes a game on a pseudo-terminal board, after its fifth ply or
// later; the game is played to its twelfth ply and the machine stops. A
// NATS server and a daemon started on the copy, with the same board: the
// record is the twelve plies (those after the backup read back from the
// board), and the GAMES and PUBLIC streams of the copy hold one MoveEvent
// for each of the twelve plies, in order.
func TestBackupWithNATSRestores(t *testing.T) {
	integration(t)
	dir := t.TempDir()
	data, copied := filepath.Join(dir, "data"), filepath.Join(dir, "restored")
	srv := testServer(t, filepath.Join(data, "nats"))
	board := newPTYBoard(t, emu.Setup{Serial: "04711"})
	g := game.ID{Event: "open2026", Round: 1, Board: 1}
	d := startDaemon(t, data, srv, 0, boardFor(t, "r1-b1", g, board.Open))
	waitConnected(t, d.h)
	board.e.Schedule(time.Now(), scriptThink(t, 700*time.Millisecond, spareGame...))
	waitFor(t, time.Minute, "five plies", func() bool { r, _ := d.h.Record(g); return len(r.Moves) >= 5 })
	rep, err := storage.Backup(data, copied)
	if err != nil {
		t.Fatal(err)
	}
	at, _ := d.h.Record(g)
	t.Logf("backup at ply %d or later: %+v", len(at.Moves), rep)
	handsDone(t, board.e, time.Minute)
	waitFor(t, 20*time.Second, "twelve plies", func() bool { r, _ := d.h.Record(g); return len(r.Moves) == len(spareGame) })
	d.stop()
	srv.Shutdown()

	srv2 := testServer(t, filepath.Join(copied, "nats"))
	t.Cleanup(srv2.Shutdown)
	d2 := startDaemon(t, copied, srv2, 0, boardFor(t, "r1-b1", g, board.Open))
	waitFor(t, 30*time.Second, "the restored game at ply 12", func() bool { r, _ := d2.h.Record(g); return len(r.Moves) == len(spareGame) })
	r, _ := d2.h.Record(g)
	if got := strings.Join(r.UCIs(), " "); got != strings.Join(spareGame, " ") {
		t.Fatalf("restored record\n got %s\nwant %s", got, strings.Join(spareGame, " "))
	}
	nc, err := srv2.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	for _, s := range []struct{ stream, subject string }{
		{"DGT_GAMES", testPrefix + ".game." + g.String() + ".move"},
		{"DGT_PUBLIC", testPrefix + ".public." + g.String() + ".move"},
	} {
		got := moveUCIs(t, streamMsgs(t, nc, s.stream, s.subject, len(spareGame), 30*time.Second))
		if strings.Join(got, " ") != strings.Join(spareGame, " ") {
			t.Errorf("%s after the restore:\n got %s\nwant %s", s.stream, strings.Join(got, " "), strings.Join(spareGame, " "))
		}
	}
}
