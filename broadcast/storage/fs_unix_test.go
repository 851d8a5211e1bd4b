//go:build unix

package storage

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestOSModes: with a umask of 0 (a manual run from a shell that has one)
// and callers asking for 0644 and 0755, what OS creates is 0640 and 0750
// (before: 0644 and 0755, every user of the machine could read the live
// games); a file opened for writing that is wider (an older version's) is
// narrowed; a file opened read-only, and a folder that exists, are left.
func TestOSModes(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	dir := t.TempDir()
	mode := func(p string) fs.FileMode {
		t.Helper()
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return st.Mode().Perm()
	}
	games := filepath.Join(dir, "data", "games")
	if err := OS.MkdirAll(games, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{games, filepath.Dir(games)} {
		if m := mode(p); m != 0o750 {
			t.Errorf("%s: %04o, want 0750", p, m)
		}
	}
	rec := filepath.Join(games, "g.json")
	f, err := OS.OpenFile(rec, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if m := mode(rec); m != 0o640 {
		t.Errorf("new file: %04o, want 0640", m)
	}

	old644 := filepath.Join(games, "old.json")
	if err := os.WriteFile(old644, []byte("{}"), 0o666); err != nil {
		t.Fatal(err)
	}
	if f, err := OS.OpenFile(old644, os.O_RDONLY, 0); err != nil {
		t.Fatal(err)
	} else {
		f.Close()
	}
	if m := mode(old644); m != 0o666 {
		t.Errorf("read only: %04o, want it left 0666", m)
	}
	if f, err := OS.OpenFile(old644, os.O_RDWR, 0o644); err != nil {
		t.Fatal(err)
	} else {
		f.Close()
	}
	if m := mode(old644); m != 0o640 {
		t.Errorf("an older 0666 file opened for writing: %04o, want 0640", m)
	}
	if err := os.Chmod(games, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := OS.MkdirAll(games, 0o750); err != nil {
		t.Fatal(err)
	}
	if m := mode(games); m != 0o755 {
		t.Errorf("an existing 0755 folder: %04o, want it left (it may not be the daemon's alone)", m)
	}
}
