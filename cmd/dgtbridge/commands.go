package main

import (
	"context"
	"fmt"
	"io"

	"github.com/dgtbridge/dgtbridge/internal/cli"
)

// command is one subcommand of dgtbridge.
type command struct {
	name, args, summary string
	run                 func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// commands lists the subcommands in the order of docs/contract.md §1.
func commands() []command {
	return []command{
		{"run", "[--config FILE] [--check]", "the daemon: boards to NATS (also what a bare dgtbridge does); --check validates the configuration", runRun},
		{"status", "[--config FILE] [--json]", "every configured board as the running daemon sees it: connected, game, ply, clocks, alerts", runStatus},
		{"rehearse", "[--config FILE] [--lichess-round ID]", "rehearse the event in the hall: every board, clock, move, Lichess round, staff sign-in and blind relay checked", runRehearse},
		{"backup", "[--config FILE | --data-dir DIR] DIR", "copy the data folder (games, outbox, NATS store) consistently, while the daemon runs or not", runBackup},
		{"passwd", "", "print a bcrypt hash of a password (typed, or on standard input) for the configuration's users", runPasswd},
		{"demo", "[--boards N]", "the whole pipeline without hardware: emulated boards play famous games, live feed on stdout", runDemo},
		{"replay", "[flags] FILE…", "reconstruct games from recorded serial traffic (PGN on stdout, alerts as JSON lines)", runReplay},
		{"ports", "[--identify [--config FILE]] [PATH…]", "list serial ports and probe each for a DGT board; --identify maps the hall's boards to the configuration", runPorts},
		{"emulate", "[--pty] [--game PGN]", "run one emulated DGT board + clock on a pseudo-terminal and print its path", runEmulate},
		{"loadtest", "[--boards N] [--bus 32] [--dir DIR]", "measure a daemon under a hall's load: emulated boards on bus lines, every move checked and timed", runLoadtest},
		{"perft", "--variant V [--fen FEN] --depth D", "count the leaves of the legal move tree (rules engine check)", runPerft},
		{"announce", "--lang L [--variant V] [--fen FEN] MOVE", "print the blind-player announcement of a move (FIDE Laws App. D)", runAnnounce},
		{"version", "", "print version, commit and Go version", runVersion},
	}
}

// run dispatches to a subcommand; a bare "dgtbridge" (or one that starts
// with a flag other than a help flag) is "dgtbridge run".
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		switch args[0] {
		case "help", "-h", "-help", "--help":
			if len(args) > 1 && args[0] == "help" {
				return run(ctx, []string{args[1], "--help"}, stdout, stderr)
			}
			usage(stdout)
			return nil
		}
	}
	name := "run"
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		name, args = args[0], args[1:]
	}
	for _, c := range commands() {
		if c.name == name {
			return c.run(ctx, args, stdout, stderr)
		}
	}
	usage(stderr)
	return cli.UsageError{Err: fmt.Errorf("unknown command %q: give one of the commands listed above", name)}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: dgtbridge <command> [flags]\n\ncommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\n\"dgtbridge <command> --help\" describes a command's flags; a bare \"dgtbridge\" is \"dgtbridge run\".")
}
