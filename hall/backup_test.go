package hall

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast/storage"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/hall/gamestore"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestBackupMidGameRestores: a backup of the data folder is taken while
// the hall runs a game (storage.Backup, as "dgtbridge backup" does), the
// game goes on, and the machine fails four plies later. A hall started on
// the backup, in another folder, with the same board: the record has
// every ply of the game in order, those after the backup read back from
// the board, and the moves played on it afterwards; its outbox holds one
// MoveEvent for each ply, those of the backup's plies the same as the
// first hall's (time, clock), none lost, none with two contents.
func TestBackupMidGameRestores(t *testing.T) {
	game12 := []string{"e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "a7a6", "c1e3", "e7e5"}
	// Also with the journal compacted into the record files every
	// 300 ms: segments are deleted and record files replaced around the
	// copy.
	for _, every := range []time.Duration{0, 300 * time.Millisecond} {
		t.Run("compact_every="+every.String(), func(t *testing.T) { backupMidGame(t, game12, every) })
	}
}

func backupMidGame(t *testing.T, game12 []string, compactEvery time.Duration) {
	synctest.Test(t, func(t *testing.T) {
		dirA, dirB := t.TempDir(), t.TempDir()
		g := game.ID{Event: "open2026", Round: 1, Board: 1}
		e := emu.New(emu.Setup{Serial: "04711"}, time.Now())
		board := func() Board { return boardFor(t, "r1-b1", g, servePipe(t, e).Open) }
		a := startSim(t, dirA, Options{Boards: []Board{board()}, CompactEvery: compactEvery})
		waitConnected(t, a.h)

		pos := rules.Position(chess.StartPosition(chess.Standard))
		var moves []rules.Move
		for _, u := range game12 {
			m := mustMove(t, pos, u)
			moves = append(moves, m)
			pos, _ = pos.Play(m)
		}
		s, err := emu.GameScript(chess.StartPosition(chess.Standard), moves, emu.GameOptions{
			Think: func(int) time.Duration { return 1200 * time.Millisecond }})
		if err != nil {
			t.Fatal(err)
		}
		e.Schedule(time.Now(), s)
		moved := func(h *Hall, n int) func() bool {
			return func() bool { r, _ := h.Record(g); return len(r.Moves) >= n }
		}
		waitFor(t, time.Minute, "four plies", moved(a.h, 4))
		synctest.Wait() // the writer has journalled what the hall has
		atBackup, _ := a.h.Record(g)
		if _, err := storage.Backup(filepath.Join(dirA, "data"), filepath.Join(dirB, "data")); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(gamestore.RecordPath(filepath.Join(dirB, "data", "games"), g)); compactEvery > 0 && err != nil {
			t.Fatalf("compaction every %s: no record file in the backup: %v", compactEvery, err)
		}
		waitFor(t, time.Minute, "eight plies", moved(a.h, 8))
		first := map[int]game.MoveEvent{}
		for _, ev := range a.journalled(g) { // stops the first hall
			first[ev.Ply] = ev
		}

		b := startSim(t, dirB, Options{Boards: []Board{board()}, CompactEvery: compactEvery})
		handsDone(t, e, time.Minute)
		ok := waitUntil(10*time.Second, moved(b.h, len(game12)))
		r, _ := b.h.Record(g)
		if got := strings.Join(r.UCIs(), " "); !ok || got != strings.Join(game12, " ") {
			t.Fatalf("restored hall's record (backup at ply %d):\n got %s\nwant %s", len(atBackup.Moves), got, strings.Join(game12, " "))
		}
		byPly := map[int]game.MoveEvent{}
		for _, ev := range b.journalled(g) {
			if prev, dup := byPly[ev.Ply]; dup && (prev.UCI != ev.UCI || !prev.At.Equal(ev.At.Time)) {
				t.Errorf("ply %d handed twice with two contents: %s at %s and %s at %s", ev.Ply, prev.UCI, prev.At, ev.UCI, ev.At)
			}
			byPly[ev.Ply] = ev
		}
		for p := 1; p <= len(game12); p++ {
			ev, ok := byPly[p]
			if !ok || ev.UCI != game12[p-1] {
				t.Errorf("ply %d: MoveEvent %+v (present %v), want %s", p, ev, ok, game12[p-1])
				continue
			}
			if p <= len(atBackup.Moves) {
				if was := first[p]; !was.At.Equal(ev.At.Time) || was.Clock == nil != (ev.Clock == nil) || was.Clock != nil && *was.Clock != *ev.Clock {
					t.Errorf("ply %d in the backup: restored MoveEvent %+v, the first hall's %+v", p, ev, was)
				}
			}
		}
		if len(byPly) != len(game12) {
			t.Errorf("%d plies handed, want %d", len(byPly), len(game12))
		}
	})
}
