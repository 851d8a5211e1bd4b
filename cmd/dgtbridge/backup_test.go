package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBackupCommand: "dgtbridge backup" copies the configuration's
// data_dir (or --data-dir) into a new folder and says so; a folder that
// exists, a missing argument and both sources at once are refused with a
// sentence naming what to fix, and nothing is written.
func TestBackupCommand(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if err := os.MkdirAll(filepath.Join(data, "games"), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "games", "open2026.1.1.json"), []byte(`{"journal_seq":3}`), 0o640); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "dgtbridge.yaml")
	body := "data_dir: " + data + "\nevent:\n  id: open2026\n  round: 1\nboards:\n  - {board: 1, port: /dev/ttyACM0}\n"
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	to := filepath.Join(dir, "backup1")
	code, out, errOut := runMain(t, "backup", "--config", cfg, to)
	if code != 0 || !strings.Contains(out, to) {
		t.Fatalf("backup --config: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if b, err := os.ReadFile(filepath.Join(to, "games", "open2026.1.1.json")); err != nil || string(b) != `{"journal_seq":3}` {
		t.Errorf("the record file in the backup: %q, %v", b, err)
	}
	to2 := filepath.Join(dir, "backup2")
	if code, _, errOut := runMain(t, "backup", "--data-dir", data, to2); code != 0 {
		t.Fatalf("backup --data-dir: exit %d: %s", code, errOut)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"backup", "--data-dir", data, to}, 1, "exists already"},
		{[]string{"backup", "--data-dir", data}, 2, "give the folder to copy into"},
		{[]string{"backup", "--data-dir", data, "--config", cfg, filepath.Join(dir, "b3")}, 2, "not both"},
		{[]string{"backup", "--data-dir", filepath.Join(dir, "none"), filepath.Join(dir, "b3")}, 1, "data folder"},
	} {
		code, _, errOut := runMain(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d naming %q", c.args, code, errOut, c.code, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "b3")); err == nil {
		t.Error("a refused backup wrote its folder")
	}
}
