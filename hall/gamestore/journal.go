package gamestore

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/dgtbridge/dgtbridge/broadcast/storage"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// The game journal is where every change of a game record goes first: an
// append-only log of segment files <DataDir>/games/journal/<n>.seg, framed
// as the outbox is (storage.AppendFrame), shared by every board of the
// hall, so that the moves of many boards are made durable by one fsync
// (group commit, writer.go). A segment starts with an 'H' frame (the first
// sequence number it was started for); every other frame is 'R' and one
// JSON [Entry]: the record's header and the moves from Entry.From on; an
// entry that follows the game's previous one (Prev) leaves out what did
// not change since (Inherit: the Info, the last correction, the team
// events before TeamFrom), so that an entry costs what changed, not the
// game. Compaction (the hall's, through [WriteRecordFiles]) writes the records
// into their files <DataDir>/games/<g>.json (each naming the last entry
// it holds, journal_seq) and then deletes the segments before it; opening
// a hall replays the files and then the entries after them.
//
// Damage (a bad byte, a cut segment) costs only the entries it touches:
// storage.Scan finds the next good frame. Each entry names the previous
// entry of its game (Prev), so a game whose chain has a hole is known to
// have lost changes; it keeps what it had before the hole (and takes the
// next full entry, From 0, whole). The damaged segment is set aside once
// everything it held is safe in the record files ([Journal.Repair]).

// journalKinds are the journal's frame kinds.
const journalKinds = "HR"

// Entry is one change of one game record in the journal.
type Entry struct {
	// Seq orders all entries of the hall; a record file holds every entry
	// of its game up to its journal_seq.
	Seq uint64 `json:"seq"`
	// Prev is the Seq of the game's previous entry (0: none before, or
	// From is 0 and the entry stands alone).
	Prev uint64  `json:"prev,omitempty"`
	Game game.ID `json:"g"`
	// From: the record keeps its first From moves and Rec.Moves follow.
	From int `json:"from"`
	// Inherit: the entry follows the game's previous entry (Prev), whose
	// Info and LastCorrection it keeps (Rec's are left empty), and whose
	// first TeamFrom team events Rec.Team.Events follow. Entries written
	// before it was known are whole.
	Inherit  bool              `json:"inh,omitempty"`
	TeamFrom int               `json:"tfrom,omitempty"`
	Rec      gamerecord.Record `json:"rec"`
}

// chained reports whether e applies to its game's previous entry only.
func (e *Entry) chained() bool { return e.From > 0 || e.Inherit }

// Journal is the segment files. One goroutine owns it (the hall's
// storage goroutine); its methods are not safe for concurrent use.
type Journal struct {
	fs       storage.FS
	dir      string
	gamesDir string      // the record files' directory (Repair)
	segs     []*jsegment // oldest first; the last takes appends
	// broken: a write or fsync failed; the next append starts a new
	// segment (what the failed one holds may be lost).
	broken bool
	size   int64 // bytes appended since the last compaction started
}

type jsegment struct {
	id   uint64
	path string
	f    storage.File
	size int64
}

func (j *Journal) segPath(id uint64) string {
	return filepath.Join(j.dir, fmt.Sprintf("%016d.seg", id))
}

// newest returns the segment taking appends.
func (j *Journal) newest() *jsegment { return j.segs[len(j.segs)-1] }

// start creates segment id, first sequence number base, and makes it the
// newest.
func (j *Journal) start(id, base uint64) error {
	s := &jsegment{id: id, path: j.segPath(id)}
	f, err := j.fs.OpenFile(s.path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o640)
	if err != nil {
		return fmt.Errorf("gamestore: journal: new segment: %w", err)
	}
	h := storage.AppendFrame(nil, binary.BigEndian.AppendUint64([]byte{'H'}, base))
	if _, err := f.WriteAt(h, 0); err != nil {
		f.Close()
		j.fs.Remove(s.path)
		return fmt.Errorf("gamestore: journal: new segment %s: %w", s.path, err)
	}
	s.f, s.size = f, int64(len(h))
	j.segs = append(j.segs, s)
	if err := j.fs.SyncDir(j.dir); err != nil {
		return fmt.Errorf("gamestore: journal: %s: %w", j.dir, err)
	}
	return nil
}

// Append writes frames (whole entries, [AppendEntry]; base is the first
// one's Seq) at the end of the newest segment in one write, or of a new
// one after a failure. A failed write is cut off again (best effort; a
// replay cuts what is left).
func (j *Journal) Append(frames []byte, base uint64) error {
	if j.broken {
		if err := j.start(j.newest().id+1, base); err != nil {
			return err
		}
		j.broken = false
	}
	s := j.newest()
	if _, err := s.f.WriteAt(frames, s.size); err != nil {
		s.f.Truncate(s.size)
		j.broken = true
		return fmt.Errorf("gamestore: journal write %s: %w", s.path, err)
	}
	s.size += int64(len(frames))
	j.size += int64(len(frames))
	return nil
}

// Sync makes the newest segment durable. After a failed fsync the pages
// may be gone whatever a later fsync says: the caller writes the entries
// again (whole), and the next Append starts a new segment.
func (j *Journal) Sync() error {
	s := j.newest()
	if err := s.f.Sync(); err != nil {
		j.broken = true
		return fmt.Errorf("gamestore: journal sync %s: %w", s.path, err)
	}
	return nil
}

// Rotate starts a new segment (compaction's boundary: the entries from
// base on go into it) and returns its id; Size starts again from 0.
func (j *Journal) Rotate(base uint64) (uint64, error) {
	if err := j.start(j.newest().id+1, base); err != nil {
		return 0, err
	}
	j.broken = false
	j.size = 0
	return j.newest().id, nil
}

// DropBefore deletes the segments before id (compaction made them
// redundant: the record files hold what they held).
func (j *Journal) DropBefore(id uint64) error {
	for len(j.segs) > 1 && j.segs[0].id < id {
		s := j.segs[0]
		if err := j.fs.Remove(s.path); err != nil {
			return fmt.Errorf("gamestore: journal: drop %s: %w", s.path, err)
		}
		s.f.Close()
		j.segs = j.segs[1:]
	}
	return j.fs.SyncDir(j.dir)
}

// Close closes the segment files.
func (j *Journal) Close() {
	for _, s := range j.segs {
		s.f.Close()
	}
}

// Size is how many bytes were appended since the last Rotate (or Open).
func (j *Journal) Size() int64 { return j.size }

// Segments is how many segment files the journal has (1: only the one
// taking appends; the others wait for compaction).
func (j *Journal) Segments() int { return len(j.segs) }

// AppendEntry appends e as an 'R' frame to b (for [Journal.Append]).
func AppendEntry(b []byte, e *Entry) ([]byte, error) {
	js, err := json.Marshal(e)
	if err != nil {
		return b, fmt.Errorf("gamestore: journal encode %s: %w", e.Game, err)
	}
	return storage.AppendFrame(b, append([]byte{'R'}, js...)), nil
}

// Loaded is what opening the journal found.
type Loaded struct {
	// Records by game: the record files the journal touched (and only
	// those) with the journal's entries applied.
	Records map[game.ID]*gamerecord.Record
	// Seqs: the last entry applied to each game (its chain's end).
	Seqs map[game.ID]uint64
	// Next is the next sequence number.
	Next uint64
	// Damaged segments (bad bytes, cut short), with the games that had
	// entries in them; Holes: games whose chain of entries broke.
	Damaged []SegmentDamage
	Holes   map[game.ID]bool
	// BadFiles: record files that do not parse, by game, with why
	// (Repair sets them aside).
	BadFiles map[game.ID]string
}

// SegmentDamage is a damaged segment found at open.
type SegmentDamage struct {
	Path string
	// Scan says where the damage is.
	Scan storage.ScanResult
	// Games had entries in the segment (sorted).
	Games []game.ID
}

// Open opens (creating) the journal in dir, replays it over the record
// files of gamesDir it names, and leaves a new segment open for appends.
// Damage never stops it: Loaded says what it found.
func Open(fsys storage.FS, dir, gamesDir string) (*Journal, *Loaded, error) {
	j := &Journal{fs: fsys, dir: dir, gamesDir: gamesDir}
	if err := fsys.MkdirAll(dir, storage.DirMode); err != nil {
		return nil, nil, fmt.Errorf("gamestore: journal: %w", err)
	}
	names, err := fsys.ReadDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("gamestore: journal: %w", err)
	}
	var ids []uint64
	for _, d := range names {
		base, ok := strings.CutSuffix(d.Name(), ".seg")
		if id, err := strconv.ParseUint(base, 10, 64); ok && err == nil && !d.IsDir() {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	l := &Loaded{Records: map[game.ID]*gamerecord.Record{}, Seqs: map[game.ID]uint64{}, Next: 1,
		Holes: map[game.ID]bool{}, BadFiles: map[game.ID]string{}}
	files := map[game.ID]bool{} // record file read (or found missing) already
	for i, id := range ids {
		s := &jsegment{id: id, path: j.segPath(id)}
		if s.f, err = fsys.OpenFile(s.path, os.O_RDWR, 0o640); err != nil {
			j.Close()
			return nil, nil, fmt.Errorf("gamestore: journal: %w", err)
		}
		j.segs = append(j.segs, s)
		st, err := s.f.Stat()
		if err != nil {
			j.Close()
			return nil, nil, fmt.Errorf("gamestore: journal: %w", err)
		}
		touched := map[game.ID]bool{}
		res, err := storage.Scan(s.f, st.Size(), journalKinds, func(off int64, body []byte) error {
			switch body[0] {
			case 'H':
				if len(body) == 9 {
					l.Next = max(l.Next, binary.BigEndian.Uint64(body[1:]))
				}
			case 'R':
				var e Entry
				if json.Unmarshal(body[1:], &e) != nil || e.Seq == 0 {
					return nil
				}
				touched[e.Game] = true
				l.Next = max(l.Next, e.Seq+1)
				if !files[e.Game] {
					files[e.Game] = true
					l.readFile(fsys, gamesDir, e.Game)
				}
				l.apply(&e)
			}
			return nil
		})
		if err != nil {
			j.Close()
			return nil, nil, err
		}
		s.size = res.End
		if len(res.Damaged) > 0 || res.Tail > 0 && i < len(ids)-1 {
			d := SegmentDamage{Path: s.path, Scan: res}
			for g := range touched {
				d.Games = append(d.Games, g)
			}
			slices.SortFunc(d.Games, func(a, b game.ID) int { return strings.Compare(a.String(), b.String()) })
			l.Damaged = append(l.Damaged, d)
		} else if res.Tail > 0 {
			// The newest segment's torn tail: a write cut short by a
			// crash; nothing in it was ever acknowledged.
			if err := s.f.Truncate(res.End); err != nil {
				j.Close()
				return nil, nil, fmt.Errorf("gamestore: journal: cut torn tail of %s: %w", s.path, err)
			}
		}
	}
	var next uint64 = 1
	if len(ids) > 0 {
		next = ids[len(ids)-1] + 1
	}
	if err := j.start(next, l.Next); err != nil {
		j.Close()
		return nil, nil, err
	}
	return j, l, nil
}

// readFile loads the record file of g as the base its entries apply to;
// a file that does not parse is noted (and set aside by Repair).
func (l *Loaded) readFile(fsys storage.FS, gamesDir string, g game.ID) {
	r, seq, ok, err := LoadRecordFile(fsys, gamesDir, g)
	switch {
	case err != nil:
		l.BadFiles[g] = err.Error()
	case ok:
		l.Records[g] = r
		l.Seqs[g] = seq
	}
}

// apply plays e onto its game's record, unless the record file already
// holds it, or the game's chain of entries has a hole before it.
func (l *Loaded) apply(e *Entry) {
	g := e.Game
	last := l.Seqs[g]
	if e.Seq <= last {
		return // in the record file already (compaction, then a crash)
	}
	r := l.Records[g]
	if e.chained() && (r == nil || e.Prev != last || e.From > len(r.Moves) || e.TeamFrom > len(r.TeamEvents())) {
		l.Holes[g] = true // an entry of this game is missing
		return
	}
	nr := e.Rec // its Published is what the writer knew to be safe
	if e.chained() {
		nr.Moves = append(slices.Clip(r.Moves[:e.From]), e.Rec.Moves...)
	}
	if e.Inherit {
		nr.Info, nr.LastCorrection = r.Info, r.LastCorrection
		if nr.Team != nil {
			nr.Team.Events = append(slices.Clip(r.TeamEvents()[:e.TeamFrom]), nr.Team.Events...)
		}
	}
	l.Records[g] = &nr
	l.Seqs[g] = e.Seq
	delete(l.Holes, g)
}
