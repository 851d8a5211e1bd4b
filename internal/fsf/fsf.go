// Package fsf drives Debian's Fairy-Stockfish (package fairy-stockfish,
// GPL-3.0: run as a separate process, never linked) for the differential
// tests of the rules engines: start it with UCI options, send commands,
// read "go perft" divides. A missing binary stops the test through
// internal/testenv (skipped on a laptop, failed in CI).
package fsf

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/internal/testenv"
)

// Engine is a running Fairy-Stockfish.
type Engine struct {
	in  io.WriteCloser
	out *bufio.Scanner
}

// Start starts the engine, bounded by timeout, sets the UCI options given
// as name/value pairs in order (e.g. "VariantPath", "/tmp/v.ini",
// "UCI_Variant", "teamdrop") and waits until it is ready. It is stopped
// when the test ends.
func Start(tb testing.TB, timeout time.Duration, options ...string) *Engine {
	tb.Helper()
	bin := testenv.LookPath(tb, "fairy-stockfish", "apt-get install -y fairy-stockfish", "/usr/games/fairy-stockfish")
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	cmd := exec.CommandContext(ctx, bin)
	in, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		cancel()
		tb.Fatalf("start %s: %v", bin, err)
	}
	tb.Cleanup(func() {
		fmt.Fprintln(in, "quit")
		in.Close()
		cmd.Wait()
		cancel()
	})
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	e := &Engine{in: in, out: sc}
	e.Send(tb, "uci")
	e.Until(tb, "uciok")
	for i := 0; i+1 < len(options); i += 2 {
		e.Send(tb, "setoption name "+options[i]+" value "+options[i+1])
	}
	e.Send(tb, "isready")
	e.Until(tb, "readyok")
	return e
}

// Send writes one command line.
func (e *Engine) Send(tb testing.TB, line string) {
	tb.Helper()
	if _, err := fmt.Fprintln(e.in, line); err != nil {
		tb.Fatalf("write to fairy-stockfish: %v", err)
	}
}

// Until reads lines up to one starting with prefix and returns them all,
// that one last.
func (e *Engine) Until(tb testing.TB, prefix string) []string {
	tb.Helper()
	var lines []string
	for e.out.Scan() {
		l := strings.TrimSpace(e.out.Text())
		lines = append(lines, l)
		if strings.HasPrefix(l, prefix) {
			return lines
		}
	}
	tb.Fatalf("fairy-stockfish ended before %q: %v", prefix, e.out.Err())
	return nil
}

// Divide runs "go perft depth" on fen and returns each root move, as the
// engine writes it, with its count.
func (e *Engine) Divide(tb testing.TB, fen string, depth int) map[string]uint64 {
	tb.Helper()
	e.Send(tb, "position fen "+fen)
	e.Send(tb, fmt.Sprintf("go perft %d", depth))
	res := map[string]uint64{}
	for _, l := range e.Until(tb, "Nodes searched") {
		mv, n, ok := strings.Cut(l, ": ")
		if !ok || strings.HasPrefix(l, "Nodes") || strings.HasPrefix(l, "info") {
			continue
		}
		c, err := strconv.ParseUint(n, 10, 64)
		if err != nil {
			tb.Fatalf("fairy-stockfish line %q: %v", l, err)
		}
		res[mv] = c
	}
	return res
}
