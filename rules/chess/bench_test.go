package chess

import (
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
)

func benchPerft(b *testing.B, fen string, v Variant, depth int) {
	p, err := NewPosition(v, fen)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var nodes uint64
	for i := 0; i < b.N; i++ {
		nodes += p.Perft(depth)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkPerftStart is perft(5) of the start position (4865609 leaves,
// bulk-counted): the engine's headline speed in nodes/s.
func BenchmarkPerftStart(b *testing.B) {
	benchPerft(b, Standard.StartFEN(), Standard, 5)
}

// BenchmarkPerftKiwipete is perft(4) of CPW position 2.
func BenchmarkPerftKiwipete(b *testing.B) {
	benchPerft(b, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -", Standard, 4)
}

// BenchmarkPerftCrazyhouse is perft(3) of a crazyhouse middlegame.
func BenchmarkPerftCrazyhouse(b *testing.B) {
	benchPerft(b, "2rn1b1r/1pp2n1p/B1PBk1pP/5p1P/P5p1/2P2RP1/RP1QNP2/1NBK4[QPp] w - -", Crazyhouse, 3)
}

// BenchmarkLegalMoves measures rules.Position.LegalMoves into a reused
// slice: it must not allocate.
func BenchmarkLegalMoves(b *testing.B) {
	p, _ := NewPosition(Standard, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -")
	buf := make([]rules.Move, 0, 256)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf = p.LegalMoves(buf[:0])
	}
}

// BenchmarkSAN formats every legal move of Kiwipete as SAN.
func BenchmarkSAN(b *testing.B) {
	p, _ := NewPosition(Standard, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -")
	ms := p.LegalMoves(nil)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for _, m := range ms {
			_ = p.SAN(m)
		}
	}
	b.ReportMetric(float64(b.N*len(ms))/b.Elapsed().Seconds(), "moves/s")
}

// BenchmarkParseSAN parses the SAN of every legal move of Kiwipete.
func BenchmarkParseSAN(b *testing.B) {
	p, _ := NewPosition(Standard, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -")
	var sans []string
	for _, m := range p.LegalMoves(nil) {
		sans = append(sans, p.SAN(m))
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for _, s := range sans {
			if _, err := p.ParseMove(s); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N*len(sans))/b.Elapsed().Seconds(), "moves/s")
}

// BenchmarkPlay measures rules.Position.Play (validation and copy).
func BenchmarkPlay(b *testing.B) {
	p := StartPosition(Standard)
	m, _ := p.ParseMove("e4")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := p.Play(m); err != nil {
			b.Fatal(err)
		}
	}
}
