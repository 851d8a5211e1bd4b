// Command dgtbridge reads DGT electronic boards and clocks, turns what their
// sensors report into games, judges them by the event's rule set and
// publishes them over NATS. See README.md and specs/interfaces.md §1.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "dgtbridge:", err)
		os.Exit(exitCode(err))
	}
}

// run dispatches to a subcommand; a bare "dgtbridge" is "dgtbridge run".
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	name := "run"
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		name, args = args[0], args[1:]
	}
	for _, c := range commands() {
		if c.name == name {
			return c.run(ctx, args, stdout, stderr)
		}
	}
	if name == "help" {
		usage(stdout)
		return nil
	}
	usage(stderr)
	return usageError{fmt.Errorf("unknown command %q: give one of the commands listed above (\"dgtbridge help\" lists them)", name)}
}
