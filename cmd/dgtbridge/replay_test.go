package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/dgt/dgttest"
	"github.com/dgtbridge/dgtbridge/rules/pgn"
)

// TestReplayCommandCaptures replays the three real captures in one run: the
// PGN on stdout holds exactly the moves of 1.uci, 2.uci and johan.pgn (the
// latter 1-0 from the kings-in-the-centre gesture), and the alerts file
// holds valid JSON lines.
func TestReplayCommandCaptures(t *testing.T) {
	names := dgttest.Names()
	var files []string
	for _, n := range names {
		files = append(files, dgttest.Path(t, n+".inbytes"))
	}
	alerts := filepath.Join(t.TempDir(), "alerts.jsonl")
	var out, errb bytes.Buffer
	args := append([]string{"replay", "--format", "base64", "--alerts", alerts}, files...)
	if err := run(context.Background(), args, &out, &errb); err != nil {
		t.Fatalf("replay: %v (stderr %q)", err, errb.String())
	}
	r := pgn.NewReader(strings.NewReader(out.String()), pgn.ReaderOptions{})
	var games []*pgn.Game
	for {
		g, err := r.Next()
		if err != nil {
			break
		}
		games = append(games, g)
	}
	if len(games) != 3 {
		t.Fatalf("%d games on stdout, want 3:\n%s", len(games), out.String())
	}
	wantResult := []string{"*", "*", "1-0"}
	for i, name := range names {
		exp := dgttest.Moves(t, name)
		var got []string
		pos := games[i].Start
		for _, m := range games[i].Moves {
			got = append(got, pos.UCI(m.Move))
			pos, _ = pos.Play(m.Move)
		}
		if strings.Join(got, " ") != strings.Join(exp, " ") {
			t.Errorf("game %d: moves\n got %v\nwant %v", i+1, got, exp)
		}
		if games[i].Result != wantResult[i] {
			t.Errorf("game %d: result %q, want %q", i+1, games[i].Result, wantResult[i])
		}
		if games[i].Tag("GameId") == "" || !games[i].Moves[0].HasClock {
			t.Errorf("game %d: no GameId tag or no [%%clk]", i+1)
		}
	}
	f, err := os.Open(alerts)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		var a struct{ ID, Kind, Game string }
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil || a.ID == "" || a.Kind == "" {
			t.Errorf("alert line %q: %v", sc.Text(), err)
		}
		n++
	}
	kinds := strings.Count(readFile(t, alerts), `"result_gesture"`)
	if kinds != 1 {
		t.Errorf("%d result_gesture alerts, want 1 (johan); %d alerts in all", kinds, n)
	}
}

func TestReplayCommandErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no file", nil, "give at least one recording"},
		{"bad format", []string{"--format", "wav", "x"}, "--format"},
		{"bad ruleset", []string{"--ruleset", "fide1900", "x"}, "--ruleset"},
		{"bad fen", []string{"--fen", "8/8/8 w", "x"}, "--fen"},
		{"missing file", []string{filepath.Join(t.TempDir(), "none.hexlog")}, "no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			err := run(context.Background(), append([]string{"replay"}, tc.args...), &out, &errb)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func readFile(t *testing.T, p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
