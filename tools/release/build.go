package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/dgtbridge/dgtbridge/internal/release"
)

// options are the command's flags.
type options struct {
	out, maintainer string
	archs           []string
	dirty, noDeb    bool
}

// build makes the release: binaries, then (unless noDeb) the packages,
// then SHA256SUMS over everything it wrote.
func build(ctx context.Context, o options, log io.Writer) error {
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	src, err := release.Describe(ctx, wd)
	if err != nil {
		return err
	}
	if err := src.Check(o.dirty); err != nil {
		return err
	}
	if o.out == "" {
		o.out = filepath.Join(src.Root, "dist")
	}
	var targets []release.Target
	for _, a := range o.archs {
		t, err := release.TargetFor(strings.TrimSpace(a))
		if err != nil {
			return err
		}
		targets = append(targets, t)
	}
	version := src.Version()
	fmt.Fprintf(log, "dgtbridge %s from commit %s (%s)\n", version, src.Commit, src.Time.Format("2006-01-02 15:04:05Z"))
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	var written []string
	bins := map[string]string{}
	for _, t := range targets {
		out := filepath.Join(o.out, t.BinaryName())
		fmt.Fprintf(log, "  go build %s → %s\n", t.Suffix(), out)
		if err := release.Build(ctx, src.Root, t, version, out); err != nil {
			return err
		}
		bins[t.DebArch] = out
		written = append(written, t.BinaryName())
	}
	if !o.noDeb {
		host, cleanup, err := hostBinary(ctx, src, version, targets, bins)
		if err != nil {
			return err
		}
		defer cleanup()
		if err := checkStamp(ctx, host, version, src.Commit); err != nil {
			return err
		}
		man, err := manPage(ctx, host, version, src)
		if err != nil {
			return err
		}
		for _, t := range targets {
			name, err := debPackage(ctx, o, src, t, bins[t.DebArch], man)
			if err != nil {
				return fmt.Errorf("package %s: %w", t.DebArch, err)
			}
			fmt.Fprintf(log, "  package %s → %s\n", t.DebArch, filepath.Join(o.out, name))
			written = append(written, name)
		}
	}
	if err := release.WriteSums(o.out, written); err != nil {
		return err
	}
	fmt.Fprintf(log, "  sums → %s\n", filepath.Join(o.out, release.SumsFile))
	return nil
}

// hostBinary returns a binary of this release that runs here, to read its
// help and its version from: the target's own when this machine is one,
// else one built for it.
func hostBinary(ctx context.Context, src release.Source, version string, targets []release.Target, bins map[string]string) (string, func(), error) {
	if runtime.GOOS != "linux" {
		return "", nil, fmt.Errorf("the packages' manual page is made by running the Linux binary: build them on Linux (or use -no-deb)")
	}
	for _, t := range targets {
		if t.GOARCH == runtime.GOARCH {
			return bins[t.DebArch], func() {}, nil
		}
	}
	dir, err := os.MkdirTemp("", "dgtbridge-release-")
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { os.RemoveAll(dir) }
	out := filepath.Join(dir, "dgtbridge")
	if err := release.Build(ctx, src.Root, release.Target{GOARCH: runtime.GOARCH, GOARM: "7"}, version, out); err != nil {
		cleanup()
		return "", nil, err
	}
	return out, cleanup, nil
}

// runHelp runs the binary with args and returns what it printed on both
// outputs ("dgtbridge NAME --help" writes to standard error).
func runHelp(ctx context.Context, bin string, args ...string) (string, error) {
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s %s: %v\n%s", filepath.Base(bin), strings.Join(args, " "), err, out.String())
	}
	return out.String(), nil
}

// checkStamp makes sure the binary says the version and the commit: the
// link-time variable and the toolchain's VCS stamp both took.
func checkStamp(ctx context.Context, bin, version, commit string) error {
	out, err := runHelp(ctx, bin, "version")
	if err != nil {
		return err
	}
	if !strings.Contains(out, "dgtbridge "+version+"\n") {
		return fmt.Errorf("the built binary does not say version %s (is %s still the variable \"dgtbridge version\" prints?):\n%s", version, release.VersionSymbol, out)
	}
	if !strings.Contains(out, "commit "+commit) {
		return fmt.Errorf("the built binary does not say commit %s (the toolchain's vcs.revision):\n%s", commit, out)
	}
	return nil
}

// manPage renders the manual page from the binary's own help.
func manPage(ctx context.Context, bin, version string, src release.Source) ([]byte, error) {
	usage, err := runHelp(ctx, bin, "help")
	if err != nil {
		return nil, err
	}
	cmds, err := release.ParseCommands(usage)
	if err != nil {
		return nil, err
	}
	for i := range cmds {
		if cmds[i].Help, err = runHelp(ctx, bin, cmds[i].Name, "--help"); err != nil {
			return nil, err
		}
	}
	return release.ManPage(version, src.Time, cmds)
}
