package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

func TestLookPath(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "tool")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	if got := LookPath(t, "tool", "none"); got != prog {
		t.Errorf("on PATH: %q, want %q", got, prog)
	}
	t.Setenv("PATH", t.TempDir())
	if got := LookPath(t, "other", "none", filepath.Join(dir, "missing"), prog); got != prog {
		t.Errorf("extra path: %q, want %q", got, prog)
	}
}

// TestUnavailable runs Unavailable in a subtest under both settings of CI:
// it must fail the subtest in CI and skip it elsewhere.
func TestUnavailable(t *testing.T) {
	for _, tt := range []struct {
		ci         string
		fail, skip bool
	}{{"true", true, false}, {"", false, true}} {
		t.Setenv("CI", tt.ci)
		var fake fakeTB
		func() {
			defer func() { recover() }()
			Unavailable(&fake, "x is missing")
		}()
		if fake.failed != tt.fail || fake.skipped != tt.skip {
			t.Errorf("CI=%q: failed %v skipped %v, want %v %v", tt.ci, fake.failed, fake.skipped, tt.fail, tt.skip)
		}
	}
}

// fakeTB records Fatal and Skip and stops like testing does (by
// panicking here, recovered by the caller), so the outcome can be checked
// without failing the real test.
type fakeTB struct {
	testing.TB
	failed, skipped bool
}

func (f *fakeTB) Helper()           {}
func (f *fakeTB) Fatal(args ...any) { f.failed = true; panic("fatal") }
func (f *fakeTB) Skip(args ...any)  { f.skipped = true; panic("skip") }
