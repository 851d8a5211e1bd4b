package hall

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast/storage/storagetest"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/gamestore"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/teamdrop"
)

// journalGames plays two records change by change, as boards do: a chess
// game with a takeback (a correction: next revision) and a result, and a
// team-drop game whose match events and pockets change with every move.
// step(i) applies change i to the records and returns them; n is the
// number of changes.
type journalGames struct {
	chess, team *gamerecord.Record
}

func newJournalGames(t *testing.T) *journalGames {
	chess, _ := playedRecord(t, game.ID{Event: "open2026", Round: 4, Board: 1})
	team, _ := playedRecord(t, game.ID{Event: "open2026", Round: 4, Board: 2})
	chess.Info.EventName, team.Info.Variant = "Open 2026", "team-drop"
	chess.Published, team.Published = 0, 0
	team.Team = &gamerecord.TeamRecord{Partner: game.ID{Event: "open2026", Round: 4, Board: 3}, Board: "A", Began: team.Started}
	return &journalGames{chess: chess, team: team}
}

const journalSteps = 40

func (j *journalGames) step(i int) {
	at := j.chess.Started.Add(time.Duration(i+1) * time.Second)
	ply := gamerecord.Ply{UCI: fmt.Sprintf("a%db%d", i%8+1, (i+3)%8+1), SAN: fmt.Sprintf("Nb%d", i%8+1),
		FEN: fmt.Sprintf("8/8/8/%d/8/8/8/8 w - - 0 %d", i%8+1, i+1), EMTMS: int64(i) * 100, At: at,
		Clock: &game.ClockPair{WhiteMS: 60000 - int64(i), BlackMS: 60000 - int64(2*i)}}
	c := j.chess
	switch i {
	case 15:
		c.Moves = c.Moves[:12]
		c.Revision++
		c.LastCorrection = &game.Correction{Game: c.Info.Game, Ply: 12, FEN: c.FEN(), Moves: c.UCIs(), Reason: game.Takeback,
			At: game.T(at), Revision: c.Revision}
	case 35:
		c.Result, c.Termination = "1-0", "normal"
	default:
		c.Moves = append(c.Moves, ply)
	}
	c.UpdatedAt, c.Clock = at, ply.Clock
	tm := j.team
	tm.Moves = append(tm.Moves, ply)
	tm.Moves[len(tm.Moves)-1].Pockets = &game.Pockets{White: "P", Black: fmt.Sprint(i % 3)}
	tm.Team.Pockets = game.Pockets{White: "N", Black: fmt.Sprint(i)}
	tm.Team.Events = append(tm.Team.Events, gamerecord.TeamEvent{Seq: 2 * i, Event: teamdrop.Event{Kind: "move", Board: teamdrop.A, At: at,
		Move: &rules.Move{}}})
	if i%5 == 0 {
		tm.Team.Events = append(tm.Team.Events, gamerecord.TeamEvent{Seq: 2*i + 1, Event: teamdrop.Event{Kind: "te", Board: teamdrop.A, At: at, Color: rules.White}})
	}
	tm.UpdatedAt = at
}

// recordJSON is a record as compared here (Published is the writer's
// business).
func recordJSON(t *testing.T, r *gamerecord.Record) string {
	t.Helper()
	cp := *r
	cp.Published = 0
	b, err := json.Marshal(&cp)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestJournalReplaysExactly: two games are journalled change by change as
// the boards hand them over (each entry only what changed: new moves,
// new team events, the header's small fields; a correction whole). The
// daemon is then killed (nothing compacted, the journal as it is on
// disk), and a restart replays both records exactly as they were, match
// events, pockets, last correction and result included. A torn last write
// (the crash cut the newest entry) gives the records as they were before
// that change, exactly. And an entry at ply 40 of the team game costs
// about what one at ply 10 did.
func TestJournalReplaysExactly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		fs := storagetest.New(nil)
		jdir := filepath.Join(dir, "journal")
		j, l, err := gamestore.Open(fs, jdir, dir)
		if err != nil {
			t.Fatal(err)
		}
		w := newWriter(writerOptions{fs: fs, gamesDir: dir, sink: &recordingSink{}, log: discardLog(), now: time.Now,
			window: DefaultCommitWindow, compactEvery: time.Hour, compactBytes: DefaultCompactBytes, drain: time.Second}, j, l)
		go w.run()
		games := newJournalGames(t)
		boards := map[game.ID]*boardRun{games.chess.Info.Game: {}, games.team.Info.Game: {}}
		var want [journalSteps][2]string
		var cost []int64
		for i := range journalSteps {
			games.step(i)
			before := fs.Written(jdir)
			for _, r := range []*gamerecord.Record{games.chess, games.team} {
				br := boards[r.Info.Game]
				w.submit(&change{game: r.Info.Game, delta: br.delta(r)})
			}
			time.Sleep(time.Second)
			synctest.Wait()
			cost = append(cost, fs.Written(jdir)-before)
			want[i] = [2]string{recordJSON(t, games.chess), recordJSON(t, games.team)}
		}
		if cost[39] > cost[10]+cost[10]/4 {
			t.Errorf("the entries of a change cost %d bytes at step 40, %d at step 10", cost[39], cost[10])
		}
		// Killed: the journal as it is. A restart replays it.
		check := func(what string, l *gamestore.Loaded, step int) {
			t.Helper()
			for k, r := range []*gamerecord.Record{games.chess, games.team} {
				got, ok := l.Records[r.Info.Game]
				if !ok {
					t.Fatalf("%s: game %s not in the journal", what, r.Info.Game)
				}
				if g := recordJSON(t, got); g != want[step][k] {
					t.Errorf("%s: game %s replayed\n got %s\nwant %s", what, r.Info.Game, g, want[step][k])
				}
			}
			if len(l.Holes) != 0 || len(l.Damaged) != 0 {
				t.Errorf("%s: holes %v, damage %v", what, l.Holes, l.Damaged)
			}
		}
		_, l2, err := gamestore.Open(storagetest.New(nil), jdir, dir)
		if err != nil {
			t.Fatal(err)
		}
		check("after a kill", l2, journalSteps-1)

		// A torn last write: the newest entry cut short.
		torn := filepath.Join(t.TempDir(), "journal")
		os.MkdirAll(torn, 0o755)
		segs, _ := filepath.Glob(filepath.Join(jdir, "*.seg"))
		var last string
		for _, s := range segs {
			b, _ := os.ReadFile(s)
			if len(b) > 20 {
				last = filepath.Base(s)
			}
			os.WriteFile(filepath.Join(torn, filepath.Base(s)), b, 0o640)
		}
		b, _ := os.ReadFile(filepath.Join(torn, last))
		// The last two entries are step 39's (chess, then team, in either
		// order): cut the last one short.
		os.WriteFile(filepath.Join(torn, last), b[:len(b)-7], 0o640)
		_, l3, err := gamestore.Open(storagetest.New(nil), torn, dir)
		if err != nil {
			t.Fatal(err)
		}
		cut := 0
		for k, r := range []*gamerecord.Record{games.chess, games.team} {
			switch recordJSON(t, l3.Records[r.Info.Game]) {
			case want[journalSteps-1][k]:
			case want[journalSteps-2][k]:
				cut++
			default:
				t.Errorf("after a torn write: game %s is neither as it was nor as before its last change", r.Info.Game)
			}
		}
		if cut != 1 {
			t.Errorf("after a torn write %d games lost their last change, want 1", cut)
		}
		w.stop()
	})
}
