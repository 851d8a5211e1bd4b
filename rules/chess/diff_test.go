package chess

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/internal/testenv"
	"github.com/dgtbridge/dgtbridge/rules"
)

// chessopsVersion is the exact npm version of the oracle (lichess'
// chessops, GPL: run as a separate process, never linked or copied).
const chessopsVersion = "0.15.1"

// chessopsDir installs chessops into a per-user cache directory once and
// returns the directory holding node_modules and the oracle script. Missing
// node or npm skips the test on a developer's machine and fails it in CI
// (package internal/testenv).
func chessopsDir(t *testing.T) string {
	t.Helper()
	testenv.LookPath(t, "node", "Node 20+: apt-get install -y nodejs npm")
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "dgtbridge-npm", "chessops-"+chessopsVersion)
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "chessops", "package.json")); err != nil {
		npm := testenv.LookPath(t, "npm", "apt-get install -y npm; it installs chessops@"+chessopsVersion)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.CommandContext(toolContext(t, 5*time.Minute), npm, "install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error", "chessops@"+chessopsVersion)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm install chessops@%s into %s failed (is the npm registry reachable?): %v\n%s", chessopsVersion, dir, err, out)
		}
	}
	script, err := os.ReadFile(filepath.Join("testdata", "chessops_moves.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "chessops_moves.mjs"), script, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// toolContext bounds an external tool (npm over the network, the node
// oracle), so that a hung tool fails the test instead of stalling the run.
func toolContext(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), d)
	t.Cleanup(cancel)
	return ctx
}

// oracleMoves runs the chessops script on the positions and returns, per
// position, the map UCI (king-takes-rook) → SAN.
func oracleMoves(t *testing.T, dir string, rulesNames, fens []string) []map[string]string {
	t.Helper()
	var in bytes.Buffer
	for i, f := range fens {
		fmt.Fprintf(&in, "%s\t%s\n", rulesNames[i], f)
	}
	cmd := exec.CommandContext(toolContext(t, 2*time.Minute), "node", filepath.Join(dir, "chessops_moves.mjs"))
	cmd.Dir = dir
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node chessops_moves.mjs: %v\n%s", err, stderr.String())
	}
	var res []map[string]string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		m := map[string]string{}
		if strings.HasPrefix(line, "ERROR") {
			m["ERROR"] = line
		}
		for _, tok := range strings.Fields(line) {
			if u, s, ok := strings.Cut(tok, "="); ok {
				m[u] = s
			}
		}
		res = append(res, m)
	}
	if len(res) != len(fens) {
		t.Fatalf("oracle answered %d lines for %d positions", len(res), len(fens))
	}
	return res
}

// rawUCI writes m as chessops does: castling king-takes-rook, drops N@f3.
func rawUCI(m rules.Move) string {
	if m.IsDrop() {
		return string(m.Drop.Letter()) + "@" + sqName(int(m.To))
	}
	s := sqName(int(m.From)) + sqName(int(m.To))
	if m.Promo != rules.NoKind {
		s += string(m.Promo.Letter() + 'a' - 'A')
	}
	return s
}

// randomPositions plays seeded random games from the starts given by start
// and returns every position met. Special moves (castling, en passant,
// promotion, drops giving check) are preferred half of the time so that
// they are well covered.
func randomPositions(r *rand.Rand, games, plies int, start func() *Position) []*Position {
	var out []*Position
	buf := make([]rules.Move, 0, maxMoves)
	for g := 0; g < games; g++ {
		p := start()
		for ply := 0; ply < plies; ply++ {
			out = append(out, p)
			buf = p.LegalMoves(buf[:0])
			if len(buf) == 0 {
				break
			}
			m := buf[r.IntN(len(buf))]
			if r.IntN(2) == 0 {
				for _, c := range buf {
					if c.Flags&(rules.FlagCastle|rules.FlagEnPassant) != 0 || c.Promo != rules.NoKind || c.IsCapture() && r.IntN(3) == 0 {
						m = c
						break
					}
				}
			}
			q, err := p.PlayMove(m)
			if err != nil {
				panic(err)
			}
			p = q
		}
	}
	return out
}

// TestDifferentialChessops compares legal move sets and SAN with chessops
// on positions from seeded random games in chess, Chess960 and crazyhouse.
func TestDifferentialChessops(t *testing.T) {
	dir := chessopsDir(t)
	r := rand.New(rand.NewPCG(2026, 11))
	type set struct {
		name, rules string
		pos         []*Position
	}
	sets := []set{
		{"chess", "chess", randomPositions(r, 12, 120, func() *Position { return StartPosition(Standard) })},
		{"chess960", "chess", randomPositions(r, 12, 120, func() *Position { return Chess960Start(r.IntN(960)) })},
		{"crazyhouse", "crazyhouse", randomPositions(r, 12, 100, func() *Position { return StartPosition(Crazyhouse) })},
	}
	// The perft positions and e.p. edge cases, with all their children and
	// grandchildren.
	var tricky []*Position
	var trickyZH []*Position
	type start struct {
		v   Variant
		fen string
	}
	extra := []start{
		{Standard, "8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1"},
		{Standard, "8/8/8/2k5/3pP3/8/8/4KB2 b - e3 0 1"},
		{Standard, "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1"},
		{Standard, "4k3/8/8/2KpP2r/8/8/8/8 w - d6 0 1"},
	}
	for _, tc := range perftCases {
		extra = append(extra, start{tc.v, tc.fen})
	}
	for _, e := range extra {
		v, fen := e.v, e.fen
		root := mustPos(t, v, fen)
		list := []*Position{root}
		for _, m := range root.LegalMoves(nil) {
			c, _ := root.PlayMove(m)
			list = append(list, c)
			if len(list) < 60 {
				for _, m2 := range c.LegalMoves(nil) {
					g, _ := c.PlayMove(m2)
					list = append(list, g)
				}
			}
		}
		if root.opts.Drops {
			trickyZH = append(trickyZH, list...)
		} else {
			tricky = append(tricky, list...)
		}
	}
	sets = append(sets, set{"tricky", "chess", tricky}, set{"tricky-crazyhouse", "crazyhouse", trickyZH})
	for _, s := range sets {
		t.Run(s.name, func(t *testing.T) {
			var fens, names []string
			for _, p := range s.pos {
				fens = append(fens, p.FEN())
				names = append(names, s.rules)
			}
			want := oracleMoves(t, dir, names, fens)
			failures := 0
			moves := 0
			for i, p := range s.pos {
				got := map[string]string{}
				for _, m := range p.LegalMoves(nil) {
					san := p.SAN(m)
					if strings.HasPrefix(san, "P@") {
						san = san[1:] // chessops writes pawn drops "@e4"
					}
					got[rawUCI(m)] = san
				}
				moves += len(got)
				if diff := diffMoves(got, want[i]); diff != "" {
					failures++
					if failures <= 5 {
						t.Errorf("%s: %s", fens[i], diff)
					}
				}
				// FEN round trip while we are here.
				if q, err := NewPosition(p.variant, fens[i]); err != nil || q.FEN() != fens[i] || q.RepetitionKey() != p.RepetitionKey() {
					t.Errorf("FEN round trip of %s: %v", fens[i], err)
				}
			}
			if failures > 0 {
				t.Errorf("%d of %d positions differ", failures, len(s.pos))
			}
			t.Logf("%d positions, %d moves compared with chessops %s", len(s.pos), moves, chessopsVersion)
			if len(s.pos) < 1000 {
				t.Errorf("only %d positions generated, want ≥ 1000", len(s.pos))
			}
		})
	}
}

func diffMoves(got, want map[string]string) string {
	if e, ok := want["ERROR"]; ok {
		return "chessops rejects the position: " + e
	}
	var missing, extra, san []string
	for u, s := range want {
		g, ok := got[u]
		switch {
		case !ok:
			missing = append(missing, u)
		case g != s:
			san = append(san, fmt.Sprintf("%s: %s, chessops %s", u, g, s))
		}
	}
	for u := range got {
		if _, ok := want[u]; !ok {
			extra = append(extra, u)
		}
	}
	if len(missing)+len(extra)+len(san) == 0 {
		return ""
	}
	sort.Strings(missing)
	sort.Strings(extra)
	sort.Strings(san)
	return fmt.Sprintf("missing %v, extra %v, SAN differs %v", missing, extra, san)
}
