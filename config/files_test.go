package config

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// writeIn writes files (name → body) into dir.
func writeIn(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRelativePaths: paths the file gives are relative to its folder;
// those from the environment and the command line to the working
// directory; absolute paths and relay.speak "device" stay as they are.
func TestRelativePaths(t *testing.T) {
	dir := t.TempDir()
	writeIn(t, dir, map[string]string{
		"etc/dgtbridge.yaml": "data_dir: state\nrelay: {speak: device}\n" +
			"lichess: {token_file: secret/token, rounds: {1: AbCd1234}}\n" +
			"event: {pairings: ../pairings.csv}\n" +
			"boards:\n  - {port: /dev/a, round: 1, board: 1}\n",
		"etc/secret/token": "  lip_abc123 \n",
		"pairings.csv":     "round,board,white,black\n1,1,A,B\n",
	})
	file := filepath.Join(dir, "etc", "dgtbridge.yaml")
	c, err := Load(LoadOptions{File: file})
	if err != nil {
		t.Fatal(err)
	}
	etc := filepath.Join(dir, "etc")
	if c.DataDir != filepath.Join(etc, "state") || c.Lichess.TokenFile != filepath.Join(etc, "secret", "token") ||
		c.Event.Pairings != filepath.Join(dir, "pairings.csv") || c.Relay.Speak != SpeakDevice {
		t.Errorf("paths: data_dir %q token_file %q pairings %q speak %q", c.DataDir, c.Lichess.TokenFile, c.Event.Pairings, c.Relay.Speak)
	}
	if c.Lichess.Token != "lip_abc123" {
		t.Errorf("token %q: whitespace around it must go", c.Lichess.Token)
	}

	t.Setenv("DGTBRIDGE_DATA_DIR", "from-env")
	c, err = Load(LoadOptions{File: file, Overrides: map[string]any{"event.pairings": filepath.Join(dir, "pairings.csv")}})
	if err != nil {
		t.Fatal(err)
	}
	if c.DataDir != "from-env" {
		t.Errorf("data_dir from the environment %q, want it as given", c.DataDir)
	}

	// Without a file, the default stays relative to the working directory.
	os.Unsetenv("DGTBRIDGE_DATA_DIR")
	c, err = Load(LoadOptions{SearchPaths: []string{filepath.Join(dir, "none.yaml")}})
	if err != nil || c.DataDir != "./data" {
		t.Errorf("default data_dir %q (%v)", c.DataDir, err)
	}
}

// TestPairingsFillBoards: the pairing file fills each board for its round
// (event.round for boards that give none); what the YAML gives wins.
func TestPairingsFillBoards(t *testing.T) {
	dir := t.TempDir()
	writeIn(t, dir, map[string]string{
		"p.csv": "round,board,white,black,white_fide_id,black_fide_id,white_team,black_team\n" +
			"2,1,\"Nguyen, An\",\"Tran, Binh\",12400010,12400029,Ha Noi,Hue\n" +
			"2,2,\"Le, Cuong\",\"Pham, Duc\",,12400045,,\n",
		"c.yaml": "event: {round: 2, pairings: p.csv}\nboards:\n" +
			"  - {port: /dev/a, board: 1}\n" +
			"  - {port: /dev/b, board: 2, white: \"Le, Q. Cuong\", black_team: Da Nang}\n",
	})
	c, err := Load(LoadOptions{File: filepath.Join(dir, "c.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	b0, b1 := c.Effective(c.Boards[0]), c.Effective(c.Boards[1])
	if b0.Round != 2 || b0.White != "Nguyen, An" || b0.Black != "Tran, Binh" || b0.WhiteFideID != "12400010" ||
		b0.BlackFideID != "12400029" || b0.WhiteTeam != "Ha Noi" || b0.BlackTeam != "Hue" {
		t.Errorf("board 1: %+v", b0)
	}
	if b1.White != "Le, Q. Cuong" || b1.Black != "Pham, Duc" || b1.BlackFideID != "12400045" || b1.BlackTeam != "Da Nang" {
		t.Errorf("board 2 (the YAML's white and black_team win): %+v", b1)
	}
	if c.GameID(c.Boards[1]) != "event.2.2" {
		t.Errorf("game id %s", c.GameID(c.Boards[1]))
	}
}

// TestPairingsErrors: a board the file lacks is an error naming its round
// and board; a broken file is an error at event.pairings with its lines;
// both are reported with the other problems.
func TestPairingsErrors(t *testing.T) {
	dir := t.TempDir()
	writeIn(t, dir, map[string]string{
		"p.csv":   "round,board,white,black\n1,1,A,B\n",
		"bad.csv": "round,board,white,black\n1,one,A,B\n1,2,A\n",
		"c.yaml": "penalties: sometimes\nevent: {pairings: p.csv}\nboards:\n" +
			"  - {port: /dev/a, round: 1, board: 1}\n  - {port: /dev/b, round: 1, board: 3}\n",
	})
	_, err := Load(LoadOptions{File: filepath.Join(dir, "c.yaml")})
	if !hasKey(err, "event.pairings") || !hasKey(err, "penalties") {
		t.Fatalf("error %v: want event.pairings and penalties", err)
	}
	if !strings.Contains(err.Error(), "round 1 board 3 (boards[1]) is not in "+filepath.Join(dir, "p.csv")+" (CSV, round 1, 1 boards in round 1)") {
		t.Errorf("error %q", err)
	}
	_, err = Load(LoadOptions{File: filepath.Join(dir, "c.yaml"), Overrides: map[string]any{"event.pairings": filepath.Join(dir, "bad.csv"), "penalties": "alert"}})
	if !hasKey(err, "event.pairings") || !strings.Contains(err.Error(), `line 2: board "one" is not a number`) {
		t.Errorf("error %v", err)
	}
	_, err = Load(LoadOptions{File: filepath.Join(dir, "c.yaml"), Overrides: map[string]any{"event.pairings": filepath.Join(dir, "missing.csv"), "penalties": "alert"}})
	if !hasKey(err, "event.pairings") || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("error %v", err)
	}
}

// TestLichessKeys: round ids, the URL and the token file are checked, each
// problem naming its key.
func TestLichessKeys(t *testing.T) {
	dir := t.TempDir()
	writeIn(t, dir, map[string]string{"empty": " \n", "two": "a b\n", "ok": "tok\n"})
	for _, c := range []struct {
		name, yaml, key, msg string
	}{
		{"no token file", "lichess: {rounds: {1: AbCd1234}}\n", "lichess.token_file", "a file with a Lichess API token"},
		{"empty token", "lichess: {token_file: empty, rounds: {1: AbCd1234}}\n", "lichess.token_file", "is empty"},
		{"two words", "lichess: {token_file: two, rounds: {1: AbCd1234}}\n", "lichess.token_file", "more than one word"},
		{"missing token file", "lichess: {token_file: nope, rounds: {1: AbCd1234}}\n", "lichess.token_file", "no such file"},
		{"url", "lichess: {url: 'lichess.org'}\n", "lichess.url", "is not the base URL"},
		{"url in clear", "lichess: {url: 'http://lichess.org'}\n", "lichess.url", "the API token would travel in clear"},
		{"url in clear to a LAN host", "lichess: {url: 'http://192.168.1.20:9663'}\n", "lichess.url", "use https://"},
		{"round id", "lichess: {token_file: ok, rounds: {1: AbCd12}}\n", "lichess.rounds.1", "is not a Lichess broadcast round id"},
		{"round url", "lichess: {token_file: ok, rounds: {2: 'https://lichess.org/broadcast/x/round-2/AbCd1234'}}\n", "lichess.rounds.2", "give the round id alone"},
		{"round zero", "lichess: {token_file: ok, rounds: {0: AbCd1234}}\n", "lichess.rounds.0", "1 or more"},
		{"same id", "lichess: {token_file: ok, rounds: {1: AbCd1234, 2: AbCd1234}}\n", "lichess.rounds.2", "also the Lichess round of round 1"},
		{"rounds not a map", "lichess: {token_file: ok, rounds: [1, 2]}\n", "lichess.rounds", "expected a mapping"},
	} {
		t.Run(c.name, func(t *testing.T) {
			writeIn(t, dir, map[string]string{"c.yaml": c.yaml})
			_, err := Load(LoadOptions{File: filepath.Join(dir, "c.yaml")})
			if !hasKey(err, c.key) || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("error %v: want %s, %q", err, c.key, c.msg)
			}
		})
	}
}

// TestHugeFile: a configuration file above MaxFileSize is refused before
// it is parsed (a 1 GB file once drove memory to 10 GB), and YAML aliases
// that multiply a small file are refused by the parser.
func TestHugeFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "huge.yaml")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	line := "# " + strings.Repeat("x", 1021) + "\n"
	for range (MaxFileSize / len(line)) + 2 {
		f.WriteString(line)
	}
	f.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	_, err = Load(LoadOptions{File: p})
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrFile) || !strings.Contains(err.Error(), "is larger than 4 MiB") {
		t.Errorf("error %v", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > MaxFileSize {
		t.Errorf("refusing the file allocated %d MB", grew>>20)
	}
	t.Logf("refused in %v", time.Since(start))

	var b strings.Builder
	b.WriteString("a: &a [\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\"]\n")
	for i, prev := 'b', 'a'; i <= 'i'; i, prev = i+1, i {
		b.WriteString(string(i) + ": &" + string(i) + " [")
		for j := range 9 {
			if j > 0 {
				b.WriteString(",")
			}
			b.WriteString("*" + string(prev))
		}
		b.WriteString("]\n")
	}
	_, err = load(t, b.String(), nil)
	if !errors.Is(err, ErrFile) {
		t.Errorf("alias bomb: %v, want a file error", err)
	}
}

// TestProtocols: manual boards have no port, the others need one; a board
// on a bus line needs its line's path; the blind player's board cannot be
// on a bus; a DGT board (the default protocol) cannot read a xiangqi game.
func TestProtocols(t *testing.T) {
	if _, err := load(t, "boards:\n  - {protocol: manual, round: 1, board: 1}\n  - {protocol: obp, port: /dev/a, round: 1, board: 2, variant: xiangqi, ruleset: xiangqi-vn2004}\n", nil); err != nil {
		t.Errorf("manual and obp boards: %v", err)
	}
	for _, c := range []struct{ yaml, key, msg string }{
		{"boards:\n  - {protocol: manual, port: /dev/a, round: 1, board: 1}\n", "boards[0].port", "a manual board has no port"},
		{"boards:\n  - {protocol: obp, round: 1, board: 1}\n", "boards[0].port", "must not be empty"},
		{"boards:\n  - {protocol: serial, port: /dev/a, round: 1, board: 1}\n", "boards[0].protocol", `"serial" is not one of dgt, obp, manual`},
		{"boards:\n  - {port: auto, bus_address: 3, round: 1, board: 1}\n", "boards[0].port", "needs the line's device path, not auto"},
		{"boards:\n  - {port: /dev/a, round: 1, board: 1, blind: {side: black, lang: en, port: /dev/b, bus_address: 2}}\n", "boards[0].blind.bus_address", "alone on its port"},
		{"boards:\n  - {port: /dev/a, round: 1, board: 1, white: \"" + strings.Repeat("n", 201) + "\"}\n", "boards[0].white", "at most 200"},
		{"event: {name: \"a\\nb\"}\n", "event.name", "one line"},
		{"boards:\n  - {port: /dev/a, round: 1, board: 1, variant: xiangqi, ruleset: xiangqi-vn2004}\n", "boards[0].protocol", "cannot read a xiangqi game"},
		{"event: {ruleset: xiangqi-vn2004}\nboards:\n  - {protocol: dgt, port: /dev/a, round: 1, board: 1, variant: xiangqi}\n", "boards[0].protocol", "set protocol obp"},
	} {
		if _, err := load(t, c.yaml, nil); !hasKey(err, c.key) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: error %v, want %s %q", c.yaml, err, c.key, c.msg)
		}
	}
}

// TestUnsupported: an OBP board on port auto loads (run --check accepts
// it) but Unsupported names it for "run"; team-drop, xiangqi, OBP and
// manual boards run.
func TestUnsupported(t *testing.T) {
	c, err := load(t, "boards:\n"+
		"  - {port: /dev/a, round: 1, board: 1, variant: team-drop, ruleset: bgo2026-team, partner: 2}\n"+
		"  - {port: /dev/b, round: 1, board: 2, variant: team-drop, ruleset: bgo2026-team, partner: 1}\n"+
		"  - {protocol: obp, port: auto, round: 1, board: 3, variant: xiangqi, ruleset: xiangqi-vn2004}\n"+
		"  - {port: /dev/c, round: 1, board: 4}\n"+
		"  - {protocol: manual, round: 1, board: 5, variant: xiangqi, ruleset: xiangqi-vn2004}\n"+
		"  - {protocol: obp, port: /dev/d, round: 1, board: 6, variant: xiangqi, ruleset: xiangqi-vn2004}\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	err = c.Unsupported()
	if !hasKey(err, "boards[2].port") || !errors.Is(err, ErrUnsupported) {
		t.Errorf("Unsupported %v does not name boards[2].port", err)
	}
	for _, k := range []string{"boards[0].variant", "boards[1].variant", "boards[3].variant", "boards[3].protocol",
		"boards[4].protocol", "boards[4].variant", "boards[5].protocol", "boards[5].port", "boards[5].variant"} {
		if hasKey(err, k) {
			t.Errorf("Unsupported %v names %s", err, k)
		}
	}
	c, _ = load(t, "boards:\n  - {port: /dev/c, round: 1, board: 4}\n", nil)
	if err := c.Unsupported(); err != nil {
		t.Errorf("a chess board: %v", err)
	}
}
