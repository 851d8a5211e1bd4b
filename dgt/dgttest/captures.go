package dgttest

import (
	"bufio"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/internal/testenv"
)

// The captures with an expected decode (<name>.json) and an expected game
// (<name>.uci or <name>.pgn), by base name.
const (
	Game1     = "1"
	Game2     = "2"
	GameJohan = "johan"
)

// Names returns the base names of the captures: [Game1], [Game2],
// [GameJohan]. The data files are <name>.inbytes (one base64 board message
// per line) and <name>.json (one expected decode per line).
func Names() []string { return []string{Game1, Game2, GameJohan} }

// root finds the captures folder beside the module root (the nearest
// folder above the working directory that holds go.mod; the path is
// below); "" when there is no module root.
var root = sync.OnceValue(func() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "..", "shared", "data", "dgt-captures")
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
})

// Dir returns the captures folder. When it does not exist (the captures
// are absent, as in a user's clone) the test stops through testenv.Unavailable:
// skipped, saying where it looked, or failed in CI; any other problem fails
// the test.
func Dir(tb testing.TB) string {
	tb.Helper()
	dir := root()
	if dir == "" {
		tb.Fatal("dgttest: no go.mod above the working directory: cannot locate ../shared/data/dgt-captures")
	}
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		testenv.Unavailable(tb, "the real DGT captures are not present at "+dir+" (a clone without ../shared beside it): this test replays them")
	case err != nil:
		tb.Fatalf("dgttest: %v", err)
	case !st.IsDir():
		tb.Fatalf("dgttest: %s is not a folder", dir)
	}
	return dir
}

// Path returns the path of file (e.g. "johan.pgn") in the captures folder,
// skipping the test like [Dir] when the folder is absent. It does not check
// that the file exists.
func Path(tb testing.TB, file string) string {
	tb.Helper()
	return filepath.Join(Dir(tb), file)
}

// Lines returns the board messages of capture name ("1", "2", "johan"):
// the base64 lines of <name>.inbytes, decoded, blank lines left out. A
// missing file or a bad line fails the test (naming file and line).
func Lines(tb testing.TB, name string) [][]byte {
	tb.Helper()
	file := Path(tb, name+".inbytes")
	f, err := os.Open(file)
	if err != nil {
		tb.Fatalf("dgttest: %v", err)
	}
	defer f.Close()
	var out [][]byte
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		b, err := base64.StdEncoding.DecodeString(line)
		if err != nil {
			tb.Fatalf("dgttest: %s line %d: %v", file, n, err)
		}
		out = append(out, b)
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("dgttest: %s: %v", file, err)
	}
	return out
}

// Messages returns capture name decoded as single-board traffic with
// [dgt.Decoder], in order. A message the decoder refuses fails the test:
// the captures are clean.
func Messages(tb testing.TB, name string) []dgt.Message {
	tb.Helper()
	d := dgt.NewDecoder(dgt.SingleBoard)
	var out []dgt.Message
	for i, b := range Lines(tb, name) {
		d.Feed(b)
		for {
			m, err := d.Next()
			if errors.Is(err, dgt.ErrNeedMore) {
				break
			}
			if err != nil {
				tb.Fatalf("dgttest: %s.inbytes message %d: %v", name, i+1, err)
			}
			out = append(out, m)
		}
	}
	if n := d.Buffered(); n != 0 {
		tb.Fatalf("dgttest: %s.inbytes: %d bytes left undecoded at the end", name, n)
	}
	return out
}
