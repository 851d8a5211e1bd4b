// Package cli holds the command line's conventions shared by every
// subcommand of dgtbridge: a flag set whose --help prints the usage, the
// summary and the flags; a mistake reported once, saying how to get help;
// and the exit status 2 of a usage error (1 of any other).
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"
)

// UsageError marks a mistake in the command line (exit status 2).
type UsageError struct{ Err error }

func (e UsageError) Error() string { return e.Err.Error() }

func (e UsageError) Unwrap() error { return e.Err }

// ExitCode is the exit status of a command that returned err (not nil):
// 2 for a usage error, 1 otherwise.
func ExitCode(err error) int {
	var u UsageError
	if errors.As(err, &u) {
		return 2
	}
	return 1
}

// Flags is a subcommand's flag set; its usage goes to stderr on --help.
type Flags struct {
	*flag.FlagSet
	args, summary string
	stderr        io.Writer
}

// NewFlags returns a flag set for a subcommand: --help prints its usage
// and flags to stderr; a mistake is reported once, by Parse.
func NewFlags(name, args, summary string, stderr io.Writer) *Flags {
	fs := &Flags{FlagSet: flag.NewFlagSet(name, flag.ContinueOnError), args: args, summary: summary, stderr: stderr}
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// printUsage writes "usage: dgtbridge NAME ARGS", the summary and the
// flags.
func (fs *Flags) printUsage() {
	fmt.Fprintf(fs.stderr, "usage: %s\n\n%s\n", strings.TrimSpace("dgtbridge "+fs.Name()+" "+fs.args), fs.summary)
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		fmt.Fprintln(fs.stderr, "\nflags:")
		fs.SetOutput(fs.stderr)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
}

// Parse parses args: --help prints the usage and returns
// flag.ErrHelp; a mistake is a usage error that says how to get help.
func Parse(fs *Flags, args []string) error {
	err := fs.Parse(args)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		fs.printUsage()
		return err
	}
	return UsageError{Err: fmt.Errorf("%s: %v (\"dgtbridge %s --help\" lists its flags)", fs.Name(), err, fs.Name())}
}

// Given returns the names of the flags set on the command line.
func (fs *Flags) Given() map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// Logger adds the --log-level flag to fs (def: its default) and returns
// a function that, once fs is parsed, gives the logger writing text to w
// at that level, or a usage error naming a level it does not know.
func (fs *Flags) Logger(def string, w io.Writer) func() (*slog.Logger, error) {
	level := fs.String("log-level", def, "log level: debug, info, warn or error")
	return func() (*slog.Logger, error) {
		var lv slog.Level
		if err := lv.UnmarshalText([]byte(*level)); err != nil {
			return nil, UsageError{Err: fmt.Errorf("%s: --log-level %q: want debug, info, warn or error", fs.Name(), *level)}
		}
		return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: lv})), nil
	}
}

// ParseInterspersed is Parse for a command whose flags may come after
// its arguments (announce --lang de Nf3 --style short): it returns the
// arguments, in order.
func ParseInterspersed(fs *Flags, args []string) ([]string, error) {
	var pos []string
	for {
		if err := Parse(fs, args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}
