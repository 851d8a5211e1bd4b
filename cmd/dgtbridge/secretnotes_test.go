package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSecretFilesWarnedAtStart: a configuration holding a written-out
// password that every user can read is named by "run --check" and, at
// every start, in run's log (before: the token file alone, by --check
// alone).
func TestSecretFilesWarnedAtStart(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "c.yaml")
	os.WriteFile(file, []byte("nats:\n  embedded:\n    users:\n      - {user: hall, password: 'change me', role: organiser}\n"), 0o600)
	if err := os.Chmod(file, 0o644); err != nil {
		t.Fatal(err)
	}
	const want = "holds passwords written out (nats.embedded.users[0].password) and can be read by every user"
	code, out, _ := runMain(t, "run", "--check", "--config", file)
	if code != 0 || !strings.Contains(out, want) {
		t.Errorf("--check: exit %d\n%s", code, out)
	}
	// run stops at once (no boards), after the warnings of its start.
	code, _, errOut := runMain(t, "run", "--config", file)
	if code != 1 || !strings.Contains(errOut, want) || !strings.Contains(errOut, "level=WARN") {
		t.Errorf("run: exit %d\n%s", code, errOut)
	}
}
