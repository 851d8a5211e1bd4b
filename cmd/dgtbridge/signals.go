package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/dgtbridge/dgtbridge/internal/cli"
)

// mainExit runs one command with a context that SIGINT and SIGTERM cancel
// and returns the exit status: 0; 1 for a failure (its sentence on
// stderr); 2 for a mistake on the command line; 128+N when signal N
// interrupted a command (130 for Ctrl-C, 143 for SIGTERM). The daemons
// ("run", "demo") drain and exit 0 when stopped that way, which is what
// a service manager expects. A second signal while draining exits at once.
func mainExit(args []string, stdout, stderr io.Writer) int {
	ctx, caught, stop := cli.SignalContext()
	defer stop()
	err := run(ctx, args, stdout, stderr)
	if sig := caught(); sig != 0 && (err == nil || errors.Is(err, context.Canceled)) {
		if err == nil {
			return 0
		}
		return 128 + int(sig)
	}
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return 0
	}
	fmt.Fprintln(stderr, "dgtbridge:", err)
	return cli.ExitCode(err)
}
