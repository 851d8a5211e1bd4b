package gamestore

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"github.com/dgtbridge/dgtbridge/broadcast/storage"
	"github.com/dgtbridge/dgtbridge/broadcast/storage/storagetest"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

var (
	gA = game.ID{Event: "open2026", Round: 3, Board: 1}
	gB = game.ID{Event: "open2026", Round: 3, Board: 2}
	gC = game.ID{Event: "open2026", Round: 3, Board: 3}
)

// recordOf is a record of g with n plies (distinct UCIs) and a header.
func recordOf(g game.ID, n int) *gamerecord.Record {
	r := gamerecord.NewRecord(gamerecord.Info{Game: g, White: "White " + g.String(), Black: "Black"}, "", t0)
	for i := range n {
		r.Moves = append(r.Moves, gamerecord.Ply{UCI: fmt.Sprintf("a%db%d", i%8+1, (i+3)%8+1), SAN: fmt.Sprint("m", i)})
	}
	return r
}

// whole is the entry holding all of r.
func whole(seq uint64, r *gamerecord.Record) *Entry {
	return &Entry{Seq: seq, Game: r.Info.Game, Rec: *r}
}

// chained is the entry adding r's moves from `from` on to the game's entry
// prev, leaving out the header it inherits.
func chained(seq, prev uint64, r *gamerecord.Record, from int) *Entry {
	e := &Entry{Seq: seq, Prev: prev, Game: r.Info.Game, From: from, Inherit: true, Rec: *r}
	e.Rec.Moves = r.Moves[from:]
	e.Rec.Info = gamerecord.Info{}
	return e
}

// write appends entries (one write) and syncs; it returns where each
// entry's frame starts in the segment and the segment's size before.
func write(t *testing.T, j *Journal, entries ...*Entry) []int64 {
	t.Helper()
	var b []byte
	var offs []int64
	start := j.newest().size
	for _, e := range entries {
		offs = append(offs, start+int64(len(b)))
		var err error
		if b, err = AppendEntry(b, e); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Append(b, entries[0].Seq); err != nil {
		t.Fatal(err)
	}
	if err := j.Sync(); err != nil {
		t.Fatal(err)
	}
	return offs
}

// sameMoves reports whether two records have the same plies (UCIs).
func sameMoves(a, b *gamerecord.Record) bool {
	return a != nil && b != nil && slices.Equal(a.UCIs(), b.UCIs())
}

// TestJournalChains: entries of two games, whole and chained, replay
// (after a restart without compaction) into the records as they were,
// a chained entry keeping its predecessor's header; Next follows the last
// sequence number. After a compaction (rotate, record files written,
// the old segments dropped) the journal holds nothing and the files hold
// the records with their journal_seq; when a crash comes between the
// files and the drop, the entries already in a file are not applied
// again (and one whose predecessor was dropped is no hole).
func TestJournalChains(t *testing.T) {
	games := t.TempDir()
	jdir := filepath.Join(games, "journal")
	fs := storagetest.New(nil)
	j, l, err := Open(fs, jdir, games)
	if err != nil {
		t.Fatal(err)
	}
	if l.Next != 1 || len(l.Records) != 0 || j.Segments() != 1 {
		t.Fatalf("an empty journal: next %d, records %d, segments %d", l.Next, len(l.Records), j.Segments())
	}
	a, b := recordOf(gA, 5), recordOf(gB, 2)
	write(t, j, whole(1, recordOf(gA, 2)), whole(2, b))
	write(t, j, chained(3, 1, recordOf(gA, 4), 2))
	write(t, j, chained(4, 3, a, 4))
	if j.Size() == 0 {
		t.Error("Size is 0 after appends")
	}
	j.Close()

	j, l, err = Open(fs, jdir, games)
	if err != nil {
		t.Fatal(err)
	}
	if !sameMoves(l.Records[gA], a) || l.Records[gA].Info != a.Info || !sameMoves(l.Records[gB], b) {
		t.Fatalf("replayed: %v %+v, %v", l.Records[gA].UCIs(), l.Records[gA].Info, l.Records[gB].UCIs())
	}
	if l.Seqs[gA] != 4 || l.Seqs[gB] != 2 || l.Next != 5 {
		t.Errorf("seqs %v, next %d; want A 4, B 2, next 5", l.Seqs, l.Next)
	}
	if len(l.Holes)+len(l.Damaged)+len(l.BadFiles) != 0 {
		t.Errorf("holes %v, damage %v, bad files %v", l.Holes, l.Damaged, l.BadFiles)
	}

	// Compaction: a new segment, the files, then (not yet) the drop.
	boundary, err := j.Rotate(l.Next)
	if err != nil {
		t.Fatal(err)
	}
	if j.Size() != 0 {
		t.Errorf("Size after Rotate: %d", j.Size())
	}
	if err := WriteRecordFiles(fs, games, []RecordFile{{Record: l.Records[gA], JournalSeq: 4}, {Record: l.Records[gB], JournalSeq: 2}}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	// A crash here: the files and the old segments both hold the entries.
	j, l, err = Open(fs, jdir, games)
	if err != nil {
		t.Fatal(err)
	}
	if !sameMoves(l.Records[gA], a) || !sameMoves(l.Records[gB], b) || l.Next != 5 {
		t.Fatalf("after a crash between the files and the drop: %v, %v, next %d", l.Records[gA].UCIs(), l.Records[gB].UCIs(), l.Next)
	}
	if err := j.DropBefore(boundary + 1); err != nil { // the segment Open started
		t.Fatal(err)
	}
	if j.Segments() != 1 {
		t.Errorf("after DropBefore: %d segments", j.Segments())
	}
	j.Close()
	j, l, err = Open(fs, jdir, games)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Records) != 0 || l.Next != 5 {
		t.Errorf("the journal still holds %d records after the drop (next %d)", len(l.Records), l.Next)
	}
	r, seq, ok, err := LoadRecordFile(fs, games, gA)
	if err != nil || !ok || seq != 4 || !sameMoves(r, a) {
		t.Errorf("record file of A: %v %v seq %d %v", ok, err, seq, r.UCIs())
	}

	// Another change, another compaction, a crash before its drop: the
	// journal's entry of A follows one that is gone, and the file holds
	// it already: no hole.
	a6 := recordOf(gA, 6)
	write(t, j, chained(5, 4, a6, 5))
	if _, err := j.Rotate(6); err != nil {
		t.Fatal(err)
	}
	if err := WriteRecordFiles(fs, games, []RecordFile{{Record: a6, JournalSeq: 5}}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	_, l, err = Open(fs, jdir, games)
	if err != nil {
		t.Fatal(err)
	}
	if !sameMoves(l.Records[gA], a6) || l.Seqs[gA] != 5 || len(l.Holes) != 0 {
		t.Errorf("after a crash before the second drop: %v seq %d, holes %v", l.Records[gA].UCIs(), l.Seqs[gA], l.Holes)
	}
}

// TestJournalWriteFails: a write that fails is cut off and the next
// Append starts a new segment; what was written before is kept.
func TestJournalWriteFails(t *testing.T) {
	games := t.TempDir()
	jdir := filepath.Join(games, "journal")
	fs := storagetest.New(nil)
	j, _, err := Open(fs, jdir, games)
	if err != nil {
		t.Fatal(err)
	}
	write(t, j, whole(1, recordOf(gA, 1)))
	fs.Fail(storagetest.Write, ".seg", syscall.ENOSPC)
	frame, _ := AppendEntry(nil, chained(2, 1, recordOf(gA, 2), 1))
	if err := j.Append(frame, 2); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("a failed write: %v", err)
	}
	fs.Heal()
	frame, _ = AppendEntry(nil, whole(2, recordOf(gA, 2)))
	if err := j.Append(frame, 2); err != nil {
		t.Fatal(err)
	}
	if j.Segments() != 2 {
		t.Errorf("after a failed write: %d segments, want a new one", j.Segments())
	}
	j.Close()
	_, l, err := Open(fs, jdir, games)
	if err != nil {
		t.Fatal(err)
	}
	if !sameMoves(l.Records[gA], recordOf(gA, 2)) || len(l.Damaged)+len(l.Holes) != 0 {
		t.Errorf("replayed %v, damage %v, holes %v", l.Records[gA].UCIs(), l.Damaged, l.Holes)
	}
}

// TestRepairSetsAsideDamage: a flipped byte in an older segment costs the
// entry it hits: its game has a hole (it keeps what it had before), the
// segment is reported with the games it held; a record file that does not
// parse is reported too. Repair writes the records into their files, sets
// the damaged segment and the bad file aside (renamed, kept), deletes the
// other old segments, and says so; a reopened journal finds no damage.
func TestRepairSetsAsideDamage(t *testing.T) {
	games := t.TempDir()
	jdir := filepath.Join(games, "journal")
	j, _, err := Open(storage.OS, jdir, games)
	if err != nil {
		t.Fatal(err)
	}
	offs := write(t, j, whole(1, recordOf(gA, 2)), chained(2, 1, recordOf(gA, 3), 2), whole(3, recordOf(gB, 4)), whole(4, recordOf(gC, 1)))
	damagedSeg := j.newest().path
	if _, err := j.Rotate(5); err != nil {
		t.Fatal(err)
	}
	write(t, j, chained(5, 2, recordOf(gA, 4), 3))
	j.Close()
	// A flipped byte in A's second entry; C's record file is garbage.
	b, err := os.ReadFile(damagedSeg)
	if err != nil {
		t.Fatal(err)
	}
	b[offs[1]+20] ^= 0xff
	os.WriteFile(damagedSeg, b, 0o640)
	os.WriteFile(RecordPath(games, gC), []byte(`{"info":`), 0o640)

	j, l, err := Open(storage.OS, jdir, games)
	if err != nil {
		t.Fatal(err)
	}
	if !sameMoves(l.Records[gA], recordOf(gA, 2)) || !l.Holes[gA] || len(l.Holes) != 1 {
		t.Errorf("A after the damage: %v, holes %v; want its first 2 plies and a hole", l.Records[gA].UCIs(), l.Holes)
	}
	if len(l.Damaged) != 1 || l.Damaged[0].Path != damagedSeg || !slices.Equal(l.Damaged[0].Games, []game.ID{gA, gB, gC}) ||
		len(l.Damaged[0].Scan.Damaged) == 0 {
		t.Errorf("damage found: %+v", l.Damaged)
	}
	if _, bad := l.BadFiles[gC]; !bad || len(l.BadFiles) != 1 {
		t.Errorf("bad files: %v", l.BadFiles)
	}

	r := j.Repair(l, t0)
	if r.Unwritten != nil {
		t.Fatal(r.Unwritten)
	}
	if len(r.Files) != 1 || r.Files[0].Game != gC || r.Files[0].Err != nil || r.Files[0].Path != RecordPath(games, gC) {
		t.Fatalf("files set aside: %+v", r.Files)
	}
	if _, err := os.Stat(r.Files[0].Aside); err != nil {
		t.Errorf("the bad record file is not kept: %v", err)
	}
	if len(r.Segments) != 1 || r.Segments[0].Path != damagedSeg || r.Segments[0].Err != nil {
		t.Fatalf("segments set aside: %+v", r.Segments)
	}
	if _, err := os.Stat(r.Segments[0].Aside); err != nil {
		t.Errorf("the damaged segment is not kept: %v", err)
	}
	if segs, _ := filepath.Glob(filepath.Join(jdir, "*.seg")); len(segs) != 1 || j.Segments() != 1 {
		t.Errorf("segments left: %v (journal: %d)", segs, j.Segments())
	}
	for g, n := range map[game.ID]int{gA: 2, gB: 4} {
		if rec, _, ok, err := LoadRecordFile(storage.OS, games, g); !ok || err != nil || !sameMoves(rec, recordOf(g, n)) {
			t.Errorf("record file of %s: %v %v", g, ok, err)
		}
	}
	j.Close()
	_, l, err = Open(storage.OS, jdir, games)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Damaged)+len(l.Holes)+len(l.BadFiles)+len(l.Records) != 0 {
		t.Errorf("after the repair: damage %v, holes %v, bad files %v, records %d", l.Damaged, l.Holes, l.BadFiles, len(l.Records))
	}
}

// TestRepairKeepsSegmentsWhenFilesFail: when the record files cannot be
// written, the segments stay as they are (read again next time) and
// Repair says why.
func TestRepairKeepsSegmentsWhenFilesFail(t *testing.T) {
	games := t.TempDir()
	jdir := filepath.Join(games, "journal")
	fs := storagetest.New(nil)
	j, _, err := Open(fs, jdir, games)
	if err != nil {
		t.Fatal(err)
	}
	offs := write(t, j, whole(1, recordOf(gA, 2)), whole(2, recordOf(gB, 2)), whole(3, recordOf(gC, 2)))
	seg := j.newest().path
	j.Close()
	b, _ := os.ReadFile(seg)
	b[offs[1]+20] ^= 0xff
	os.WriteFile(seg, b, 0o640)

	j, l, err := Open(fs, jdir, games)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Damaged) != 1 {
		t.Fatalf("damage found: %+v", l.Damaged)
	}
	fs.Fail(storagetest.Rename, ".json", syscall.EIO)
	r := j.Repair(l, t0)
	if !errors.Is(r.Unwritten, syscall.EIO) || len(r.Segments) != 0 {
		t.Fatalf("repair with failing files: unwritten %v, segments %+v", r.Unwritten, r.Segments)
	}
	if _, err := os.Stat(seg); err != nil {
		t.Errorf("the damaged segment is gone: %v", err)
	}
	j.Close()
}
