package hall

import (
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast/storage"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/gamestore"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestRecordCopiesMemoryBounded: a hall's games are held by the boards'
// records, the copies handed to the storage writer and the copies kept for
// Hall.Record. 400 games of 40 plies go through the hand-off as boards
// make them (each ply: the board's record grows, the change goes to a
// running writer that journals it); the heap they hold at the end, per
// ply, stays under 400 bytes: one copy of each ply (its 112-byte Ply with
// the board's append slack, its FEN, its clock: about 320 bytes), not
// three (560 bytes a ply when every hand-off and the writer copied the
// moves).
func TestRecordCopiesMemoryBounded(t *testing.T) {
	const games, plies = 400, 40
	perPly := handOffGames(t, games, plies)
	t.Logf("%d games of %d plies: %.0f bytes held a ply (records, the writer's copies, Hall.Record's)", games, plies, perPly)
	if perPly > 400 {
		t.Errorf("%.0f bytes held a ply; want at most 400 (one copy of each ply)", perPly)
	}
}

// BenchmarkRecordCopies reports the heap a hall's records and their copies
// hold a ply (bytes/ply) after 400 games of 40 plies went through the
// hand-off to a running writer (TestRecordCopiesMemoryBounded's set-up).
func BenchmarkRecordCopies(b *testing.B) {
	var perPly float64
	for b.Loop() {
		perPly = handOffGames(b, 400, 40)
	}
	b.ReportMetric(perPly, "bytes/ply")
}

// handOffGames plays games games of plies plies through the boards'
// hand-off to a running writer journalling them (in a temporary folder)
// and returns the heap they hold at the end a ply; it checks that the
// copies for Hall.Record and the writer's have every ply.
func handOffGames(tb testing.TB, games, plies int) float64 {
	dir := tb.TempDir()
	heap := liveHeap
	j, l, err := gamestore.Open(storage.OS, filepath.Join(dir, "journal"), dir)
	if err != nil {
		tb.Fatal(err)
	}
	w := newWriter(writerOptions{fs: storage.OS, gamesDir: dir, sink: &recordingSink{}, log: discardLog(), now: time.Now,
		window: DefaultCommitWindow, compactEvery: time.Hour, compactBytes: DefaultCompactBytes, drain: time.Second}, j, l)
	go w.run()
	defer w.stop()
	t0 := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	recs := make([]*gamerecord.Record, games)
	boards := make([]*boardRun, games)
	for i := range recs {
		g := game.ID{Event: "mem", Round: 1, Board: i + 1}
		recs[i] = gamerecord.NewRecord(gamerecord.Info{Game: g, White: "White", Black: "Black", Ruleset: "fide2018-standard"}, "", t0)
		boards[i] = &boardRun{}
	}
	settled := func() {
		tb.Helper()
		deadline := time.Now().Add(time.Minute)
		for w.waiting.Load() > 0 {
			if time.Now().After(deadline) {
				tb.Fatalf("the writer still has %d changes after a minute", w.waiting.Load())
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	before := heap()
	for p := range plies {
		for i, r := range recs {
			at := t0.Add(time.Duration(p+1) * time.Second)
			// A distinct FEN a ply, as real positions are.
			fen := fmt.Sprintf("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - %d %d", i, p+1)
			r.Moves = append(r.Moves, gamerecord.Ply{UCI: "e2e4", SAN: "e4", FEN: fen, EMTMS: 1000, At: at,
				Clock: &game.ClockPair{WhiteMS: 5400000 - int64(p)*1000, BlackMS: 5400000}})
			r.UpdatedAt = at
			w.submit(&change{game: r.Info.Game, delta: boards[i].handOff(r), out: []game.Payload{r.MoveEvent(len(r.Moves))}})
		}
		settled()
	}
	held := heap() - before
	for i, br := range boards {
		if got := len(br.snap.Moves); got != plies {
			tb.Fatalf("game %d: Hall.Record's copy has %d plies, want %d", i, got, plies)
		}
	}
	w.stop()
	for i := range boards {
		if got := len(w.games[recs[i].Info.Game].rec.Moves); got != plies {
			tb.Fatalf("game %d: the writer's copy has %d plies, want %d", i, got, plies)
		}
	}
	runtime.KeepAlive(recs)
	return float64(held) / float64(games*plies)
}

// TestRecordCopiesKeepTheirMoves: the copies of a record share its moves
// (Record.Moves), so a correction must not change a copy handed before
// it: the writer may still be journalling it and Hall.Record's reader
// reading it. Plies 1-3 are handed over, a takeback cuts the record to
// ply 1 and another second move is made: the copy handed before still
// holds the three plies as they were, the new copy the two new ones.
func TestRecordCopiesKeepTheirMoves(t *testing.T) {
	r, _ := playedRecord(t, game.ID{Event: "e", Round: 1, Board: 1}, "e2e4", "e7e5", "g1f3")
	br := &boardRun{}
	br.handOff(r)
	before := br.snap
	want := append([]gamerecord.Ply(nil), before.Moves...)
	// The pieces put back to the position after ply 1 (a takeback), then
	// Black's other second move, through the game's session.
	o := sessionOptions(t)
	o.Info = r.Info
	at := r.LastAt().Add(time.Second)
	s, err := session.NewSession(o, r, at)
	if err != nil {
		t.Fatal(err)
	}
	s.Sense(at, game.FullRead{Placement: s.Tracker().PositionAt(1).Placement()})
	play(t, s, at, "c7c5")
	d := br.handOff(r)
	if len(before.Moves) != 3 {
		t.Fatalf("the copy handed before has %d plies, want 3", len(before.Moves))
	}
	for i, p := range before.Moves {
		if p != want[i] {
			t.Errorf("ply %d of the copy handed before the correction became %s, was %s", i+1, p.UCI, want[i].UCI)
		}
	}
	if got := r.UCIs(); len(got) != 2 || got[1] != "c7c5" {
		t.Errorf("the record after the correction: %v, want [e2e4 c7c5]", got)
	}
	if n := len(br.snap.Moves); n != 2 || br.snap.Moves[1].UCI != "c7c5" || len(d.rec.Moves) != 2 || d.from != 1 {
		t.Errorf("the copies after the correction: Hall.Record's %d plies, the writer's %d from %d", n, len(d.rec.Moves), d.from)
	}
}

// TestWriterReleasesGamesOver: a hall runs round after round, and the
// storage writer must not keep every game it ever saw. 200 boards play a
// round of 40 plies each (every game ended, its record file written by a
// compaction), then the next round begins on every board: the writer lets
// go of the finished games' moves (what round 1 held falls to about a
// quarter: the games' headers and the new round) while the new games keep
// theirs. A finished game changed afterwards (the arbiter corrects its result) brings its moves
// back from the change, and its journal entry still chains on the record
// file: a restart reads all 40 moves and the new result.
func TestWriterReleasesGamesOver(t *testing.T) {
	const boards, plies = 200, 40
	dir := t.TempDir()
	jdir := filepath.Join(dir, "journal")
	j, l, err := gamestore.Open(storage.OS, jdir, dir)
	if err != nil {
		t.Fatal(err)
	}
	// The writer is driven from this goroutine as its run loop drives it:
	// the changes of a batch applied, then one commit (group commit).
	w := newWriter(writerOptions{fs: storage.OS, gamesDir: dir, sink: &recordingSink{}, log: discardLog(), now: time.Now,
		compactEvery: time.Hour, compactBytes: DefaultCompactBytes, drain: time.Second}, j, l)
	hand := func(br *boardRun, r *gamerecord.Record, out ...game.Payload) {
		c := &change{br: br, game: r.Info.Game, delta: br.handOff(r), out: out}
		w.applyChange(c)
		w.uncommitted = append(w.uncommitted, c)
	}
	flush := func() {
		t.Helper()
		w.flush()
		if w.failing {
			t.Fatalf("writer failing: %v", w.Health())
		}
	}
	drive := func(br *boardRun, r *gamerecord.Record, out ...game.Payload) {
		t.Helper()
		hand(br, r, out...)
		flush()
	}
	compact := func() {
		t.Helper()
		w.maybeCompact(true)
		if w.compacting {
			w.compacted(<-w.compactDone)
		}
	}
	heap := liveHeap
	t0 := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	brs := make([]*boardRun, boards)
	for i := range brs {
		brs[i] = &boardRun{}
	}
	play := func(round int) []*gamerecord.Record {
		recs := make([]*gamerecord.Record, boards)
		for i := range brs {
			g := game.ID{Event: "mem", Round: round, Board: i + 1}
			recs[i] = gamerecord.NewRecord(gamerecord.Info{Game: g, White: "White", Black: "Black"}, "", t0)
		}
		for p := range plies {
			at := t0.Add(time.Duration(p+1) * time.Second)
			for i, r := range recs {
				r.Moves = append(r.Moves, gamerecord.Ply{UCI: "e2e4", SAN: "e4", EMTMS: 1000, At: at,
					FEN: fmt.Sprintf("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - %d %d", i, p+1)})
				if p == plies-1 {
					r.Result = "1-0"
				}
				hand(brs[i], r, r.MoveEvent(len(r.Moves)))
			}
			flush()
		}
		return recs
	}
	before := heap()
	round1 := play(1)
	compact() // the finished games' record files
	held1 := heap() - before
	first := round1[0]
	round1 = nil
	round2 := make([]*gamerecord.Record, boards)
	for i, br := range brs {
		r := gamerecord.NewRecord(gamerecord.Info{Game: game.ID{Event: "mem", Round: 2, Board: i + 1}}, "", t0)
		r.Moves = append(r.Moves, gamerecord.Ply{UCI: "d2d4", SAN: "d4", FEN: "d4", At: t0})
		hand(br, r, r.MoveEvent(1))
		round2[i] = r
	}
	flush()
	held2 := heap() - before
	t.Logf("held: %d KB after round 1, %d KB once round 2 began", held1>>10, held2>>10)
	if held2 > held1/2 {
		t.Errorf("the writer holds %d KB once round 2 began, %d KB after round 1: round 1's games were not let go", held2>>10, held1>>10)
	}
	for i := range boards {
		g1 := game.ID{Event: "mem", Round: 1, Board: i + 1}
		if gc := w.games[g1]; gc == nil || !gc.released || gc.rec.Moves != nil {
			t.Fatalf("game %s: its copy was not released", g1)
		}
		if gc := w.games[round2[i].Info.Game]; gc == nil || len(gc.rec.Moves) != 1 {
			t.Fatalf("game %s: the new game's copy lost its moves", round2[i].Info.Game)
		}
	}
	// The arbiter corrects the first game's result: a change handed by
	// its board (now at round 2) with the record it keeps.
	first.Result = "0-1"
	drive(brs[0], first)
	if gc := w.games[first.Info.Game]; gc.released || len(gc.rec.Moves) != plies {
		t.Fatalf("after the correction the copy has %d moves (released %v), want %d", len(gc.rec.Moves), gc.released, plies)
	}
	w.j.Close()
	_, l2, err := gamestore.Open(storage.OS, jdir, dir)
	if err != nil {
		t.Fatal(err)
	}
	got := l2.Records[first.Info.Game]
	if got == nil || len(got.Moves) != plies || got.Result != "0-1" || got.Published != plies {
		t.Fatalf("restart reads game %s as %+v, want %d moves, result 0-1, %d published", first.Info.Game, got, plies, plies)
	}
	runtime.KeepAlive(round2)
}

// liveHeap returns the bytes of the heap still reachable: after two
// collections (the second frees what the first's finalizers let go).
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
