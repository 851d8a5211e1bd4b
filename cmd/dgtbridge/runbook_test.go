package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/internal/testenv"
)

// helpCommands returns the command names "dgtbridge help" lists.
func helpCommands(t *testing.T) []string {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := mainExit([]string{"help"}, &out, &errOut); code != 0 {
		t.Fatalf("dgtbridge help: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	text := out.String() + errOut.String()
	_, list, ok := strings.Cut(text, "commands:\n")
	if !ok {
		t.Fatalf("dgtbridge help lists no commands:\n%s", text)
	}
	var names []string
	for _, line := range strings.Split(list, "\n") {
		if !strings.HasPrefix(line, "  ") {
			break
		}
		names = append(names, strings.Fields(line)[0])
	}
	return names
}

// commandFlags returns the help text of "dgtbridge cmd --help".
func commandFlags(t *testing.T, cmd string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	mainExit([]string{cmd, "--help"}, &out, &errOut)
	return out.String() + errOut.String()
}

var (
	// dgtbridge followed by a word: a command, unless systemctl or
	// journalctl names the service.
	runbookCommand = regexp.MustCompile(`(?:(\S+)[ \t]+)?\x60?dgtbridge ([a-z][a-z-]*)([^\x60#|\n]*)`)
	runbookFlag    = regexp.MustCompile(`(?:^|\s)--([a-z][a-z-]*)`)
	runbookKey     = regexp.MustCompile("\x60([a-z_]+(?:\\[\\])?(?:\\.[a-z_]+(?:\\[\\])?)+)\x60")
	fileName       = regexp.MustCompile(`\.(yaml|csv|md|pgn|trf|json|token|service|rules|deb)$`)
)

// TestRunbookNamesWhatExists: every "dgtbridge …" command of
// docs/runbook.md is one that "dgtbridge help" lists, with flags its
// --help shows; every configuration key it names (`event.round`,
// `boards[].blind.player`) is one config accepts; and its glossary
// defines the words an organiser meets in the other pages.
func TestRunbookNamesWhatExists(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "runbook.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	cmds := helpCommands(t)
	if !slices.Contains(cmds, "run") || !slices.Contains(cmds, "status") {
		t.Fatalf("dgtbridge help lists %v", cmds)
	}
	named := 0
	for _, m := range runbookCommand.FindAllStringSubmatch(text, -1) {
		switch m[1] {
		case "start", "stop", "restart", "reload", "status", "-u", "--now", "enable":
			continue // systemctl … dgtbridge, journalctl -u dgtbridge
		}
		cmd := m[2]
		if !slices.Contains(cmds, cmd) {
			t.Errorf("the runbook names \"dgtbridge %s\"; dgtbridge help lists %v", cmd, cmds)
			continue
		}
		named++
		help := commandFlags(t, cmd)
		for _, f := range runbookFlag.FindAllStringSubmatch(m[3], -1) {
			if !strings.Contains(help, "-"+f[1]+" ") && !strings.Contains(help, "-"+f[1]+"\n") {
				t.Errorf("the runbook gives \"dgtbridge %s --%s\"; its --help has no such flag:\n%s", cmd, f[1], help)
			}
		}
	}
	if named < 8 {
		t.Errorf("only %d dgtbridge commands found in the runbook: is the pattern still right?", named)
	}

	keys := config.Keys()
	checked := 0
	for _, m := range runbookKey.FindAllStringSubmatch(text, -1) {
		k := m[1]
		if fileName.MatchString(k) {
			continue
		}
		checked++
		if !slices.Contains(keys, k) {
			t.Errorf("the runbook names the key %s, which the configuration does not have", k)
		}
	}
	if checked < 10 {
		t.Errorf("only %d configuration keys found in the runbook", checked)
	}

	_, glossary, ok := strings.Cut(text, "## Glossary")
	if !ok {
		t.Fatal("the runbook has no glossary")
	}
	for _, w := range []string{"subject", "JetStream", "KV bucket", "outbox", "leaf node", "ply", "p99", "RSS", "lever", "EEPROM", "pseudo-terminal", "bcrypt", "MoveEvent"} {
		if !strings.Contains(glossary, "**"+w+"**") {
			t.Errorf("the glossary does not define %s", w)
		}
	}
}

// TestRunbookKeyCheckFails: the key and command checks find a key or a
// command that does not exist (the patterns above are what the runbook
// test relies on).
func TestRunbookKeyCheckFails(t *testing.T) {
	if m := runbookKey.FindStringSubmatch("set `event.rond` first"); m == nil || slices.Contains(config.Keys(), m[1]) {
		t.Errorf("a misspelt key is not caught: %v", m)
	}
	m := runbookCommand.FindStringSubmatch("run `dgtbridge rehears --config x`")
	if m == nil || slices.Contains(helpCommands(t), m[2]) {
		t.Errorf("a command that does not exist is not caught: %v", m)
	}
}

// TestHall60ExamplePassesCheck: config/example/hall60.yaml (60 boards on
// USB and bus lines, tablets' users, Lichess, a blind player) passes
// "dgtbridge run --check", with the token file the organiser writes
// beside it; the blind player's table has the blind player's game, and
// every port is a stable name.
func TestHall60ExamplePassesCheck(t *testing.T) {
	testenv.LookPath(t, "espeak-ng", "apt-get install -y espeak-ng") // the example speaks to the blind player (relay.speak: device)
	dir := t.TempDir()
	for _, f := range []string{"hall60.yaml", "hall60-pairings.csv"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "config", "example", f))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "/dev/tty") {
			t.Errorf("%s uses a kernel name (/dev/tty…) that may change: use /dev/dgt/by-path/…", f)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "lichess.token"), []byte("lip_example\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(dir, "hall60.yaml")
	var out, errOut bytes.Buffer
	if code := mainExit([]string{"run", "--check", "--config", cfgPath}, &out, &errOut); code != 0 {
		t.Fatalf("run --check: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	report := out.String() + errOut.String()
	if !strings.Contains(report, "60 boards") {
		t.Errorf("run --check does not report 60 boards:\n%s", report)
	}
	c, err := config.Load(config.LoadOptions{File: cfgPath})
	if err != nil {
		t.Fatal(err)
	}
	buses, users, blind := map[string]int{}, map[string]int{}, 0
	for _, b := range c.EffectiveBoards() {
		if b.BusAddress > 0 {
			buses[b.Port]++
		}
		if b.Blind != nil && b.Blind.Player != "" {
			blind++
			id := b.WhiteFideID
			if b.Blind.Side == "black" {
				id = b.BlackFideID
			}
			if id != b.Blind.Player {
				t.Errorf("the blind player's table has %s–%s (board %d), not the blind player %s", b.White, b.Black, b.Board, b.Blind.Player)
			}
		}
	}
	for _, u := range c.NATS.Embedded.Users {
		users[string(u.Role)]++
		if !strings.HasPrefix(u.Password, "$2") {
			t.Errorf("user %s: the example's password is not a bcrypt hash", u.User)
		}
	}
	if len(c.Boards) != 60 || len(buses) < 2 || blind != 1 || users["arbiter"] < 2 || len(c.Lichess.Rounds) == 0 || c.NATS.Embedded.WebSocket == "" {
		t.Errorf("the example is not the hall it says: %d boards, bus lines %v, %d blind players, users %v, lichess rounds %v, websocket %q",
			len(c.Boards), buses, blind, users, c.Lichess.Rounds, c.NATS.Embedded.WebSocket)
	}
}
