package cli

import (
	"errors"
	"flag"
	"fmt"
	"strings"
	"testing"
)

// TestParse: --help prints the usage line, the summary and the flags and
// returns flag.ErrHelp (exit 0 for the caller); a bad flag is a usage
// error (exit 2) naming the command and how to get help; anything else
// exits 1.
func TestParse(t *testing.T) {
	var out strings.Builder
	fs := NewFlags("perft", "--depth D", "Count the leaves.", &out)
	fs.Int("depth", 0, "depth in plies")
	if err := Parse(fs, []string{"--help"}); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("--help: %v", err)
	}
	for _, want := range []string{"usage: dgtbridge perft --depth D\n", "Count the leaves.", "flags:", "-depth"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("--help lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	err := Parse(NewFlags("perft", "", "", &out), []string{"--nope"})
	var u UsageError
	if !errors.As(err, &u) || ExitCode(err) != 2 || !strings.Contains(err.Error(), `"dgtbridge perft --help"`) || out.Len() != 0 {
		t.Errorf("a bad flag: %v (exit %d), printed %q", err, ExitCode(err), out.String())
	}
	if c := ExitCode(fmt.Errorf("wrapped: %w", UsageError{Err: errors.New("x")})); c != 2 {
		t.Errorf("a wrapped usage error exits %d", c)
	}
	if c := ExitCode(errors.New("disk full")); c != 1 {
		t.Errorf("another error exits %d", c)
	}
}
