package release

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Package is the command the release builds, and VersionSymbol the
// variable its version is linked into (-ldflags -X).
const (
	Package       = "./cmd/dgtbridge"
	VersionSymbol = "main.version"
)

// BuildFlags are the go build flags of a release binary: no build paths
// (-trimpath), the commit and its state stamped by the toolchain
// (-buildvcs=true, whatever GOFLAGS says), no symbol table or DWARF (-s
// -w: a third smaller; panics still print file and line), and the version.
func BuildFlags(version string) []string {
	return []string{"-trimpath", "-buildvcs=true", "-ldflags=-s -w -X " + VersionSymbol + "=" + version}
}

// BuildEnv is the environment of go build for t: the caller's, with cgo
// off (a static binary that runs on any of the target's systems), the
// target set, and GOFLAGS emptied so that nothing from the caller's
// environment changes the bytes. GOTOOLCHAIN is kept: the same commit
// gives the same bytes with the same Go release, which the binary names
// (dgtbridge version).
func BuildEnv(base []string, t Target) []string {
	drop := map[string]bool{"CGO_ENABLED": true, "GOOS": true, "GOARCH": true, "GOARM": true, "GOFLAGS": true, "GOAMD64": true, "GOARM64": true}
	var env []string
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if !drop[k] {
			env = append(env, kv)
		}
	}
	env = append(env, "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+t.GOARCH, "GOFLAGS=")
	if t.GOARM != "" {
		env = append(env, "GOARM="+t.GOARM)
	}
	return env
}

// Build builds the daemon for t from the checkout at root into the file
// out, stamped with version.
func Build(ctx context.Context, root string, t Target, version, out string) error {
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	args := append([]string{"build"}, BuildFlags(version)...)
	args = append(args, "-o", out, Package)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = root
	cmd.Env = BuildEnv(os.Environ(), t)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build for %s: %v\n%s", t.Suffix(), err, b)
	}
	return nil
}
