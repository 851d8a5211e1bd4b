// Package testenv decides what a test does when something outside the
// repository is missing: an external tool (espeak-ng, systemd-analyze,
// fairy-stockfish, npm) or the network. On a developer's machine the test
// is skipped and says what to install; in CI (the environment variable CI
// is "true", as .ci/run sets it) the test fails, because CI installs
// everything and a silent skip there would hide a broken check.
package testenv

import (
	"os"
	"os/exec"
	"testing"
)

// InCI reports whether the tests run in CI (CI=true).
func InCI() bool { return os.Getenv("CI") == "true" }

// Unavailable stops the test because msg says something it needs is
// missing: t.Fatal in CI, t.Skip elsewhere.
func Unavailable(tb testing.TB, msg string) {
	tb.Helper()
	if InCI() {
		tb.Fatal(msg + " (CI=true: required)")
	}
	tb.Skip(msg)
}

// LookPath returns the path of the program name, found on PATH or at one
// of the extra paths (e.g. "/usr/games/fairy-stockfish"). When it is
// nowhere, the test stops through [Unavailable] with a message that names
// the program and how to install it (install, e.g. "apt-get install -y
// espeak-ng").
func LookPath(tb testing.TB, name, install string, extra ...string) string {
	tb.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	for _, p := range extra {
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p
		}
	}
	Unavailable(tb, name+" is not installed ("+install+"): this test needs it")
	return ""
}
