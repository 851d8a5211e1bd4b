package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runMain runs the command line as main does and returns the exit status,
// stdout and stderr.
func runMain(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := mainExit(args, &out, &errb)
	return code, out.String(), errb.String()
}

// TestHelpListsCommands: "dgtbridge --help", "-h" and "help" list every
// command on stdout and exit 0; "help CMD" is "CMD --help".
func TestHelpListsCommands(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}, {"-help"}} {
		code, out, errOut := runMain(t, args...)
		if code != 0 || errOut != "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
		for _, c := range commands() {
			if !strings.Contains(out, "\n  "+c.name+" ") {
				t.Errorf("%v does not list %s:\n%s", args, c.name, out)
			}
		}
	}
	code, out, errOut := runMain(t, "help", "replay")
	if code != 0 || out != "" || !strings.HasPrefix(errOut, "usage: dgtbridge replay") || !strings.Contains(errOut, "-alerts") {
		t.Errorf("help replay: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestCommandFlagsInHelp: every command's --help shows its own flags and
// no other command's.
func TestCommandFlagsInHelp(t *testing.T) {
	for _, c := range []struct {
		cmd        string
		has, hasnt []string
	}{
		{"run", []string{"-config", "-check", "-data-dir", "-log-level"}, []string{"-boards", "-json"}},
		{"demo", []string{"-boards", "-speed", "-public-delay"}, []string{"-check", "-config"}},
		{"replay", []string{"-ruleset", "-variant", "-fen", "-format", "-alerts"}, []string{"-config"}},
		{"perft", []string{"-variant", "-depth", "-fen"}, []string{"-config"}},
		{"ports", []string{"-identify", "-config", "-show"}, []string{"-depth", "-json"}},
	} {
		code, _, errOut := runMain(t, c.cmd, "--help")
		if code != 0 {
			t.Errorf("%s --help: exit %d", c.cmd, code)
		}
		for _, f := range c.has {
			if !strings.Contains(errOut, "  "+f+" ") && !strings.Contains(errOut, "  "+f+"\n") {
				t.Errorf("%s --help lacks %s:\n%s", c.cmd, f, errOut)
			}
		}
		for _, f := range c.hasnt {
			if strings.Contains(errOut, "  "+f) {
				t.Errorf("%s --help shows %s:\n%s", c.cmd, f, errOut)
			}
		}
	}
}

// TestMistakesExitNonZero: a bad flag, an unknown command and an argument
// where none belongs exit 2 with one sentence on stderr (no usage dump,
// no doubled prefix).
func TestMistakesExitNonZero(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--bogus"}, `dgtbridge: run: flag provided but not defined: -bogus ("dgtbridge run --help" lists its flags)`},
		{[]string{"--bogus"}, `dgtbridge: run: flag provided but not defined: -bogus`},
		{[]string{"perft", "--depth", "x"}, `dgtbridge: perft: invalid value "x" for flag -depth`},

		{[]string{"version", "extra"}, `dgtbridge: version takes no arguments`},
	} {
		code, out, errOut := runMain(t, c.args...)
		if code != 2 || out != "" || !strings.HasPrefix(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and %q", c.args, code, out, errOut, c.want)
		}
	}
	code, _, errOut := runMain(t, "bogus")
	if code != 2 || !strings.Contains(errOut, `dgtbridge: unknown command "bogus"`) {
		t.Errorf("bogus: exit %d, %q", code, errOut)
	}
}

// TestConfigErrorsOnce: a bad configuration is one message that says
// "configuration FILE" once and names every bad key, with exit 1.
func TestConfigErrorsOnce(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "c.yaml")
	os.WriteFile(file, []byte("penalties: sometimes\nnats: {ur: x}\nboards:\n  - {port: /dev/a, round: 1, board: 1, variant: chess9}\n"), 0o600)
	for _, args := range [][]string{{"run", "--config", file}, {"run", "--check", "--config", file}} {
		code, _, errOut := runMain(t, args...)
		if code != 1 {
			t.Errorf("%v: exit %d", args, code)
		}
		if strings.Count(errOut, "dgtbridge:") != 1 || strings.Count(errOut, "configuration "+file) != 1 || strings.Contains(errOut, "config:") ||
			!strings.HasPrefix(errOut, "dgtbridge: configuration "+file+" has 3 problems:\n") {
			t.Errorf("%v: stderr %q", args, errOut)
		}
		for _, k := range []string{"  penalties: ", "  nats.ur: ", "  boards[0].variant: "} {
			if !strings.Contains(errOut, k) {
				t.Errorf("%v: stderr lacks %q: %s", args, k, errOut)
			}
		}
	}
}

// TestCheckExample: the example configuration of the repo passes
// "run --check" and the check opens nothing: a board port that is a FIFO
// (an open would block) is only looked at, and no data_dir is made.
func TestCheckExample(t *testing.T) {
	code, out, errOut := runMain(t, "run", "--check", "--config", "../../config/example/dgtbridge.yaml")
	if code != 0 || !strings.HasPrefix(out, "configuration ../../config/example/dgtbridge.yaml: valid\n") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "open2026.1.1") || !strings.Contains(out, "Nguyen, Van An – Hoang, Thu Ha") {
		t.Errorf("the check does not show the boards' players from the pairing file:\n%s", out)
	}

	// Valid configuration that this build does not run: an OBP board on
	// port auto (auto probes for DGT boards).
	dir := t.TempDir()
	file := filepath.Join(dir, "c.yaml")
	os.WriteFile(file, []byte("data_dir: state\nboards:\n  - {protocol: obp, port: auto, round: 1, board: 1, variant: xiangqi, ruleset: xiangqi-vn2004}\n"), 0o600)
	code, out, errOut = runMain(t, "run", "--check", "--config", file)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, "boards[0].port: port auto finds DGT boards only") {
		t.Errorf("the check does not say run refuses an OBP board on port auto:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "state")); !os.IsNotExist(err) {
		t.Errorf("--check made data_dir: %v", err)
	}
	code, _, errOut = runMain(t, "run", "--config", file)
	if code != 1 || !strings.Contains(errOut, "boards[0].port: port auto finds DGT boards only") {
		t.Errorf("run: exit %d, %q", code, errOut)
	}
}
