package gamestore

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Repaired is what Repair did, for the caller to log and to tell the
// arbiters of the games concerned.
type Repaired struct {
	// Files: the record files that did not parse (Loaded.BadFiles),
	// each set aside or not (Err).
	Files []FileAside
	// Unwritten: the records the journal holds could not be written into
	// their files, so the segments stay as they are (read again next
	// time); nil when they were written or there was nothing to repair.
	Unwritten error
	// Segments: the damaged segments, each set aside or not (Err), once
	// the records were written.
	Segments []SegmentAside
}

// FileAside is a record file that did not parse.
type FileAside struct {
	Game game.ID
	Path string
	Why  string // why it does not parse
	// Aside is its new name; Err says why it could not be set aside.
	Aside string
	Err   error
}

// SegmentAside is a damaged journal segment.
type SegmentAside struct {
	SegmentDamage
	// Aside is its new name; Err says why it could not be set aside.
	Aside string
	Err   error
}

// Repair answers what Open found: the record files that do not parse are
// set aside. When there was damage (a damaged segment, a game whose chain
// of entries broke, a bad record file), every record the journal holds is
// written into its file (so nothing depends on the old segments any
// more), then the damaged segments are set aside (renamed, kept as
// evidence) and the other old segments deleted. When the files cannot be
// written the segments stay as they are (Repaired.Unwritten). Call it
// once, right after Open, before any Append.
func (j *Journal) Repair(l *Loaded, now time.Time) Repaired {
	var r Repaired
	for g, why := range l.BadFiles {
		path := RecordPath(j.gamesDir, g)
		aside, err := SetAside(j.fs, path, now)
		r.Files = append(r.Files, FileAside{Game: g, Path: path, Why: why, Aside: aside, Err: err})
	}
	if len(l.Damaged) == 0 && len(l.Holes) == 0 && len(l.BadFiles) == 0 {
		return r
	}
	var files []RecordFile
	for g, rec := range l.Records {
		files = append(files, RecordFile{Record: rec, JournalSeq: l.Seqs[g]})
	}
	if err := WriteRecordFiles(j.fs, j.gamesDir, files); err != nil {
		r.Unwritten = err
		return r
	}
	damaged := map[string]SegmentDamage{}
	for _, d := range l.Damaged {
		damaged[d.Path] = d
	}
	newest := j.newest()
	for _, s := range j.segs[:len(j.segs)-1] {
		s.f.Close()
		d, bad := damaged[s.path]
		if !bad {
			j.fs.Remove(s.path)
			continue
		}
		aside, err := SetAside(j.fs, s.path, now)
		r.Segments = append(r.Segments, SegmentAside{SegmentDamage: d, Aside: aside, Err: err})
	}
	j.segs = []*jsegment{newest}
	j.fs.SyncDir(j.dir)
	return r
}
