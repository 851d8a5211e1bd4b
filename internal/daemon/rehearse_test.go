package daemon

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/internal/testenv"
	"github.com/dgtbridge/dgtbridge/rehearse"
)

// TestRehearsalChecksOfConfig: the checks a configuration makes: a DGT
// board with a time control (answer, clock, live, public), one without a
// time control (no clock line), an OBP board (no clock line), a manual
// board (no answer, no clock), a blind player's board and relay; the
// organiser and arbiter users (not the public or relay ones); each Lichess
// round of lichess.rounds and lichess.split, and the test push. The
// rehearsal's configuration pushes to the test round only.
func TestRehearsalChecksOfConfig(t *testing.T) {
	dir := t.TempDir()
	cfg := loadConfig(t, dir, `data_dir: data
nats: {embedded: {users: [{user: o, password: p, role: organiser}, {user: a, password: p, role: arbiter}, {user: s, password: p, role: public}, {user: r4, password: p, role: relay, board: 4}]}}
lichess: {token_file: t.token, rounds: {2: "R2aaaaaa", 1: "R1aaaaaa"}, split: {1: ["R1bbbbbb"]}}
event: {id: open, time_control: "40/5400+30:1800+30"}
boards:
  - {port: /dev/a, round: 1, board: 1}
  - {port: /dev/b, round: 1, board: 2, time_control: "?"}
  - {protocol: obp, port: /dev/c, round: 1, board: 3, variant: xiangqi, ruleset: xiangqi-vn2004}
  - {port: /dev/d, round: 1, board: 4, blind: {side: white, port: /dev/e, lang: en}}
  - {protocol: manual, round: 2, board: 5}
`, map[string]string{"t.token": "lip_x\n"})
	var got []string
	for _, c := range RehearsalChecks(&cfg, 5*time.Second, "") {
		got = append(got, fmt.Sprintf("%T %s", c, c.Subject()))
		if cs, ok := c.(rehearse.ClockSet); ok && (len(cs.Rest) != 2 || cs.Rest[0] != 90*time.Minute || cs.Rest[1] != 90*time.Minute+30*time.Second) {
			t.Errorf("the clock of %s at rest: %v", cs.Board, cs.Rest)
		}
		if b, ok := c.(rehearse.BlindRelay); ok && (len(b.Listeners) != 1 || b.Listeners[0] != "r4" || b.Speak) {
			t.Errorf("blind relay %+v", b)
		}
	}
	want := []string{
		"rehearse.BoardAnswers board r1-b1 answers (/dev/a)",
		"rehearse.ClockSet clock of board r1-b1 is set for 40/5400+30:1800+30",
		"rehearse.LiveMove a move on board r1-b1 reaches the live feed (open-rehearsal.1.1)",
		"rehearse.PublicMove a move on board r1-b1 reaches the public copy 5s later (open-rehearsal.1.1)",
		"rehearse.BoardAnswers board r1-b2 answers (/dev/b)",
		"rehearse.LiveMove a move on board r1-b2 reaches the live feed (open-rehearsal.1.2)",
		"rehearse.PublicMove a move on board r1-b2 reaches the public copy 5s later (open-rehearsal.1.2)",
		"rehearse.BoardAnswers board r1-b3 answers (/dev/c)",
		"rehearse.LiveMove a move on board r1-b3 reaches the live feed (open-rehearsal.1.3)",
		"rehearse.PublicMove a move on board r1-b3 reaches the public copy 5s later (open-rehearsal.1.3)",
		"rehearse.BoardAnswers board r1-b4 answers (/dev/d)",
		"rehearse.ClockSet clock of board r1-b4 is set for 40/5400+30:1800+30",
		"rehearse.LiveMove a move on board r1-b4 reaches the live feed (open-rehearsal.1.4)",
		"rehearse.PublicMove a move on board r1-b4 reaches the public copy 5s later (open-rehearsal.1.4)",
		"rehearse.BoardAnswers board r1-b4-blind answers (/dev/e)",
		"rehearse.BlindRelay the blind player's relay of board r1-b4 hears an announcement (open-rehearsal.1.4)",
		"rehearse.LiveMove a move on board r2-b5 reaches the live feed (open-rehearsal.2.5)",
		"rehearse.PublicMove a move on board r2-b5 reaches the public copy 5s later (open-rehearsal.2.5)",
		"rehearse.SignIn organiser user o signs in",
		"rehearse.SignIn arbiter user a signs in",
		"rehearse.LichessRound Lichess round R1aaaaaa of round 1 accepts the token's pushes",
		"rehearse.LichessRound Lichess round R1bbbbbb of round 1 accepts the token's pushes",
		"rehearse.LichessRound Lichess round R2aaaaaa of round 2 accepts the token's pushes",
		"rehearse.LichessPush Lichess takes a test push",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("checks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// The rehearsal's configuration: its event, data folder, delay; the
	// test round takes the first round's push, and nothing else is pushed.
	old := filepath.Join(cfg.DataDir, "rehearsal", "left-over")
	os.MkdirAll(old, 0o755)
	rc := cfg
	if err := rehearsalConfig(&rc, RehearsalOptions{PublicDelay: 5 * time.Second, LichessRound: "TestRnd1"}); err != nil {
		t.Fatal(err)
	}
	if rc.Event.ID != "open-rehearsal" || rc.Event.PublicDelay != 5*time.Second || rc.DataDir != filepath.Join(cfg.DataDir, "rehearsal") ||
		len(rc.Lichess.Rounds) != 1 || rc.Lichess.Rounds[1] != "TestRnd1" || rc.Lichess.Split != nil {
		t.Errorf("rehearsal configuration: event %q delay %v data %s lichess %v %v", rc.Event.ID, rc.Event.PublicDelay, rc.DataDir, rc.Lichess.Rounds, rc.Lichess.Split)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("the last rehearsal's data folder was not emptied: %v", err)
	}
	rc = cfg
	if err := rehearsalConfig(&rc, RehearsalOptions{}); err != nil || len(rc.Lichess.Rounds) != 0 {
		t.Errorf("without a test round: %v, pushes to %v", err, rc.Lichess.Rounds)
	}
	rc = cfg
	if err := rehearsalConfig(&rc, RehearsalOptions{DataDir: dir}); err == nil || !strings.Contains(err.Error(), "--data-dir "+dir+" is not empty") {
		t.Errorf("a data folder not empty: %v", err)
	}
}

// TestRehearsalChecksOfHall60: the example hall's rehearsal: 60 boards
// and the blind player's own board answer, 60 clocks, 60 moves live and
// public, the blind player's relay (spoken on the machine's sound card:
// the line passes with a note to listen at the table), three
// staff users, three Lichess rounds and the test push.
func TestRehearsalChecksOfHall60(t *testing.T) {
	testenv.LookPath(t, "espeak-ng", "apt-get install -y espeak-ng") // the example speaks to the blind player (relay.speak: device)
	dir := t.TempDir()
	files := map[string]string{"lichess.token": "lip_example\n"}
	for _, f := range []string{"hall60.yaml", "hall60-pairings.csv"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "config", "example", f))
		if err != nil {
			t.Fatal(err)
		}
		files[f] = string(b)
	}
	main := files["hall60.yaml"]
	delete(files, "hall60.yaml")
	cfg := loadConfig(t, dir, main, files)
	count := map[string]int{}
	for _, c := range RehearsalChecks(&cfg, 30*time.Second, "TestRnd1") {
		count[fmt.Sprintf("%T", c)]++
		if b, ok := c.(rehearse.BoardAnswers); ok && b.Board == "r1-b1" && b.BusAddress != 4101 {
			t.Errorf("board 1 on its bus line: %+v", b)
		}
	}
	want := map[string]int{"rehearse.BoardAnswers": 61, "rehearse.ClockSet": 60, "rehearse.LiveMove": 60, "rehearse.PublicMove": 60,
		"rehearse.BlindRelay": 1, "rehearse.SignIn": 3, "rehearse.LichessRound": 3, "rehearse.LichessPush": 1}
	if fmt.Sprint(count) != fmt.Sprint(want) {
		t.Errorf("checks %v, want %v", count, want)
	}
}
