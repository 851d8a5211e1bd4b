package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// command is one subcommand of dgtbridge.
type command struct {
	name, args, summary string
	run                 func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// commands lists the subcommands in the order of specs/interfaces.md §1.
func commands() []command {
	return []command{
		{"run", "[--config FILE]", "the daemon: boards to NATS (also what a bare dgtbridge does)", runRun},
		{"demo", "[--boards N]", "the whole pipeline without hardware: emulated boards play famous games, live feed on stdout", runDemo},
		{"replay", "[flags] FILE…", "reconstruct games from recorded serial traffic (PGN on stdout, alerts as JSON lines)", runReplay},
		{"ports", "[PATH…]", "list serial ports and probe each for a DGT board (version, serial number, clock)", runPorts},
		{"emulate", "[--pty] [--game PGN]", "run one emulated DGT board + clock on a pseudo-terminal and print its path", runEmulate},
		{"version", "", "print version, commit and Go version", runVersion},
		{"perft", "--variant V [--fen FEN] --depth D", "count the leaves of the legal move tree (rules engine check)", runPerft},
		{"announce", "--lang L [--variant V] [--fen FEN] MOVE", "print the blind-player announcement of a move (FIDE Laws App. D)", runAnnounce},
	}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: dgtbridge <command> [flags]\n\ncommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\n\"dgtbridge <command> --help\" describes a command's flags.")
}

// usageError marks a mistake in the command line (exit status 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func exitCode(err error) int {
	var u usageError
	if errors.As(err, &u) {
		return 2
	}
	return 1
}

// newFlags returns a flag set for a subcommand that prints its usage to
// stderr and reports errors instead of exiting.
func newFlags(name, args, summary string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s\n\n%s\n\nflags:\n", strings.TrimSpace("dgtbridge "+name+" "+args), summary)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args and wraps mistakes as usage errors.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	return nil
}
