package main

import (
	"context"
	"fmt"
	"github.com/dgtbridge/dgtbridge/internal/cli"
	"io"
	"runtime"
	"runtime/debug"
)

// version is set at link time: -ldflags "-X main.version=v1.2.3".
var version = "dev"

func runVersion(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlags("version", "", "Print the version, the commit and the Go version.", stderr)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.UsageError{Err: fmt.Errorf("version takes no arguments, got %q", fs.Args())}
	}
	commit, dirty := buildStamp()
	modified := ""
	if dirty {
		modified = " (modified)"
	}
	fmt.Fprintf(stdout, "dgtbridge %s\ncommit %s%s\n%s %s/%s\n", version, commit, modified, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return nil
}

// buildStamp returns the commit the program was built from ("unknown"
// when the build did not record it) and whether the work tree had
// changes.
func buildStamp() (commit string, modified bool) {
	commit = "unknown"
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				commit = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	return commit, modified
}

// buildCommit is the commit the program was built from (buildStamp).
func buildCommit() string {
	c, _ := buildStamp()
	return c
}
