package hall

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/gamestore"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
)

// published returns the History of r as the hall published it: its
// MoveEvents, the first fromStream of them in the stream, the rest still
// in the outbox.
func historyOf(r *gamerecord.Record, fromStream int) broadcast.History {
	h := broadcast.History{Stream: "DGT_GAMES", FromStream: fromStream}
	for p := 1; p <= len(r.Moves); p++ {
		h.Payloads = append(h.Payloads, r.MoveEvent(p))
	}
	h.FromStream = min(fromStream, len(h.Payloads))
	return h
}

// TestMergeHistory: what a damaged game starts from, made of what the disk
// kept and what was published of it, and what the arbiter is told.
func TestMergeHistory(t *testing.T) {
	g := game.ID{Event: "open2026", Round: 2, Board: 1}
	line := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4"}
	full, _ := playedRecord(t, g, line...)
	short, _ := playedRecord(t, g, line[:3]...)
	other, _ := playedRecord(t, g, "d2d4", "d7d5")
	o := session.SessionOptions{Info: full.Info}
	now := full.Started.Add(time.Hour)
	// A takeback to ply 2, then b1c3 and g8f6 (revision 1), and a result.
	corrected := broadcast.History{Stream: "DGT_GAMES", FromStream: 100}
	corrected.Payloads = historyOf(full, 7).Payloads[:4]
	corrected.Payloads = append(corrected.Payloads,
		game.Correction{Game: g, Ply: 2, FEN: full.Moves[1].FEN, Moves: []string{"e2e4", "e7e5"}, Reason: game.Takeback, At: game.T(now), Revision: 1})
	rev1, _ := playedRecord(t, g, "e2e4", "e7e5", "b1c3", "g8f6")
	rev1.Revision = 1
	corrected.Payloads = append(corrected.Payloads, rev1.MoveEvent(3), rev1.MoveEvent(4),
		game.Result{Game: g, Result: "1-0", Termination: "normal", At: game.T(now), Revision: 1})

	for _, c := range []struct {
		name      string
		local     *gamerecord.Record
		h         broadcast.History
		moves     string
		revision  int
		result    string
		note      []string
		unchanged bool
	}{
		{"nothing kept", nil, historyOf(full, 7), strings.Join(line, " "), 0, "*",
			[]string{"the disk kept nothing", "plies 1-7 recovered from the stream DGT_GAMES", "now has 7 plies"}, false},
		{"three kept", short, historyOf(full, 5), strings.Join(line, " "), 0, "*",
			[]string{"the disk kept 3 plies", "plies 4-5 recovered from the stream DGT_GAMES", "plies 6-7 from the outbox"}, false},
		{"nothing more", full, historyOf(full, 7), strings.Join(line, " "), 0, "*",
			[]string{"holds no move after them"}, false},
		{"differs", other, historyOf(full, 7), "d2d4 d7d5", 0, "*",
			[]string{"differs from the disk at ply 1", "the disk's record is kept"}, true},
		{"a later revision", short, corrected, "e2e4 e7e5 b1c3 g8f6", 1, "1-0",
			[]string{"the disk kept revision 0 (3 plies)", "has revision 1", "plies 1-4 recovered from the stream"}, false},
		{"nothing published", short, broadcast.History{Stream: "DGT_GAMES"}, "e2e4 e7e5 g1f3", 0, "*",
			[]string{"nothing more was published"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec, note := mergeHistory(c.local, c.h, o, now)
			if got := strings.Join(rec.UCIs(), " "); got != c.moves || rec.Revision != c.revision || rec.Result != c.result {
				t.Errorf("record %s revision %d result %s, want %s revision %d result %s", got, rec.Revision, rec.Result, c.moves, c.revision, c.result)
			}
			for _, w := range c.note {
				if !strings.Contains(note, w) {
					t.Errorf("note %q lacks %q", note, w)
				}
			}
			if (rec == c.local) != c.unchanged {
				t.Errorf("record replaced: %v, want %v", rec != c.local, !c.unchanged)
			}
			if !c.unchanged && (rec.Published != len(rec.Moves) || rec.Moves[len(rec.Moves)-1].FEN == "") {
				t.Errorf("published %d of %d, last FEN %q", rec.Published, len(rec.Moves), rec.Moves[len(rec.Moves)-1].FEN)
			}
			if c.revision == 1 && (rec.LastCorrection == nil || rec.LastCorrection.Ply != 2) {
				t.Errorf("last correction %+v", rec.LastCorrection)
			}
		})
	}
}

// TestDamagedRecordRecoveredFromHistory: one game's record
// file is corrupt at a restart mid-round, its board showing the position
// 5 plies in. Before, the game started empty (its file set aside), and
// what the board showed was not caught up (the tracker's): the record
// lost its 5 plies. Now the hall reads what was published of it (here a
// History function giving 3 plies from the stream and 2 still in the
// outbox) before its board starts: the game comes back with every ply,
// none published twice, the next move is ply 6; the arbiter's alert names
// the file set aside and what came from where. The other board does not
// wait: it plays while the history is still being read. When the history
// cannot be read, the game starts from what the disk kept, and the alert
// says why.
func TestDamagedRecordRecoveredFromHistory(t *testing.T) {
	g1 := game.ID{Event: "open2026", Round: 8, Board: 1}
	g2 := game.ID{Event: "open2026", Round: 8, Board: 2}
	line1 := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5"}
	line2 := []string{"d2d4", "d7d5", "c2c4", "e7e6"}
	r1, pl1 := playedRecord(t, g1, line1...)
	r2, pl2 := playedRecord(t, g2, line2...)
	for _, readable := range []bool{true, false} {
		name := "history read"
		if !readable {
			name = "history unreadable"
		}
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				dir := t.TempDir()
				games := filepath.Join(dir, "data", "games")
				os.MkdirAll(games, 0o755)
				os.WriteFile(gamestore.RecordPath(games, g1), []byte(`{"info":{"game":"open2026.8.1"},"moves":[{"uci":"e2e4"`), 0o644)
				if err := gamestore.SaveRecord(games, r2); err != nil {
					t.Fatal(err)
				}
				e1, b1 := boardAt(t, "r8-b1", g1, pl1)
				e2, b2 := boardAt(t, "r8-b2", g2, pl2)
				asked := make(chan game.ID, 2)
				release := make(chan struct{})
				history := func(ctx context.Context, g game.ID) (broadcast.History, error) {
					asked <- g
					select { // the stream answers late: board 2 plays meanwhile
					case <-release:
					case <-ctx.Done():
						return broadcast.History{Stream: "DGT_GAMES"}, ctx.Err()
					}
					if !readable {
						return broadcast.History{Stream: "DGT_GAMES"}, errors.New("nats: no servers available for connection")
					}
					return historyOf(r1, 3), nil
				}
				sh := startSim(t, dir, Options{Boards: []Board{b1, b2}, History: history, HistoryWait: 30 * time.Second})
				if g := <-asked; g != g1 {
					t.Fatalf("history asked for %s", g)
				}
				e2.Schedule(time.Now(), scriptFrom(t, line2, time.Second, "g1f3"))
				waitFor(t, 20*time.Second, "board 2's move while game 1 waits for its history", func() bool {
					r, _ := sh.h.Record(g2)
					return len(r.Moves) == 5
				})
				close(release)
				waitConnected(t, sh.h)
				want := line1
				if !readable {
					want = nil
				}
				waitFor(t, 20*time.Second, "game 1 resumed", func() bool {
					r, ok := sh.h.Record(g1)
					return ok && strings.Join(r.UCIs(), " ") == strings.Join(want, " ")
				})
				if readable {
					e1.Schedule(time.Now(), scriptFrom(t, line1, time.Second, "a7a6"))
					waitFor(t, 20*time.Second, "game 1's next move", func() bool {
						r, _ := sh.h.Record(g1)
						return len(r.Moves) == 6
					})
				}
				time.Sleep(3 * time.Second)
				synctest.Wait()
				al := sh.alerts(game.KindRecordDamaged)
				if len(al) != 1 || al[0].Game != g1 || !strings.Contains(al[0].Message, ".json.damaged-") {
					t.Fatalf("alerts %+v, want one for game 1 naming the file set aside", al)
				}
				var wantNote string
				if readable {
					wantNote = "plies 1-3 recovered from the stream DGT_GAMES; plies 4-5 from the outbox"
				} else {
					wantNote = "could not be read (the stream DGT_GAMES was not read in full: nats: no servers available"
				}
				if !strings.Contains(al[0].Message, wantNote) {
					t.Errorf("alert %q does not say %q", al[0].Message, wantNote)
				}
				evs := sh.journalled(g1)
				var plies []int
				for _, ev := range evs {
					plies = append(plies, ev.Ply)
				}
				if readable && (len(evs) != 1 || evs[0].Ply != 6 || evs[0].UCI != "a7a6") {
					t.Errorf("game 1 published plies %v after the restart, want only the new ply 6", plies)
				}
			})
		})
	}
}

// TestDamagedRecordFromStream through a real NATS server and
// boards on pseudo-terminals: mid-round the daemon stops, one game's
// record file is corrupted, and the daemon starts again. The game comes
// back with every ply from the GAMES stream (none lost, none twice) and
// goes on; its arbiter is told which file was set aside and that the
// plies came from the stream; the other board goes on as if nothing had
// happened.
func TestDamagedRecordFromStream(t *testing.T) {
	integration(t)
	dir := t.TempDir()
	srv := testServer(t, filepath.Join(dir, "nats"))
	defer srv.Shutdown()
	g1 := game.ID{Event: "open2026", Round: 6, Board: 1}
	g2 := game.ID{Event: "open2026", Round: 6, Board: 2}
	b1 := newPTYBoard(t, emu.Setup{Serial: "00061"})
	b2 := newPTYBoard(t, emu.Setup{Serial: "00062"})
	boards := []Board{boardFor(t, "r6-b1", g1, b1.Open), boardFor(t, "r6-b2", g2, b2.Open)}
	data := filepath.Join(dir, "data")
	line1 := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6"}
	line2 := []string{"d2d4", "d7d5", "c2c4", "e7e6", "b1c3", "g8f6"}

	d := startDaemon(t, data, srv, 0, boards...)
	waitConnected(t, d.h)
	b1.e.Schedule(time.Now(), script(t, line1[:6]...))
	b2.e.Schedule(time.Now(), script(t, line2[:4]...))
	org := connect(t, srv, "hall", "hall-pw")
	streamMsgs(t, org, "DGT_GAMES", testPrefix+".game.open2026.6.1.move", 6, 40*time.Second)
	streamMsgs(t, org, "DGT_GAMES", testPrefix+".game.open2026.6.2.move", 4, 40*time.Second)
	quiesce(t, d, org)
	d.stop()
	path := gamestore.RecordPath(filepath.Join(data, "games"), g1)
	if err := os.WriteFile(path, []byte(`{"info":{"game":"open2026.6.1"},"moves":[{"uci":"e2`), 0o644); err != nil {
		t.Fatal(err)
	}

	d = startDaemon(t, data, srv, 0, boards...)
	waitConnected(t, d.h)
	waitFor(t, 20*time.Second, "game 1 back with its 6 plies", func() bool {
		r, _ := d.h.Record(g1)
		return strings.Join(r.UCIs(), " ") == strings.Join(line1[:6], " ")
	})
	b1.e.Schedule(time.Now(), scriptFrom(t, line1[:6], 300*time.Millisecond, line1[6:]...))
	b2.e.Schedule(time.Now(), scriptFrom(t, line2[:4], 300*time.Millisecond, line2[4:]...))
	for _, c := range []struct {
		g    game.ID
		line []string
	}{{g1, line1}, {g2, line2}} {
		msgs := streamMsgs(t, org, "DGT_GAMES", testPrefix+".game."+c.g.String()+".move", len(c.line), 40*time.Second)
		if got := strings.Join(moveUCIs(t, msgs), " "); got != strings.Join(c.line, " ") {
			t.Errorf("game %s in the stream: %s, want %s (each once)", c.g, got, strings.Join(c.line, " "))
		}
	}
	arb := connect(t, srv, "arb", "arb-pw", nats.CustomInboxPrefix(broadcast.ArbiterInboxPrefix))
	al := streamMsgs(t, arb, "DGT_ALERTS", testPrefix+".arbiter.open2026.6.*.alert", 1, 20*time.Second)
	var damaged []game.Alert
	for _, m := range al {
		var a game.Alert
		if decode(t, m.Data(), &a) && a.Kind == game.KindRecordDamaged {
			damaged = append(damaged, a)
		}
	}
	if len(damaged) != 1 || damaged[0].Game != g1 || !strings.Contains(damaged[0].Message, path+".damaged-") ||
		!strings.Contains(damaged[0].Message, "plies 1-6 recovered from the stream DGT_GAMES") {
		t.Errorf("record_damaged alerts %+v, want one for game 1 naming %s and the plies recovered from the stream", damaged, path)
	}
}
