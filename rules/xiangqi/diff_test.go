package xiangqi

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/internal/testenv"
)

// fsf is a running Fairy-Stockfish (Debian package fairy-stockfish,
// GPL-3.0: run as a separate process, never linked or copied) set to the
// xiangqi variant. Its coordinates number ranks 1–10; fsf converts them to ICCS.
type fsf struct {
	in  io.WriteCloser
	out *bufio.Scanner
}

// startFSF starts the oracle. A missing binary fails the test under CI
// (CI=true), where .ci/run installs it, and skips it elsewhere.
func startFSF(t *testing.T) *fsf {
	t.Helper()
	bin := testenv.LookPath(t, "fairy-stockfish", "apt-get install -y fairy-stockfish", "/usr/games/fairy-stockfish")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	cmd := exec.CommandContext(ctx, bin)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	t.Cleanup(func() {
		fmt.Fprintln(in, "quit")
		in.Close()
		cmd.Wait()
		cancel()
	})
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	f := &fsf{in: in, out: sc}
	f.send(t, "uci")
	f.until(t, "uciok")
	f.send(t, "setoption name UCI_Variant value xiangqi")
	f.send(t, "isready")
	f.until(t, "readyok")
	return f
}

func (f *fsf) send(t *testing.T, line string) {
	t.Helper()
	if _, err := fmt.Fprintln(f.in, line); err != nil {
		t.Fatalf("write to fairy-stockfish: %v", err)
	}
}

// until reads lines up to one starting with prefix and returns those before.
func (f *fsf) until(t *testing.T, prefix string) []string {
	t.Helper()
	var lines []string
	for f.out.Scan() {
		l := strings.TrimSpace(f.out.Text())
		if strings.HasPrefix(l, prefix) {
			return append(lines, l)
		}
		lines = append(lines, l)
	}
	t.Fatalf("fairy-stockfish ended before %q: %v", prefix, f.out.Err())
	return nil
}

// divide runs "go perft depth" on fen and returns ICCS move → count.
func (f *fsf) divide(t *testing.T, fen string, depth int) map[string]uint64 {
	t.Helper()
	f.send(t, "position fen "+fen)
	f.send(t, fmt.Sprintf("go perft %d", depth))
	res := map[string]uint64{}
	for _, l := range f.until(t, "Nodes searched") {
		mv, n, ok := strings.Cut(l, ": ")
		if !ok || strings.HasPrefix(l, "Nodes") {
			continue
		}
		u, err := fsfToICCS(mv)
		if err != nil {
			t.Fatalf("fairy-stockfish move %q: %v", l, err)
		}
		c, err := strconv.ParseUint(n, 10, 64)
		if err != nil {
			t.Fatalf("fairy-stockfish count %q: %v", l, err)
		}
		res[u] = c
	}
	return res
}

// fsfToICCS converts "h3e3" or "b3b10" (ranks 1–10) to ICCS "h2e2".
func fsfToICCS(s string) (string, error) {
	var out []byte
	for i := 0; i < len(s); {
		if s[i] < 'a' || s[i] > 'i' {
			return "", fmt.Errorf("bad file in %q", s)
		}
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		r, err := strconv.Atoi(s[i+1 : j])
		if err != nil || r < 1 || r > 10 {
			return "", fmt.Errorf("bad rank in %q", s)
		}
		out = append(out, s[i], byte('0'+r-1))
		i = j
	}
	if len(out) != 4 {
		return "", fmt.Errorf("not a move: %q", s)
	}
	return string(out), nil
}

// TestDifferentialFSF compares the legal moves of a few hundred positions
// from seeded random games with Fairy-Stockfish, and perft-3 divides of
// some of them.
func TestDifferentialFSF(t *testing.T) {
	f := startFSF(t)
	r := rand.New(rand.NewPCG(2026, 11))
	all := randomPositions(r, 40, 120)
	var positions []*Position
	for i, p := range all {
		if i%12 == 0 {
			positions = append(positions, p)
		}
	}
	if len(positions) < 300 {
		t.Fatalf("only %d positions", len(positions))
	}
	// Random placements with every piece on a point a game can bring it
	// to: full of checks, pins, screens and horse legs.
	for len(positions) < 700 {
		if p := randomPlacement(r, 6+r.IntN(20)); reachable(p) {
			positions = append(positions, p)
		}
	}
	checks := 0
	for i, p := range positions {
		if p.InCheck() {
			checks++
		}
		want := f.divide(t, p.FEN(), 1)
		var w []string
		for u := range want {
			w = append(w, u)
		}
		slices.Sort(w)
		got := legalICCS(p, "")
		if !slices.Equal(got, w) {
			t.Fatalf("position %d %s:\n ours %v\n FSF  %v", i, p.FEN(), got, w)
		}
	}
	for i, p := range positions {
		if i%40 != 0 {
			continue
		}
		want := f.divide(t, p.FEN(), 3)
		for _, e := range p.Divide(3) {
			if want[e.UCI] != e.Nodes {
				t.Errorf("%s divide 3: %s ours %d, FSF %d", p.FEN(), e.UCI, e.Nodes, want[e.UCI])
			}
		}
		if len(want) != len(p.Divide(1)) {
			t.Errorf("%s: FSF has %d root moves, ours %d", p.FEN(), len(want), len(p.Divide(1)))
		}
	}
	if checks < 50 {
		t.Errorf("only %d of the %d positions are checks: the sample is too tame", checks, len(positions))
	}
	t.Logf("%d positions (%d in check) agree with Fairy-Stockfish", len(positions), checks)
}

func TestFSFToICCS(t *testing.T) {
	for in, want := range map[string]string{"h3e3": "h2e2", "b3b10": "b2b9", "a10a9": "a9a8", "i1i2": "i0i1"} {
		if got, err := fsfToICCS(in); err != nil || got != want {
			t.Errorf("fsfToICCS(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "h3", "j1a1", "a0a1", "a11a1", "h3e3q"} {
		if got, err := fsfToICCS(bad); err == nil {
			t.Errorf("fsfToICCS(%q) = %q, want an error", bad, got)
		}
	}
}

// reachable reports whether every piece of p stands on a point a game can
// bring it to: advisors on the palace's five points, elephants on their
// seven, soldiers not behind their start rank nor beside it before the
// river.
func reachable(p *Position) bool {
	for s, x := range p.board {
		if x == 0 {
			continue
		}
		c, f, r := colorOf(x), fileOf(s), rankOf(s)
		if c == 1 {
			r = nRanks - 1 - r
		}
		switch x & kindMask {
		case advisor:
			if !inPalace(c, s) || (f+r)%2 != 1 {
				return false
			}
		case elephant:
			if !ownHalf(c, s) || r%2 != 0 || f%2 != 0 || (r/2+f/2)%2 != 1 {
				return false
			}
		case soldier:
			if r < 3 || r <= 4 && f%2 != 0 {
				return false
			}
		}
	}
	return true
}
