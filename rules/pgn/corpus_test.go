package pgn

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// corpusModule ships ~11,000 Lichess games (MIT-licensed module; the
// games are Lichess exports), 1,000 of them with [%clk] on every move. The files are read from the Go
// module cache, never copied into this repository.
const corpusModule = "github.com/corentings/chess/v2@v2.5.1"

var corpus struct {
	once sync.Once
	dir  string
	err  string
}

// corpusDir downloads corpusModule with `go mod download -json` (a no-op
// when it is in the module cache) and returns its fixtures/pgns
// directory. A failed download fails the test: the Go module proxy is part
// of the build environment.
func corpusDir(tb testing.TB) string {
	tb.Helper()
	corpus.once.Do(func() {
		goBin, err := exec.LookPath("go") // go test puts its own GOROOT/bin first on PATH
		if err != nil {
			corpus.err = "go is not on PATH: " + err.Error()
			return
		}
		cmd := exec.Command(goBin, "mod", "download", "-json", corpusModule)
		cmd.Dir = tb.TempDir() // outside any module
		out, err := cmd.Output()
		var info struct{ Dir, Error string }
		if jerr := json.Unmarshal(out, &info); jerr != nil || info.Error != "" || info.Dir == "" {
			corpus.err = "go mod download " + corpusModule + " failed: " + info.Error
			if err != nil {
				corpus.err += " (" + err.Error() + ")"
				if ee, ok := err.(*exec.ExitError); ok {
					corpus.err += ": " + string(ee.Stderr)
				}
			}
			return
		}
		corpus.dir = filepath.Join(info.Dir, "fixtures", "pgns")
	})
	if corpus.err != "" {
		tb.Fatal(corpus.err)
	}
	return corpus.dir
}

// TestCorpusRoundTrip reads every game of the corpus with move replay,
// checks that the engine's SAN is the SAN in the file and that every
// [%clk] was read, writes each game back and reads it again: same moves,
// SAN, clocks, comments, NAGs, variations, tags and start position.
func TestCorpusRoundTrip(t *testing.T) {
	dir := corpusDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "*.pgn"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no PGN files in %s: %v", dir, err)
	}
	var total corpusCount
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		if name == "big_big.pgn" {
			// 10,000 games of one player, no comments: the first 1,500
			// keep the test fast under -race.
			data = firstGames(data, 1500)
		}
		c := roundTripFile(t, name, data)
		// Independent counts from the raw text: every game and every clock
		// command was read.
		if want := countGames(data); c.games != want {
			t.Errorf("%s: read %d games, the file has %d tag sections", name, c.games, want)
		}
		if want := bytes.Count(data, []byte("[%clk ")); c.clocks != want {
			t.Errorf("%s: read %d clocks, the file has %d [%%clk commands", name, c.clocks, want)
		}
		total.add(c)
	}
	t.Logf("corpus %s: %d files, %d games, %d main-line plies, %d variation plies, %d clocks, %d emt",
		corpusModule, len(files), total.games, total.plies, total.varPlies, total.clocks, total.emts)
}

type corpusCount struct{ games, plies, varPlies, clocks, emts int }

func (c *corpusCount) add(o corpusCount) {
	c.games += o.games
	c.plies += o.plies
	c.varPlies += o.varPlies
	c.clocks += o.clocks
	c.emts += o.emts
}

// firstGames returns the text of the first n games of a Lichess export,
// cut at the tag section of game n+1 (the first game starts the text, the
// others follow a newline).
func firstGames(data []byte, n int) []byte {
	k := 0
	for i := 0; i < n; i++ {
		j := bytes.Index(data[k:], []byte("\n[Event "))
		if j < 0 {
			return data
		}
		k += j + 1
	}
	return data[:k]
}

// countGames counts tag sections: lines starting with [ that follow a line
// that does not.
func countGames(data []byte) int {
	n, inTags := 0, false
	for _, line := range bytes.Split(data, []byte("\n")) {
		isTag := len(line) > 0 && line[0] == '['
		if isTag && !inTags {
			n++
		}
		if len(bytes.TrimSpace(line)) > 0 {
			inTags = isTag
		}
	}
	if n == 0 && len(bytes.TrimSpace(data)) > 0 {
		n = 1 // movetext only
	}
	return n
}

func roundTripFile(t *testing.T, name string, data []byte) corpusCount {
	var c corpusCount
	replay := NewReader(bytes.NewReader(data), ReaderOptions{})
	text := NewReader(bytes.NewReader(data), ReaderOptions{ParseOnly: true})
	var out bytes.Buffer
	for {
		g, err := replay.Next()
		p, perr := text.Next()
		if err == io.EOF && perr == io.EOF {
			break
		}
		if err != nil || perr != nil {
			t.Fatalf("%s game %d: %v / parse-only: %v", name, c.games+1, err, perr)
		}
		c.games++
		c.plies += len(g.Moves)
		where := fmt.Sprintf("%s game %d", name, g.Index)
		sameLine(t, where+" (file text vs engine SAN)", p.Moves, g.Moves, false)
		countNodes(g.Moves, &c, true)

		out.Reset()
		if err := Write(&out, g, WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		back, err := NewReader(bytes.NewReader(out.Bytes()), ReaderOptions{}).Next()
		if err != nil {
			t.Fatalf("%s: written game does not read back: %v\n%s", where, err, out.String())
		}
		sameLine(t, where+" (written and read back)", g.Moves, back.Moves, true)
		if back.Start.FEN() != g.Start.FEN() || back.Start.Variant() != g.Start.Variant() {
			t.Errorf("%s: start %s %q read back as %s %q", where, g.Start.Variant(), g.Start.FEN(), back.Start.Variant(), back.Start.FEN())
		}
		if back.Result != g.Result || back.Comment != g.Comment {
			t.Errorf("%s: result %q comment %q read back as %q %q", where, g.Result, g.Comment, back.Result, back.Comment)
		}
		for _, tag := range g.Tags {
			switch tag.Name {
			case "Variant", "SetUp", "FEN", "Result":
				continue // derived from Start and Result
			}
			if v, ok := back.Lookup(tag.Name); !ok || v != tag.Value {
				t.Errorf("%s: tag %s %q read back as %q", where, tag.Name, tag.Value, v)
			}
		}
		if t.Failed() {
			t.Fatalf("%s: stopping after the first bad game; written:\n%s", where, out.String())
		}
	}
	return c
}

func countNodes(nodes []MoveNode, c *corpusCount, main bool) {
	for i := range nodes {
		n := &nodes[i]
		if !main {
			c.varPlies++
		}
		if n.HasClock {
			c.clocks++
		}
		if n.HasEMT {
			c.emts++
		}
		for _, v := range n.Variations {
			countNodes(v, c, false)
		}
	}
}

// sameLine compares two lines node by node, variations included: SAN and
// clocks always, the resolved move and the annotations when full.
func sameLine(t *testing.T, where string, a, b []MoveNode, full bool) {
	t.Helper()
	if len(a) != len(b) {
		t.Errorf("%s: %d moves vs %d", where, len(a), len(b))
		return
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if x.SAN != y.SAN || x.HasClock != y.HasClock || x.Clock != y.Clock || x.HasEMT != y.HasEMT || x.EMT != y.EMT {
			t.Errorf("%s: ply %d: %q %v %v vs %q %v %v", where, i+1, x.SAN, x.Clock, x.EMT, y.SAN, y.Clock, y.EMT)
			return
		}
		if full && (x.Move != y.Move || x.Comment != y.Comment || x.PreComment != y.PreComment || !slices.Equal(x.NAGs, y.NAGs)) {
			t.Errorf("%s: ply %d %s: %+v vs %+v", where, i+1, x.SAN, *x, *y)
			return
		}
		if len(x.Variations) != len(y.Variations) {
			t.Errorf("%s: ply %d %s: %d variations vs %d", where, i+1, x.SAN, len(x.Variations), len(y.Variations))
			return
		}
		for k := range x.Variations {
			sameLine(t, fmt.Sprintf("%s ply %d variation %d", where, i+1, k+1), x.Variations[k], y.Variations[k], full)
		}
	}
}
