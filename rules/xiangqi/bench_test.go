package xiangqi

import (
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
)

// benchPerft runs perft(depth) of fen, failing on a wrong count, and
// reports nodes per second.
func benchPerft(b *testing.B, fen string, depth int, want uint64) {
	p := mustPos(b, fen)
	var n uint64
	for b.Loop() {
		n = p.Perft(depth)
		if n != want {
			b.Fatalf("perft(%d) = %d, want %d", depth, n, want)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mnodes/s")
}

// BenchmarkPerft: start position d4 and the CPW positions at d4.
func BenchmarkPerft(b *testing.B) {
	for _, tc := range perftCases {
		if len(tc.counts) < 4 {
			continue
		}
		b.Run(tc.name+"/d4", func(b *testing.B) { benchPerft(b, tc.fen, 4, tc.counts[3]) })
	}
}

// BenchmarkPerftDeep checks the published d5 counts (about 250 M nodes, a few seconds per iteration). The start
// position's d6 (5 392 831 844) takes minutes and is not run here.
func BenchmarkPerftDeep(b *testing.B) {
	for _, tc := range perftCases {
		if len(tc.counts) < 5 {
			continue
		}
		b.Run(tc.name+"/d5", func(b *testing.B) { benchPerft(b, tc.fen, 5, tc.counts[4]) })
	}
}

func BenchmarkLegalMoves(b *testing.B) {
	p := mustPos(b, perftCases[1].fen)
	buf := make([]rules.Move, 0, maxMoves)
	for b.Loop() {
		buf = p.LegalMoves(buf[:0])
	}
}

func BenchmarkPlay(b *testing.B) {
	p := StartPosition()
	m := rules.Move{From: 16 + 9, To: 22}
	if _, err := p.Play(m); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := p.Play(m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkNotation(b *testing.B) {
	p := StartPosition()
	ms := p.LegalMoves(nil)
	for b.Loop() {
		for _, m := range ms {
			s := p.SAN(m)
			if _, err := p.ParseMove(s); err != nil {
				b.Fatal(err)
			}
		}
	}
}
