package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"github.com/dgtbridge/dgtbridge/internal/cli"
	"strings"
	"testing"
)

// TestEveryCommandHelp: every subcommand of contract.md §1 answers
// --help with its usage line on stderr and nothing on stdout, and does not
// run.
func TestEveryCommandHelp(t *testing.T) {
	for _, c := range commands() {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			err := run(context.Background(), []string{c.name, "--help"}, &out, &errb)
			if err != nil && !errors.Is(err, flag.ErrHelp) {
				t.Fatalf("%s --help: %v", c.name, err)
			}
			if first, _, _ := strings.Cut(errb.String(), "\n"); !strings.HasPrefix(first, "usage: dgtbridge "+c.name) || strings.HasSuffix(first, " ") {
				t.Errorf("%s --help: first line %q, want \"usage: dgtbridge %s…\" without trailing blanks", c.name, first, c.name)
			}
			if out.Len() != 0 {
				t.Errorf("%s --help wrote to stdout: %q", c.name, out.String())
			}
		})
	}
}

// TestCommandLineMistakes: a mistake on the command line is a usage error
// (exit status 2) whose message says what to give instead.
func TestCommandLineMistakes(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown command", []string{"bogus"}, `unknown command "bogus": give one of the commands`},
		{"version with arguments", []string{"version", "extra"}, "version takes no arguments"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			err := run(context.Background(), tc.args, &out, &errb)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want one containing %q", err, tc.want)
			}
			if got := cli.ExitCode(err); got != 2 {
				t.Errorf("exit status %d, want 2", got)
			}
			if out.Len() != 0 {
				t.Errorf("wrote to stdout: %q", out.String())
			}
		})
	}
}
