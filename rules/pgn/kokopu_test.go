package pgn

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/internal/testenv"
)

// kokopuPackage ships four real Chess960 games whose Variant tags are
// spelt "Chess960", "chess 960", "chess-960" and "Fischerandom" and whose
// castling fields are KQkq, EAea and ADad. The package is LGPL-3.0-or-later: its files are read from a
// temporary download at test time, never copied into this repository.
const kokopuPackage = "kokopu@4.13.4"

const kokopuChess960 = "package/test/resources/pgns/chess960/database.pgn"

// TestKokopuChess960 reads, replays, writes back and rereads the Chess960
// games of kokopu. It needs npm; without it the test is skipped and says so.
func TestKokopuChess960(t *testing.T) {
	npm := testenv.LookPath(t, "npm", "apt-get install -y npm; it fetches the Chess960 games of "+kokopuPackage+" with `npm pack`")
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute) // npm over the network
	defer cancel()
	dir := t.TempDir()
	cmd := exec.CommandContext(ctx, npm, "pack", "--silent", kokopuPackage)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		msg := err.Error()
		if ee, ok := err.(*exec.ExitError); ok {
			msg += ": " + string(ee.Stderr)
		}
		t.Fatalf("npm pack %s failed: %s", kokopuPackage, msg)
	}
	lines := strings.Fields(string(out))
	if len(lines) == 0 {
		t.Fatalf("npm pack %s printed no file name", kokopuPackage)
	}
	data := readTarFile(t, filepath.Join(dir, lines[len(lines)-1]), kokopuChess960)

	c := roundTripFile(t, "kokopu chess960", data)
	if want := countGames(data); c.games != want || c.games == 0 {
		t.Errorf("read %d games, the file has %d", c.games, want)
	}
	r := NewReader(bytes.NewReader(data), ReaderOptions{})
	for {
		g, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if g.Start.Variant() != "chess960" {
			t.Errorf("game %d (Variant %q): variant %s", g.Index, g.Tag("Variant"), g.Start.Variant())
		}
		if s := g.String(); !strings.Contains(s, "[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"") {
			t.Errorf("game %d written without Chess960 set-up tags:\n%s", g.Index, s)
		}
	}
	t.Logf("%s: %d Chess960 games, %d plies", kokopuPackage, c.games, c.plies)
}

// readTarFile returns the file called name from the gzipped tar at path.
func readTarFile(t *testing.T, path, name string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			t.Fatalf("%s has no %s", path, name)
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Name == name {
			data, err := io.ReadAll(tr)
			if err != nil {
				t.Fatal(err)
			}
			return data
		}
	}
}
