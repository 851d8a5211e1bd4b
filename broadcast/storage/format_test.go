package storage

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPrepareDataDir: a new folder and one written before versions were
// kept are marked with this build's format; a newer format is refused,
// naming the file, both formats and what to do, and nothing is changed.
func TestPrepareDataDir(t *testing.T) {
	t.Run("new", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "data")
		was, err := PrepareDataDir(OS, dir)
		if err != nil || was != 0 {
			t.Fatalf("new folder: was %d, %v", was, err)
		}
		b, err := os.ReadFile(filepath.Join(dir, FormatFile))
		if err != nil || strings.TrimSpace(string(b)) != "dgtbridge data format 1" {
			t.Fatalf("format file %q, %v", b, err)
		}
		if st, err := os.Stat(dir); err != nil || st.Mode().Perm()&0o007 != 0 {
			t.Errorf("data folder mode %v, %v: others may read it", st.Mode(), err)
		}
	})
	t.Run("before versions", func(t *testing.T) {
		dir := t.TempDir()
		os.MkdirAll(filepath.Join(dir, "games"), 0o755)
		os.WriteFile(filepath.Join(dir, "games", "e.1.1.json"), []byte(`{"info":{}}`), 0o644)
		was, err := PrepareDataDir(OS, dir)
		if err != nil || was != 1 {
			t.Fatalf("unmarked folder: was %d, %v", was, err)
		}
		if b, err := os.ReadFile(filepath.Join(dir, FormatFile)); err != nil || string(b) != "dgtbridge data format 1\n" {
			t.Fatalf("unmarked folder's format file after the start: %q, %v", b, err)
		}
		if was, err := PrepareDataDir(OS, dir); err != nil || was != DataFormat {
			t.Fatalf("marked folder: was %d, %v", was, err)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "games", "e.1.1.json")); string(b) != `{"info":{}}` {
			t.Errorf("a record changed: %q", b)
		}
	})
	t.Run("newer", func(t *testing.T) {
		dir := t.TempDir()
		newer := []byte("dgtbridge data format 2\n")
		os.WriteFile(filepath.Join(dir, FormatFile), newer, 0o640)
		_, err := PrepareDataDir(OS, dir)
		var fe *FormatError
		if !errors.Is(err, ErrNewerFormat) || !errors.As(err, &fe) || fe.Found != 2 {
			t.Fatalf("newer format: %v", err)
		}
		for _, w := range []string{FormatFile, "format 2", "up to 1", "nothing was changed"} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%q does not say %q", err, w)
			}
		}
		if b, _ := os.ReadFile(filepath.Join(dir, FormatFile)); string(b) != string(newer) {
			t.Errorf("the format file changed: %q", b)
		}
	})
	t.Run("damaged", func(t *testing.T) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, FormatFile), []byte("garbage"), 0o640)
		_, err := PrepareDataDir(OS, dir)
		var fe *FormatError
		if !errors.As(err, &fe) || errors.Is(err, ErrNewerFormat) || !strings.Contains(err.Error(), "garbage") {
			t.Fatalf("damaged format file: %v", err)
		}
	})
}
