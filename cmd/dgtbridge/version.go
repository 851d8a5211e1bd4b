package main

import (
	"context"
	"fmt"
	"io"
	"runtime"

	"github.com/dgtbridge/dgtbridge/internal/cli"
	"github.com/dgtbridge/dgtbridge/internal/release"
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
	commit, dirty := release.Stamp()
	modified := ""
	if dirty {
		modified = " (modified)"
	}
	fmt.Fprintf(stdout, "dgtbridge %s\ncommit %s%s\n%s %s/%s\n", version, commit, modified, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return nil
}
