package storage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// DataFormat is the version of the data folder's layout (the game
// records, the journal, the outbox, the embedded server's store) that this
// build reads and writes. A data folder says its version in the file
// FormatFile; one without it was written before versions were kept and
// has the layout of format 1.
//
// A daemon reads every format up to its own and marks the folder with its
// own; it refuses a newer one (ErrNewerFormat) without touching anything,
// so an older daemon started by mistake on an upgraded hall's data never
// damages it.
const DataFormat = 1

// FormatFile is the name of the file in the data folder that holds its
// format ("dgtbridge data format 1").
const FormatFile = "FORMAT"

// ErrNewerFormat: the data folder was written by a newer daemon.
var ErrNewerFormat = errors.New("storage: the data folder was written by a newer dgtbridge")

// FormatError is a data folder whose format this build cannot use.
type FormatError struct {
	Path  string // the format file
	Found int    // the folder's format (0: unreadable)
	Err   error  // ErrNewerFormat, or why the file could not be read
}

func (e *FormatError) Error() string {
	if errors.Is(e.Err, ErrNewerFormat) {
		return fmt.Sprintf("%s: data format %d, this dgtbridge reads formats up to %d: run the version that wrote it (or newer), or give data_dir another folder; nothing was changed",
			e.Path, e.Found, DataFormat)
	}
	return fmt.Sprintf("%s: %v", e.Path, e.Err)
}

func (e *FormatError) Unwrap() error { return e.Err }

// PrepareDataDir makes the data folder dir ready for this build: created
// (mode 0750) when missing, its format checked, and marked with
// DataFormat. It returns the format the folder had (0: new or empty, 1 for
// a folder written before versions were kept) so the caller can log an
// upgrade. A newer format is a *FormatError wrapping ErrNewerFormat.
func PrepareDataDir(fsys FS, dir string) (was int, err error) {
	path := filepath.Join(dir, FormatFile)
	b, err := fsys.ReadFile(path)
	marked := err == nil
	switch {
	case err == nil:
		was, err = parseFormat(b)
		if err != nil {
			return 0, &FormatError{Path: path, Err: err}
		}
		if was > DataFormat {
			return was, &FormatError{Path: path, Found: was, Err: ErrNewerFormat}
		}
	case errors.Is(err, fs.ErrNotExist):
		entries, rerr := fsys.ReadDir(dir)
		if rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			return 0, &FormatError{Path: path, Err: rerr}
		}
		if len(entries) > 0 {
			was = 1 // written before the format file existed
		}
	default:
		return 0, &FormatError{Path: path, Err: err}
	}
	if marked && was == DataFormat {
		return was, nil
	}
	if err := fsys.MkdirAll(dir, 0o750); err != nil {
		return was, &FormatError{Path: path, Err: err}
	}
	if err := writeFormat(fsys, dir); err != nil {
		return was, &FormatError{Path: path, Err: err}
	}
	return was, nil
}

func parseFormat(b []byte) (int, error) {
	s := strings.TrimSpace(string(b))
	v, ok := strings.CutPrefix(s, "dgtbridge data format ")
	n, err := strconv.Atoi(v)
	if !ok || err != nil || n < 1 {
		return 0, fmt.Errorf("not a data format line: %q", s)
	}
	return n, nil
}

// writeFormat writes the format file atomically (temporary file, fsync,
// rename, directory fsync).
func writeFormat(fsys FS, dir string) error {
	tmp := filepath.Join(dir, ".tmp-"+FormatFile)
	f, err := fsys.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o640)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(f, "dgtbridge data format %d\n", DataFormat)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = fsys.Rename(tmp, filepath.Join(dir, FormatFile))
	}
	if err != nil {
		fsys.Remove(tmp)
		return err
	}
	return fsys.SyncDir(dir)
}
