//go:build unix

package recording

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestCreateModes: with a umask of 0 (a manual run), a recording is 0640
// in folders of 0750 (before: 0644 and 0755, readable by every user of the
// machine while the game is played); an older, wider recording and its
// folders are narrowed when appended to.
func TestCreateModes(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	dir := t.TempDir()
	start := time.Date(2026, 11, 22, 14, 5, 6, 0, time.UTC)
	check := func(what string) {
		t.Helper()
		p, _ := Path(dir, "r1b3", start)
		for path, want := range map[string]os.FileMode{p: FileMode, filepath.Dir(p): DirMode, filepath.Dir(filepath.Dir(p)): DirMode} {
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if m := st.Mode().Perm(); m != want {
				t.Errorf("%s: %s %04o, want %04o", what, path, m, want)
			}
		}
	}
	f, err := Create(dir, "r1b3", start)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	check("new")
	p, _ := Path(dir, "r1b3", start)
	for _, x := range []struct {
		path string
		mode os.FileMode
	}{{p, 0o666}, {filepath.Dir(p), 0o777}, {filepath.Dir(filepath.Dir(p)), 0o755}} {
		if err := os.Chmod(x.path, x.mode); err != nil {
			t.Fatal(err)
		}
	}
	if f, err = Create(dir, "r1b3", start); err != nil {
		t.Fatal(err)
	}
	f.Close()
	check("older, wider")
}
