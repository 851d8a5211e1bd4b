package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/dgt/recording"
	"github.com/dgtbridge/dgtbridge/hall/demo"
	"github.com/dgtbridge/dgtbridge/rules/teamdrop"
)

// TestReplayTeam: "replay --ruleset bgo2026-team A B" replays the two
// recordings of a simulated team match (realistic hands on two emulated
// boards, recorded as the daemon records) together: both games on stdout
// (replay.1.1 first, Bughouse, [%pocket]) with every move of the match;
// --bpgn prints the match as one BPGN game; one recording alone, or a
// --bpgn without team-drop, is a usage error.
func TestReplayTeam(t *testing.T) {
	plan, err := demo.PlanTeamMatch(demo.TeamMatchOptions{Seed: 7, Plies: 30})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var files [2]string
	for b, bp := range plan.Boards {
		p, err := emu.PlayPlanned(bp.Game, bp.Script, bp.Plies)
		if err != nil {
			t.Fatal(err)
		}
		var buf []byte
		for _, c := range p.Sent {
			buf = recording.AppendLine(buf, c.At, recording.FromBoard, c.Bytes)
		}
		files[b] = filepath.Join(dir, []string{"a.hexlog", "b.hexlog"}[b])
		if err := os.WriteFile(files[b], buf, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	alerts := filepath.Join(dir, "alerts.jsonl")
	code, out, errOut := runMain(t, "replay", "--ruleset", "bgo2026-team", "--alerts", alerts, files[0], files[1])
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	a, b := strings.Index(out, `[GameId "replay.1.1"]`), strings.Index(out, `[GameId "replay.1.2"]`)
	if a < 0 || b < a || strings.Count(out, `[Variant "Bughouse"]`) != 2 || !strings.Contains(out, "[%pocket ") {
		t.Fatalf("games:\n%s", out)
	}
	words := map[string]bool{}
	for _, w := range strings.Fields(out) {
		words[w] = true
	}
	for bd := range 2 {
		for _, p := range plan.Match.Plies(teamdrop.Board(bd)) {
			if !words[p.SAN] {
				t.Errorf("board %d: %s missing from the games", bd+1, p.SAN)
			}
		}
	}
	if data, _ := os.ReadFile(alerts); strings.Contains(string(data), `"severity":"crit"`) || strings.Contains(string(data), `"severity":"warn"`) {
		t.Errorf("alerts:\n%s", data)
	}
	code, out, errOut = runMain(t, "replay", "--ruleset", "bgo2026-team", "--bpgn", "--alerts", alerts, files[0], files[1])
	if code != 0 || !strings.Contains(out, `[WhiteA "?"]`) || !strings.Contains(out, "1A. ") || !strings.Contains(out, "1b. ") || strings.Count(out, "[Event ") != 1 {
		t.Fatalf("--bpgn: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := runMain(t, "replay", "--ruleset", "bgo2026-team", files[0]); code != 2 || !strings.Contains(errOut, "two boards") {
		t.Errorf("one recording: exit %d, %q", code, errOut)
	}
	if code, _, errOut := runMain(t, "replay", "--bpgn", files[0]); code != 2 || !strings.Contains(errOut, "--bpgn is for team-drop") {
		t.Errorf("--bpgn with chess: exit %d, %q", code, errOut)
	}
}
