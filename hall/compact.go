package hall

import (
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/gamestore"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Compaction keeps the journal short: in the background, the records that
// changed since the last compaction are written into their files
// (<DataDir>/games/<g>.json, each naming its last journal entry), after
// the publisher's outbox was synced (so a file's Published never claims a
// message the outbox could still lose); once every file is durable, the
// journal segments before the compaction's boundary are deleted. It runs
// when the journal has grown by Options.CompactBytes, every
// Options.CompactEvery while records change, and when the hall stops (so
// the files are complete at rest). A restart hands again the moves after a
// file's Published (the streams drop the repeats), at most CompactEvery
// worth: the streams' duplicate window (6 h) must stay longer.

// snapRecord is one record as compaction writes it.
type snapRecord struct {
	rec       *gamerecord.Record // a copy, Published set
	seq       uint64
	rev       int
	published int
}

// compaction is the outcome of writing the record files.
type compaction struct {
	boundary uint64
	snap     []snapRecord
	err      error
}

// maybeCompact starts a compaction when one is due (or forced) and none
// runs; never while changes wait for the journal.
func (w *writer) maybeCompact(force bool) {
	if w.compacting || len(w.uncommitted) > 0 {
		return
	}
	due := w.j.Size() >= w.o.compactBytes || w.o.compactEvery > 0 && !w.o.now().Before(w.lastCompact.Add(w.o.compactEvery))
	if !force && !due {
		return
	}
	w.lastCompact = w.o.now()
	snap := w.snapshot()
	if len(snap) == 0 && w.j.Segments() == 1 {
		return
	}
	boundary, err := w.j.Rotate(w.next)
	if err != nil {
		w.health.Fail(w.o.now(), err)
		w.o.log.Error("storage: journal compaction could not start", "err", err)
		return
	}
	for _, s := range snap {
		w.games[s.rec.Info.Game].compact = false
	}
	w.compacting = true
	go func() { w.compactDone <- w.writeFiles(boundary, snap) }()
}

// snapshot copies the records changed since the last compaction.
func (w *writer) snapshot() []snapRecord {
	var snap []snapRecord
	for _, gc := range w.games {
		if !gc.compact || gc.rec == nil || gc.dirty {
			continue
		}
		cp := *gc.rec // the moves shared: never written in place (Record.Moves)
		cp.Published = gc.published
		snap = append(snap, snapRecord{rec: &cp, seq: gc.seq, rev: cp.Revision, published: gc.published})
	}
	return snap
}

// writeFiles writes the snapshot's record files (off the writer
// goroutine): the outbox is synced first, then each file is written
// atomically, then the directory is fsynced.
func (w *writer) writeFiles(boundary uint64, snap []snapRecord) compaction {
	r := compaction{boundary: boundary, snap: snap}
	if s, ok := w.o.sink.(interface{ Sync() error }); ok {
		if err := s.Sync(); err != nil {
			r.err = fmt.Errorf("outbox sync before compaction: %w", err)
			return r
		}
	}
	r.err = gamestore.WriteRecordFiles(w.o.fs, w.o.gamesDir, recordFiles(snap))
	return r
}

// recordFiles are the record files of snap.
func recordFiles(snap []snapRecord) []gamestore.RecordFile {
	files := make([]gamestore.RecordFile, len(snap))
	for i, s := range snap {
		files[i] = gamestore.RecordFile{Record: s.rec, JournalSeq: s.seq}
	}
	return files
}

// compacted takes a compaction's outcome (on the writer goroutine).
func (w *writer) compacted(r compaction) {
	w.compacting = false
	if r.err != nil {
		w.health.Fail(w.o.now(), r.err)
		w.o.log.Error("storage: record files not written; the journal keeps the changes", "err", r.err)
		for _, s := range r.snap {
			if gc := w.games[s.rec.Info.Game]; gc != nil {
				gc.compact = true
			}
		}
		return
	}
	if err := w.j.DropBefore(r.boundary); err != nil {
		w.health.Fail(w.o.now(), err)
		w.o.log.Error("storage: old journal segments not deleted", "err", err)
	}
	for _, s := range r.snap {
		if gc := w.games[s.rec.Info.Game]; gc != nil && gc.rec.Revision == s.rev {
			gc.safe = max(gc.safe, min(s.published, len(gc.rec.Moves)))
			w.release(gc)
		}
	}
}

// finish ends the writer: a running compaction is awaited, a last one
// writes every changed record into its file, and the journal is closed,
// all by deadline (the stop's: Options.DrainTimeout after it began, so
// that a service manager's stop timeout is kept). Changes that could not
// be written by now are lost from this run (the log says how many); they
// are on the board, which a restart reads. Record files not written by
// the deadline are not needed: the journal keeps their changes.
func (w *writer) finish(deadline time.Time) {
	if n := len(w.uncommitted) + len(w.unpublished); n > 0 {
		w.o.log.Error("storage: stopping with changes not written or not published", "changes", n, "err", w.health.Err(w.o.now()))
	}
	wait := func() bool {
		select {
		case r := <-w.compactDone:
			w.compacted(r)
			return true
		default:
		}
		t := time.NewTimer(max(deadline.Sub(w.o.now()), 0))
		defer t.Stop()
		select {
		case r := <-w.compactDone:
			w.compacted(r)
			return true
		case <-t.C:
			w.o.log.Error("storage: record files not written at stop; the journal keeps the changes")
			return false
		}
	}
	if w.compacting && !wait() {
		w.j.Close()
		return
	}
	if len(w.uncommitted) == 0 {
		w.maybeCompact(true)
		if w.compacting {
			wait()
		}
	}
	w.j.Close()
}

// repair answers damage found when the journal was opened
// (gamestore.Journal.Repair: the records written into their files, the
// damaged files and segments set aside, the others deleted), logs what
// was done and returns, by game, what the arbiter must be told.
func repair(w *writer, l *gamestore.Loaded, now time.Time) map[game.ID][]string {
	r := w.j.Repair(l, now)
	notes := map[game.ID][]string{}
	for _, f := range r.Files {
		if f.Err != nil {
			notes[f.Game] = append(notes[f.Game], fmt.Sprintf("its record file %s is damaged (%s) and could not be set aside: %v", f.Path, f.Why, f.Err))
			continue
		}
		notes[f.Game] = append(notes[f.Game], fmt.Sprintf("its record file %s was damaged (%s) and is set aside as %s", f.Path, f.Why, f.Aside))
	}
	for g := range l.Holes {
		notes[g] = append(notes[g], "the journal lost some of its changes")
	}
	if r.Unwritten != nil {
		w.o.log.Error("storage: damaged journal: record files not written; the segments stay", "err", r.Unwritten)
		for _, d := range l.Damaged {
			for _, g := range d.Games {
				notes[g] = append(notes[g], fmt.Sprintf("the journal segment %s is damaged (%s)", d.Path, d.Scan))
			}
		}
		return notes
	}
	for _, s := range r.Segments {
		aside := s.Aside
		if s.Err != nil {
			aside = "(could not be set aside: " + s.Err.Error() + ")"
		}
		w.o.log.Error("storage: damaged journal segment set aside", "segment", s.Path, "aside", aside, "damage", s.Scan.String())
		for _, g := range s.Games {
			notes[g] = append(notes[g], fmt.Sprintf("the journal segment %s was damaged (%s) and is set aside as %s; "+
				"this game's latest changes may be missing", s.Path, s.Scan, aside))
		}
	}
	return notes
}
