// Command release builds dgtbridge's release from the commit checked out:
// the daemon for every release target, a Debian package for each, and
// their SHA-256 sums, into dist/ at the checkout's top:
//
//	go -C tools/release run .            # all three architectures
//	go -C tools/release run . -arch amd64
//
// It is a module of its own so that nfpm, which writes the Debian
// archives, stays out of the daemon's go.mod. What goes into a package is
// decided by the daemon module's internal/release; this command only
// writes the archives.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("release", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.StringVar(&o.out, "out", "", "output folder (default: dist at the checkout's top)")
	archs := fs.String("arch", "amd64,arm64,armhf", "architectures to build, by Debian name (amd64, arm64, armhf)")
	fs.BoolVar(&o.dirty, "dirty", false, "build from a checkout with uncommitted changes (the binaries then say \"modified\")")
	fs.StringVar(&o.maintainer, "maintainer", "dgtbridge maintainers <maintainers@dgtbridge.invalid>", "the packages' Maintainer field")
	fs.BoolVar(&o.noDeb, "no-deb", false, "build the binaries and their sums only")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("no arguments expected, got %q", fs.Args())
	}
	o.archs = strings.Split(*archs, ",")
	return build(ctx, o, stdout)
}
