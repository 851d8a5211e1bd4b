package hall

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// ErrCorruptRecord: a record file exists but does not parse. The daemon does
// not overwrite it (it is evidence); it refuses to start that board.
var ErrCorruptRecord = errors.New("hall: corrupt game record")

// RecordError names the record file a load or save failed on.
type RecordError struct {
	Path string
	Err  error
}

// Error says which record file and why.
func (e *RecordError) Error() string { return "hall: game record " + e.Path + ": " + e.Err.Error() }

// Unwrap returns the cause.
func (e *RecordError) Unwrap() error { return e.Err }

// RecordPath returns <dir>/<event>.<round>.<board>.json.
func RecordPath(dir string, g game.ID) string {
	return filepath.Join(dir, g.String()+".json")
}

// SaveRecord writes r atomically: a temporary file in the same directory,
// fsynced, renamed over the old one, and the directory fsynced, so after a
// crash the file holds either the old or the new record, never a mix.
func SaveRecord(dir string, r *Record) error {
	path := RecordPath(dir, r.Info.Game)
	b, err := json.Marshal(r)
	if err != nil {
		return &RecordError{path, err}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return &RecordError{path, err}
	}
	// One writer per game (its board goroutine), so a fixed temporary
	// name is safe, and cheaper than a random one in a directory of
	// hundreds of games.
	tmp := filepath.Join(dir, ".tmp-"+r.Info.Game.String())
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
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
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return &RecordError{path, err}
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// LoadRecord reads the record of game g from dir; ok is false when there is
// none. A file that does not parse is a *RecordError wrapping
// ErrCorruptRecord.
func LoadRecord(dir string, g game.ID) (r *Record, ok bool, err error) {
	path := RecordPath(dir, g)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, &RecordError{path, err}
	}
	r = new(Record)
	if err := json.Unmarshal(b, r); err != nil {
		return nil, false, &RecordError{path, fmt.Errorf("%w: %v", ErrCorruptRecord, err)}
	}
	if r.Info.Game != g {
		return nil, false, &RecordError{path, fmt.Errorf("%w: holds game %s", ErrCorruptRecord, r.Info.Game)}
	}
	return r, true, nil
}
