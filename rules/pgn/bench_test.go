package pgn

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// benchCorpus returns the first n games of the corpus file name as one
// PGN text and its number of main-line plies.
func benchCorpus(b *testing.B, name string, n int) ([]byte, int) {
	b.Helper()
	data, err := os.ReadFile(filepath.Join(corpusDir(b), name))
	if err != nil {
		b.Fatal(err)
	}
	r := NewReader(bytes.NewReader(data), ReaderOptions{})
	plies := 0
	for i := 0; i < n; i++ {
		g, err := r.Next()
		if err != nil {
			b.Fatalf("game %d: %v", i+1, err)
		}
		plies += len(g.Moves)
	}
	return firstGames(data, n), plies
}

func benchRead(b *testing.B, name string, games int, opts ReaderOptions) {
	data, plies := benchCorpus(b, name, games)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := NewReader(bytes.NewReader(data), opts)
		n := 0
		for {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != games {
			b.Fatalf("read %d games, want %d", n, games)
		}
	}
	b.ReportMetric(float64(plies)*float64(b.N)/b.Elapsed().Seconds(), "plies/s")
}

// BenchmarkReadPGN reads 200 Lichess games with [%clk] on every move and
// engine-annotation variations, resolving every move (the default).
func BenchmarkReadPGN(b *testing.B) { benchRead(b, "big.pgn", 200, ReaderOptions{}) }

// BenchmarkReadPGNNoComments reads 500 Lichess games without comments.
func BenchmarkReadPGNNoComments(b *testing.B) { benchRead(b, "big_big.pgn", 500, ReaderOptions{}) }

// BenchmarkReadPGNParseOnly reads the games of BenchmarkReadPGN without
// resolving moves.
func BenchmarkReadPGNParseOnly(b *testing.B) {
	benchRead(b, "big.pgn", 200, ReaderOptions{ParseOnly: true})
}

// BenchmarkWritePGN writes the games of BenchmarkReadPGN.
func BenchmarkWritePGN(b *testing.B) {
	data, plies := benchCorpus(b, "big.pgn", 200)
	var games []*Game
	r := NewReader(bytes.NewReader(data), ReaderOptions{})
	for {
		g, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
		games = append(games, g)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, g := range games {
			if err := Write(io.Discard, g, WriteOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(plies)*float64(b.N)/b.Elapsed().Seconds(), "plies/s")
}
