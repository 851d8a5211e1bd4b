package storage

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// writeTree writes files (relative path → content) under dir.
func writeTree(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	for name, b := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o640); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBackupCopiesTheDataFolder: every file of a data folder is in the
// backup, the journal's and the outbox's segments up to their last whole
// frame (the frame being written is left out), the files being written
// aside are not, and the backup carries the folder's format.
func TestBackupCopiesTheDataFolder(t *testing.T) {
	src := t.TempDir()
	two := AppendFrame(AppendFrame(nil, []byte("R{\"seq\":1}")), []byte("R{\"seq\":2}"))
	half := AppendFrame(nil, []byte("R{\"seq\":3}"))
	half = half[:len(half)-4]
	out := AppendFrame(nil, []byte("Mmessage"))
	files := map[string][]byte{
		FormatFile:                                       []byte("dgtbridge data format 1\n"),
		"games/journal/0000000000000001.seg":             two,
		"games/journal/0000000000000002.seg":             append(append([]byte(nil), two...), half...),
		"games/open2026.1.1.json":                        []byte(`{"journal_seq":1}`),
		"games/open2026.1.1.json.damaged-x":              []byte(`{`),
		"games/.tmp-open2026.1.2":                        []byte(`{"half`),
		"outbox/0000000000000007.seg":                    append(append([]byte(nil), out...), 0, 0),
		"nats/jetstream/$G/streams/DGT_GAMES/msgs/1.blk": []byte("blocks"),
		"record/r1-b1/20260307T091403.hexlog":            []byte("0.000 r 8e\n"),
	}
	writeTree(t, src, files)
	dst := filepath.Join(t.TempDir(), "backup")
	rep, err := Backup(src, dst)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]byte{
		FormatFile:                                       []byte("dgtbridge data format 1\n"),
		"games/journal/0000000000000001.seg":             two,
		"games/journal/0000000000000002.seg":             two,
		"games/open2026.1.1.json":                        files["games/open2026.1.1.json"],
		"games/open2026.1.1.json.damaged-x":              files["games/open2026.1.1.json.damaged-x"],
		"outbox/0000000000000007.seg":                    out,
		"nats/jetstream/$G/streams/DGT_GAMES/msgs/1.blk": files["nats/jetstream/$G/streams/DGT_GAMES/msgs/1.blk"],
		"record/r1-b1/20260307T091403.hexlog":            files["record/r1-b1/20260307T091403.hexlog"],
	}
	got := 0
	err = filepath.WalkDir(dst, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dst, p)
		b, _ := os.ReadFile(p)
		w, ok := want[rel]
		switch {
		case !ok:
			t.Errorf("%s copied, want it left out", rel)
		case !bytes.Equal(b, w):
			t.Errorf("%s: copied %q, want %q", rel, b, w)
		}
		got++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got != len(want) {
		t.Errorf("%d files in the backup, want %d", got, len(want))
	}
	if rep.Trimmed != 2 || rep.Files != len(want)-1 {
		t.Errorf("report %+v, want 2 segments trimmed and %d files copied", rep, len(want)-1)
	}
	if _, err := os.Stat(dst + ".partial"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the partial folder is left: %v", err)
	}
	// The backup is a data folder a daemon of this format takes.
	if was, err := PrepareDataDir(Or(nil), dst); err != nil || was != DataFormat {
		t.Errorf("PrepareDataDir(backup) = %d, %v", was, err)
	}
}

// TestBackupRefuses: a backup never writes into an existing folder nor
// into the data folder itself, and
// never copies a data folder of a newer format; a data folder that does
// not exist is an error naming it; nothing is left behind.
func TestBackupRefuses(t *testing.T) {
	src := t.TempDir()
	writeTree(t, src, map[string][]byte{"games/a.json": []byte("{}")})
	dst := t.TempDir() // exists
	if _, err := Backup(src, dst); !errors.Is(err, ErrBackupTarget) {
		t.Errorf("backup into an existing folder: %v, want ErrBackupTarget", err)
	}
	if _, err := Backup(src, filepath.Join(src, "games", "copy")); !errors.Is(err, ErrBackupTarget) {
		t.Errorf("backup into the data folder: %v, want ErrBackupTarget", err)
	}
	newer := t.TempDir()
	writeTree(t, newer, map[string][]byte{FormatFile: []byte("dgtbridge data format 99\n")})
	to := filepath.Join(t.TempDir(), "b")
	var fe *FormatError
	if _, err := Backup(newer, to); !errors.As(err, &fe) || !errors.Is(err, ErrNewerFormat) {
		t.Errorf("backup of a newer format: %v, want a FormatError", err)
	}
	if _, err := Backup(filepath.Join(src, "missing"), to); err == nil {
		t.Error("backup of a missing data folder: no error")
	}
	for _, p := range []string{to, to + ".partial"} {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s left behind: %v", p, err)
		}
	}
	// A folder without a format file (written before formats were
	// kept) is format 1, and its backup says so.
	if _, err := Backup(src, to); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(to, FormatFile)); string(b) != "dgtbridge data format 1\n" {
		t.Errorf("backup's format file %q", b)
	}
}
