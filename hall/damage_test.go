package hall

import (
	"bytes"
	"encoding/binary"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast/storage"
	"github.com/dgtbridge/dgtbridge/broadcast/storage/storagetest"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/gamestore"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// playedRecord returns the record of ucis played from the start, as the
// hall would have saved it, and the placement they leave.
func playedRecord(t testing.TB, g game.ID, ucis ...string) (*gamerecord.Record, rules.Placement) {
	t.Helper()
	t0 := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	r := gamerecord.NewRecord(gamerecord.Info{Game: g, White: "White", Black: "Black", Ruleset: "fide2018-standard"}, "", t0)
	pos := rules.Position(chess.StartPosition(chess.Standard))
	for i, u := range ucis {
		m := mustMove(t, pos, u)
		san := pos.SAN(m)
		pos, _ = pos.Play(m)
		r.Moves = append(r.Moves, gamerecord.Ply{UCI: u, SAN: san, FEN: pos.FEN(), EMTMS: 1000, At: t0.Add(time.Duration(i+1) * time.Second)})
	}
	r.Published = len(r.Moves)
	return r, pos.Placement()
}

// boardAt is a board (emulator over pipes) standing at pl, for game g.
func boardAt(t *testing.T, id string, g game.ID, pl rules.Placement) (*emu.Emulator, Board) {
	t.Helper()
	e := emu.New(emu.Setup{Serial: "00" + id[len(id)-3:], Placement: &pl}, time.Now())
	return e, boardFor(t, id, g, servePipe(t, e).Open)
}

// segmentBytes returns a journal segment holding entries.
func segmentBytes(t *testing.T, base uint64, entries ...*gamestore.Entry) ([]byte, []int) {
	t.Helper()
	b := storage.AppendFrame(nil, binary.BigEndian.AppendUint64([]byte{'H'}, base))
	var offs []int
	for _, e := range entries {
		offs = append(offs, len(b))
		var err error
		if b, err = gamestore.AppendEntry(b, e); err != nil {
			t.Fatal(err)
		}
	}
	return b, offs
}

// entryOf is the journal entry adding r's moves from `from` on.
func entryOf(seq, prev uint64, r *gamerecord.Record, from int) *gamestore.Entry {
	rec := *r
	rec.Moves = r.Moves[from:]
	return &gamestore.Entry{Seq: seq, Prev: prev, Game: r.Info.Game, From: from, Rec: rec}
}

// asideFiles lists the files of dir set aside as damaged.
func asideFiles(t *testing.T, pattern string) []string {
	t.Helper()
	m, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestDamagedDataDoesNotStopTheHall: one corrupt saved game
// record, a journal segment with a bad byte in the middle, a journal
// segment cut short, a record whose moves no longer replay. Before, the
// first and the last stopped the whole hall (New or Run returned the
// error: 0 of 2 boards ran). Now the damaged file is set aside (renamed,
// named in the log and in a record_damaged alert for its game), the game
// goes on from what was recovered, the moves the damage cost are
// recovered from the board, and the other board starts and plays
// normally.
func TestDamagedDataDoesNotStopTheHall(t *testing.T) {
	g1 := game.ID{Event: "open2026", Round: 8, Board: 1}
	g2 := game.ID{Event: "open2026", Round: 8, Board: 2}
	line1 := []string{"e2e4", "e7e5", "g1f3"}         // what board 1 really played
	line2 := []string{"d2d4", "d7d5", "c2c4", "e7e6"} // board 2
	r1, pl1 := playedRecord(t, g1, line1...)
	r2, pl2 := playedRecord(t, g2, line2...)
	r1short, _ := playedRecord(t, g1, line1[:2]...)

	for _, c := range []struct {
		name    string
		prepare func(t *testing.T, games, journal string)
		aside   string // glob of what must be set aside
		damaged []game.ID
		// game 1's moves recovered from the disk (nil: none survive; what
		// the tracker makes of the board's position is not checked here)
		recovered []string
	}{
		{"corrupt record file", func(t *testing.T, games, _ string) {
			os.WriteFile(gamestore.RecordPath(games, g1), []byte(`{"info":{"game":"open2026.8.1"},"moves":[{"uci":"e2e4"`), 0o644)
			if err := gamestore.SaveRecord(games, r2); err != nil {
				t.Fatal(err)
			}
		}, "games/open2026.8.1.json.damaged-*", []game.ID{g1}, nil},
		{"bad byte in a journal segment", func(t *testing.T, _, journal string) {
			// g1: 2 moves, then its third; g2: 4 moves. The byte hits
			// g1's third move: its chain has a hole, g2's has none.
			b, offs := segmentBytes(t, 1, entryOf(1, 0, r1short, 0), entryOf(2, 0, r2, 0), entryOf(3, 1, r1, 2))
			b[offs[2]+storage.FrameHeader+20] ^= 0x20
			os.WriteFile(filepath.Join(journal, "0000000000000001.seg"), b, 0o640)
			later, _ := segmentBytes(t, 4)
			os.WriteFile(filepath.Join(journal, "0000000000000002.seg"), later, 0o640)
		}, "games/journal/0000000000000001.seg.damaged-*", []game.ID{g1, g2}, line1[:2]},
		{"journal segment cut short", func(t *testing.T, _, journal string) {
			b, offs := segmentBytes(t, 1, entryOf(1, 0, r2, 0), entryOf(2, 0, r1short, 0), entryOf(3, 2, r1, 2))
			os.WriteFile(filepath.Join(journal, "0000000000000001.seg"), b[:offs[2]+11], 0o640)
			later, _ := segmentBytes(t, 4)
			os.WriteFile(filepath.Join(journal, "0000000000000002.seg"), later, 0o640)
		}, "games/journal/0000000000000001.seg.damaged-*", []game.ID{g1, g2}, line1[:2]},
		{"record that does not replay", func(t *testing.T, games, _ string) {
			bad := *r1
			bad.Moves = append([]gamerecord.Ply(nil), r1.Moves...)
			bad.Moves[2].UCI = "g1g3" // not a move there
			gamestore.SaveRecord(games, &bad)
			gamestore.SaveRecord(games, r2)
		}, "games/open2026.8.1.json.unreplayable-*", []game.ID{g1}, line1[:2]},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				dir := t.TempDir()
				games := filepath.Join(dir, "data", "games")
				journal := filepath.Join(games, "journal")
				os.MkdirAll(journal, 0o755)
				c.prepare(t, games, journal)
				_, b1 := boardAt(t, "r8-b1", g1, pl1)
				e2, b2 := boardAt(t, "r8-b2", g2, pl2)
				sh := startSim(t, dir, Options{Boards: []Board{b1, b2}})
				waitConnected(t, sh.h)
				if got := asideFiles(t, filepath.Join(dir, "data", c.aside)); len(got) != 1 {
					t.Errorf("set aside: %v, want one %s", got, c.aside)
				}
				// Game 1 starts from what was recovered, board 2 plays on.
				// (Catching up from the board the moves the damage cost is
				// the tracker's, not the store's.)
				e2.Schedule(time.Now(), scriptFrom(t, line2, time.Second, "g1f3"))
				if !waitUntil(time.Minute, func() bool {
					a, _ := sh.h.Record(g1)
					b, _ := sh.h.Record(g2)
					return (c.recovered == nil || strings.Join(a.UCIs(), " ") == strings.Join(c.recovered, " ")) &&
						strings.Join(b.UCIs(), " ") == "d2d4 d7d5 c2c4 e7e6 g1f3"
				}) {
					a, _ := sh.h.Record(g1)
					b, _ := sh.h.Record(g2)
					t.Fatalf("game 1 %v (want %v recovered), game 2 %v", a.UCIs(), c.recovered, b.UCIs())
				}
				alerted := map[game.ID]string{}
				for _, a := range sh.alerts(game.KindRecordDamaged) {
					alerted[a.Game] = a.Message
				}
				for _, g := range c.damaged {
					if m, ok := alerted[g]; !ok || !strings.Contains(m, "damaged") {
						t.Errorf("game %s: no record_damaged alert naming the damage (%q)", g, m)
					}
				}
				if len(alerted) != len(c.damaged) {
					t.Errorf("record_damaged alerts for %v, want %v", alerted, c.damaged)
				}
				if c.name == "record that does not replay" {
					var cut []game.Correction
					for _, ob := range sh.observed() {
						if cr, ok := ob.Payload.(game.Correction); ok {
							cut = append(cut, cr)
						}
					}
					if len(cut) != 1 || cut[0].Ply != 2 || cut[0].Revision != 1 || cut[0].Reason != "record_damaged" {
						t.Errorf("corrections %+v, want one cutting the record to ply 2 (revision 1)", cut)
					}
				}
				sh.stop()
				// Stopped, the records are whole in their files.
				for g, n := range map[game.ID]int{g1: len(c.recovered), g2: 5} {
					r, ok, err := gamestore.LoadRecord(games, g)
					if err != nil || !ok || len(r.Moves) != n && (g == g2 || c.recovered != nil) {
						t.Errorf("%s after stop: %v %v %v", g, ok, err, r)
					}
				}
			})
		})
	}
}

// TestGroupCommit: changes of 50 boards handed over within the commit
// window share one journal fsync, and every one is journalled and
// published.
func TestGroupCommit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fs := storagetest.New(nil)
		dir := t.TempDir()
		j, l, err := gamestore.Open(fs, filepath.Join(dir, "journal"), dir)
		if err != nil {
			t.Fatal(err)
		}
		sink := &recordingSink{}
		w := newWriter(writerOptions{fs: fs, gamesDir: dir, sink: sink, log: discardLog(), now: time.Now,
			window: DefaultCommitWindow, compactEvery: time.Hour, compactBytes: DefaultCompactBytes, drain: time.Second}, j, l)
		go w.run()
		synctest.Wait()
		before := fs.Calls(storagetest.Sync)
		for i := range 50 {
			r, _ := playedRecord(t, game.ID{Event: "e", Round: 1, Board: i + 1}, "e2e4")
			go w.submit(&change{game: r.Info.Game, delta: &delta{rec: *r}, out: []game.Payload{r.MoveEvent(1)}})
		}
		synctest.Wait()
		time.Sleep(time.Second)
		synctest.Wait()
		if n := fs.Calls(storagetest.Sync) - before; n != 1 {
			t.Errorf("%d fsyncs for 50 boards' moves handed over together, want 1", n)
		}
		if n := sink.count(); n != 50 {
			t.Errorf("%d moves published, want 50", n)
		}
		w.stop()
		_, l2, err := gamestore.Open(fs, filepath.Join(dir, "journal"), dir)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 50 {
			g := game.ID{Event: "e", Round: 1, Board: i + 1}
			r, ok, err := gamestore.LoadRecord(dir, g)
			if r2, inJournal := l2.Records[g]; inJournal {
				r, ok = r2, true
			}
			if err != nil || !ok || len(r.Moves) != 1 {
				t.Fatalf("game %s after reopen: %v %v %+v", g, ok, err, r)
			}
		}
	})
}

// recordingSink is a Sink that counts the moves it was handed (the writer
// alone, without a publisher).
type recordingSink struct {
	mu    sync.Mutex
	moves int
}

func (s *recordingSink) PublishMove(game.MoveEvent) error {
	s.mu.Lock()
	s.moves++
	s.mu.Unlock()
	return nil
}
func (s *recordingSink) PublishCorrection(game.Correction) error   { return nil }
func (s *recordingSink) PublishClock(game.ClockEvent) error        { return nil }
func (s *recordingSink) PublishResult(game.Result) error           { return nil }
func (s *recordingSink) PublishState(game.GameState) error         { return nil }
func (s *recordingSink) PublishAlert(game.Alert) error             { return nil }
func (s *recordingSink) PublishBoardStatus(game.BoardStatus) error { return nil }

func (s *recordingSink) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.moves
}

func discardLog() *slog.Logger { return slog.New(slog.DiscardHandler) }

// TestOutboxDamageHandsAgain: the publisher's outbox, holding
// a game's moves not yet sent, gets a bad byte in the middle. Before, the
// daemon would not start (the outbox refused to open). Now the publisher
// sets the damaged segment aside and reports the unsent messages lost;
// the hall hands every game's moves again (the streams drop those they
// have by message id), so every ply is in the outbox once more, and the
// arbiter is told.
func TestOutboxDamageHandsAgain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		g := game.ID{Event: "open2026", Round: 9, Board: 1}
		line := []string{"e2e4", "e7e5", "g1f3"}
		_, pl := playedRecord(t, g, line...)
		start := emu.StartPlacement()
		e, b := boardAt(t, "r9-b1", g, start)
		sh := startSim(t, dir, Options{Boards: []Board{b}})
		waitConnected(t, sh.h)
		e.Schedule(time.Now(), scriptThink(t, time.Second, line...))
		waitFor(t, time.Minute, "three moves published", func() bool { return sh.published() == 3 })
		sh.stop()

		// A bad byte in the record of the first move (never sent: no NATS).
		segs, _ := filepath.Glob(filepath.Join(dir, "data", "outbox", "*.seg"))
		damaged := false
		for _, path := range segs {
			data, _ := os.ReadFile(path)
			res, _ := storage.Scan(bytes.NewReader(data), int64(len(data)), "EAHM", func(off int64, body []byte) error {
				if !damaged && strings.Contains(string(body), testPrefix+".game."+g.String()+".move") {
					data[off+storage.FrameHeader+10] ^= 0x08
					damaged = true
				}
				return nil
			})
			_ = res
			os.WriteFile(path, data, 0o640)
		}
		if !damaged {
			t.Fatal("no outbox record of the first move")
		}

		_, b2 := boardAt(t, "r9-b1", g, pl)
		sh2 := startSim(t, dir, Options{Boards: []Board{b2}})
		waitConnected(t, sh2.h)
		waitFor(t, time.Minute, "the moves handed again", func() bool { return sh2.published() == 3 })
		if a := sh2.alerts(game.KindRecordDamaged); len(a) != 1 || !strings.Contains(a[0].Message, "outbox") {
			t.Errorf("alerts %+v, want one naming the outbox", a)
		}
		plies := map[int]bool{}
		for _, ev := range sh2.journalled(g) {
			plies[ev.Ply] = true
		}
		if len(plies) != 3 {
			t.Errorf("plies in the outbox after the damage: %v, want 1-3", plies)
		}
	})
}
