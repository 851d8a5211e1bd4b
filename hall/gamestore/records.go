package gamestore

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast/storage"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// ErrCorruptRecord: a record file exists but does not parse. It is set
// aside (it is evidence: renamed, never overwritten) and the hall starts
// the game from what the journal and the board still hold.
var ErrCorruptRecord = errors.New("gamestore: corrupt game record")

// RecordError names the record file a load or save failed on.
type RecordError struct {
	Path string
	Err  error
}

// Error says which record file and why.
func (e *RecordError) Error() string {
	return "gamestore: game record " + e.Path + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *RecordError) Unwrap() error { return e.Err }

// RecordPath returns <dir>/<event>.<round>.<board>.json.
func RecordPath(dir string, g game.ID) string {
	return filepath.Join(dir, g.String()+".json")
}

// RecordFile is a record file's content: the record and the last journal
// entry of its game it holds.
type RecordFile struct {
	*gamerecord.Record
	JournalSeq uint64 `json:"journal_seq,omitempty"`
}

// writeRecordFile writes r into its file atomically: a temporary file in
// the same directory, fsynced, renamed over the old one. The caller
// fsyncs the directory (once for many files) before counting on it
// (WriteRecordFiles).
func writeRecordFile(fsys storage.FS, dir string, r *gamerecord.Record, seq uint64) error {
	path := RecordPath(dir, r.Info.Game)
	b, err := json.Marshal(RecordFile{Record: r, JournalSeq: seq})
	if err != nil {
		return &RecordError{path, err}
	}
	tmp := filepath.Join(dir, ".tmp-"+r.Info.Game.String())
	f, err := fsys.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, storage.FileMode)
	if err != nil {
		return &RecordError{path, err}
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = fsys.Rename(tmp, path)
	}
	if err != nil {
		fsys.Remove(tmp)
		return &RecordError{path, err}
	}
	return nil
}

// LoadRecordFile reads the record file of game g from dir: the record and
// its journal_seq; ok is false when there is none. A file that does not
// parse is a *RecordError wrapping ErrCorruptRecord.
func LoadRecordFile(fsys storage.FS, dir string, g game.ID) (r *gamerecord.Record, seq uint64, ok bool, err error) {
	path := RecordPath(dir, g)
	b, err := fsys.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, false, nil
	}
	if err != nil {
		return nil, 0, false, &RecordError{path, err}
	}
	rf := RecordFile{Record: new(gamerecord.Record)}
	if err := json.Unmarshal(b, &rf); err != nil {
		return nil, 0, false, &RecordError{path, fmt.Errorf("%w: %v", ErrCorruptRecord, err)}
	}
	if rf.Info.Game != g {
		return nil, 0, false, &RecordError{path, fmt.Errorf("%w: holds game %s", ErrCorruptRecord, rf.Info.Game)}
	}
	return rf.Record, rf.JournalSeq, true, nil
}

// SetAside renames a damaged file to <path>.damaged-<time> (evidence: it
// is never read or overwritten again), fsyncs its directory and returns
// the new name.
func SetAside(fsys storage.FS, path string, now time.Time) (string, error) {
	aside := path + ".damaged-" + now.UTC().Format("20060102T150405.000")
	if err := fsys.Rename(path, aside); err != nil {
		return "", err
	}
	return aside, fsys.SyncDir(filepath.Dir(path))
}

// SaveRecord writes r into <dir>/<g>.json atomically (temporary file,
// fsync, rename, directory fsync), as compaction does. The hall saves
// through its journal; this is for tools and tests.
func SaveRecord(dir string, r *gamerecord.Record) error {
	if err := storage.OS.MkdirAll(dir, storage.DirMode); err != nil {
		return &RecordError{RecordPath(dir, r.Info.Game), err}
	}
	if err := writeRecordFile(storage.OS, dir, r, 0); err != nil {
		return err
	}
	return storage.OS.SyncDir(dir)
}

// LoadRecord reads the record file of game g from dir; ok is false when
// there is none. A file that does not parse is a *RecordError wrapping
// ErrCorruptRecord. It does not see changes still in the hall's journal
// (a running hall's: Hall.Record).
func LoadRecord(dir string, g game.ID) (r *gamerecord.Record, ok bool, err error) {
	r, _, ok, err = LoadRecordFile(storage.OS, dir, g)
	return r, ok, err
}

// recordsParallel bounds the record files fsynced at once: the file
// system merges concurrent fsyncs, and a handful of threads is enough.
const recordsParallel = 8

// WriteRecordFiles writes every record of files into its file in dir
// (each atomically, several at once), and then fsyncs dir: when it
// returns nil, every file is durable. It may run on any goroutine: it
// touches the record files only, never the journal.
func WriteRecordFiles(fsys storage.FS, dir string, files []RecordFile) error {
	if err := fsys.MkdirAll(dir, storage.DirMode); err != nil {
		return err
	}
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
		sem  = make(chan struct{}, recordsParallel)
	)
	for _, f := range files {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			if err := writeRecordFile(fsys, dir, f.Record, f.JournalSeq); err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	return fsys.SyncDir(dir)
}
