package hall

import (
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast/storage/storagetest"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/gamestore"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// simBoards is one board on its own line and two on a DGT bus line, each
// served over pipes, for game rounds `round`.
type simBoards struct {
	es     []*emu.Emulator
	boards []Board
	games  []game.ID
}

func newSimBoards(t *testing.T, round int) simBoards {
	t.Helper()
	now := time.Now()
	var sb simBoards
	single := emu.New(emu.Setup{Serial: fmt.Sprintf("%05d", 300+round)}, now)
	b1 := emu.New(emu.Setup{Serial: fmt.Sprintf("%05d", 310+round), Seed: 1}, now)
	b2 := emu.New(emu.Setup{Serial: fmt.Sprintf("%05d", 320+round), Seed: 2}, now)
	sb.es = []*emu.Emulator{single, b1, b2}
	for i := range 3 {
		sb.games = append(sb.games, game.ID{Event: "open2026", Round: round, Board: i + 1})
	}
	sb.boards = append(sb.boards, boardFor(t, fmt.Sprintf("r%d-b1", round), sb.games[0], servePipe(t, single).Open))
	line := servePipe(t, emu.NewLine(now, b1, b2))
	for i, e := range []*emu.Emulator{b1, b2} {
		b := boardFor(t, fmt.Sprintf("r%d-b%d", round, i+2), sb.games[i+1], line.Open)
		b.Port, b.BusAddress = "line1", e.Address()
		sb.boards = append(sb.boards, b)
	}
	return sb
}

// storageGames are the three boards' games.
var storageGames = [][]string{
	{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6"},
	{"d2d4", "g8f6", "c2c4", "e7e6", "g1f3", "d7d5", "b1c3", "f8e7"},
	{"c2c4", "e7e5", "b1c3", "g8f6", "g1f3", "b8c6", "g2g3", "d7d5"},
}

// play schedules the boards' games, a ply every think.
func (sb simBoards) play(t *testing.T, think time.Duration) {
	for i, e := range sb.es {
		e.Schedule(time.Now(), scriptThink(t, think, storageGames[i]...))
	}
}

// tracked is how many moves the hall's record of game i holds.
func (sb simBoards) tracked(h *Hall, i int) int {
	r, _ := h.Record(sb.games[i])
	return len(r.Moves)
}

// published counts the MoveEvents observed (handed to the publisher).
func (s *simHall) published() int {
	n := 0
	for _, ob := range s.observed() {
		if _, ok := ob.Payload.(game.MoveEvent); ok {
			n++
		}
	}
	return n
}

// alerts returns the observed alerts of kind.
func (s *simHall) alerts(kind string) []game.Alert {
	var out []game.Alert
	for _, ob := range s.observed() {
		if a, ok := ob.Payload.(game.Alert); ok && a.Kind == kind {
			out = append(out, a)
		}
	}
	return out
}

// checkJournalled stops the hall and checks that each game's moves were
// journalled for NATS exactly once, in order.
func (s *simHall) checkJournalled(t *testing.T, sb simBoards) {
	t.Helper()
	for i, g := range sb.games {
		got := s.journalledUCIs(g)
		if strings.Join(got, " ") != strings.Join(storageGames[i], " ") {
			t.Errorf("game %s: journalled for NATS\n got %v\nwant %v", g, got, storageGames[i])
		}
	}
}

// TestStalledDiskDoesNotStopBoards: every fsync stalls for a
// minute (journal and outbox) while three boards, one on its own line and
// two on a bus line, play eight plies each. Before, the record was saved on
// the board's own goroutine (57 of 63 line goroutines waited in the save at
// 2,000 boards), so a stalled fsync stopped reading that board or line.
// Now every move is tracked (in the hall's records) while the disk is
// stalled, nothing is published before it is durable, and once the disk
// answers all 24 moves are published, each game's once and in order.
func TestStalledDiskDoesNotStopBoards(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fs := storagetest.New(nil)
		sb := newSimBoards(t, 6)
		sh := startSim(t, t.TempDir(), Options{Boards: sb.boards, FS: fs})
		waitConnected(t, sh.h)
		release := fs.Stall(storagetest.Sync, "")
		stalledAt := time.Now()
		sb.play(t, time.Second)
		waitFor(t, time.Minute, "every move tracked while the disk is stalled", func() bool {
			return sb.tracked(sh.h, 0) == 8 && sb.tracked(sh.h, 1) == 8 && sb.tracked(sh.h, 2) == 8
		})
		if took := time.Since(stalledAt); took > 40*time.Second {
			t.Errorf("tracking took %v with the disk stalled", took)
		}
		if n := sh.published(); n != 0 {
			t.Errorf("%d moves published before they were durable", n)
		}
		time.Sleep(time.Minute - time.Since(stalledAt))
		release()
		waitFor(t, time.Minute, "every move published once the disk answers", func() bool { return sh.published() == 24 })
		sh.checkJournalled(t, sb)
	})
}

// TestFailedWritesLoseNothing: mid-game the disk fails for 20
// s (ENOSPC on the journal's writes, EIO on its fsyncs, EMFILE when it
// needs a new segment, or ENOSPC on the outbox's writes) while three boards
// go on playing. Before, a failed save dropped what that input produced
// (permanent gaps in a game's published plies) and /healthz said 200. Now
// the boards go on being tracked, Health names the failure (503) and each
// game waiting gets a storage_failed alert; once writes succeed every move
// is published exactly once, in order, each waiting game gets an info
// alert, and Health is clear a minute after the last failure.
func TestFailedWritesLoseNothing(t *testing.T) {
	for _, c := range []struct {
		name string
		op   storagetest.Op
		path string
		err  error
	}{
		{"journal ENOSPC", storagetest.Write, "/games/journal/", syscall.ENOSPC},
		{"journal fsync EIO", storagetest.Sync, "/games/journal/", syscall.EIO},
		{"journal EMFILE", storagetest.Open, "/games/journal/", syscall.EMFILE},
		{"outbox ENOSPC", storagetest.Write, "/data/outbox/", syscall.ENOSPC},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				fs := storagetest.New(nil)
				sb := newSimBoards(t, 7)
				sh := startSim(t, t.TempDir(), Options{Boards: sb.boards, FS: fs})
				waitConnected(t, sh.h)
				sb.play(t, 2*time.Second)
				waitFor(t, time.Minute, "two moves of each game published", func() bool { return sh.published() >= 6 })
				fs.Fail(c.op, c.path, c.err)
				if c.op == storagetest.Open {
					// A new segment is opened after a failed write: make
					// one fail, then only the opens.
					fs.Fail(storagetest.Write, c.path, syscall.EIO)
					waitFor(t, 10*time.Second, "a failed journal write", func() bool { return fs.Failed(storagetest.Write) > 0 })
					fs.Heal(storagetest.Write)
				}
				failedAt := time.Now()
				waitFor(t, 10*time.Second, "the failure in Health", func() bool {
					err := sh.h.Health()
					return err != nil && strings.Contains(err.Error(), "storage") && strings.Contains(err.Error(), c.err.Error())
				})
				time.Sleep(20*time.Second - time.Since(failedAt))
				for i := range 3 {
					if n := sb.tracked(sh.h, i); n < 6 {
						t.Errorf("game %d: %d moves tracked after 20 s of failing writes", i+1, n)
					}
				}
				journal := strings.Contains(c.path, "journal")
				if warn := sh.alerts(game.KindStorageFailed); journal && len(warn) != 3 {
					// (When the outbox fails, the alerts wait for it too.)
					t.Errorf("storage_failed alerts while the journal fails: %+v", warn)
				}
				fs.Heal()
				waitFor(t, time.Minute, "every move published", func() bool { return sh.published() == 24 })
				sev := map[string]int{}
				for _, a := range sh.alerts(game.KindStorageFailed) {
					sev[a.Severity]++
				}
				if sev[game.Warn] == 0 || sev[game.Info] != sev[game.Warn] {
					t.Errorf("storage_failed alerts %v: want a warning for each game that waited, and an info when writes succeeded again", sev)
				}
				if err := sh.h.Health(); err == nil {
					t.Error("Health clear at once: it must say a write failed within the last minute")
				}
				time.Sleep(61 * time.Second)
				if err := sh.h.Health(); err != nil {
					t.Errorf("Health a minute after the disk recovered: %v", err)
				}
				sh.checkJournalled(t, sb)
			})
		})
	}
}

// TestStopKeepsTheDrainTimeout: a daemon stopping while its journal
// cannot be written (a full disk) and a compaction hangs (record files
// whose fsync never returns) stops within Options.DrainTimeout, so that a
// service manager's stop timeout (TimeoutStopSec=20s in our unit, drain
// 15 s) is kept. Before, the drain and then the wait for the compaction
// took twice the drain time.
func TestStopKeepsTheDrainTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fs := storagetest.New(nil)
		dir := t.TempDir()
		j, l, err := gamestore.Open(fs, filepath.Join(dir, "journal"), dir)
		if err != nil {
			t.Fatal(err)
		}
		const drain = 5 * time.Second
		w := newWriter(writerOptions{fs: fs, gamesDir: dir, sink: &recordingSink{}, log: discardLog(), now: time.Now,
			window: DefaultCommitWindow, compactEvery: time.Minute, compactBytes: DefaultCompactBytes, drain: drain}, j, l)
		go w.run()
		r, _ := playedRecord(t, game.ID{Event: "e", Round: 1, Board: 1}, "e2e4")
		w.submit(&change{game: r.Info.Game, delta: &delta{rec: *r}, out: []game.Payload{r.MoveEvent(1)}})
		release := fs.Stall(storagetest.Sync, ".tmp-")
		defer release()
		time.Sleep(61 * time.Second) // a compaction starts, and hangs
		synctest.Wait()
		fs.Fail(storagetest.Write, "/journal/", syscall.ENOSPC)
		r2, _ := playedRecord(t, r.Info.Game, "e2e4", "e7e5")
		w.submit(&change{game: r.Info.Game, delta: &delta{from: 1, rec: gamerecord.Record{Info: r2.Info, Moves: r2.Moves, Result: "*"}}})
		time.Sleep(time.Second)
		stopped := time.Now()
		w.stop()
		if took := time.Since(stopped); took > drain+100*time.Millisecond {
			t.Errorf("stopping took %v with a drain time-out of %v", took, drain)
		}
		release()
	})
}
