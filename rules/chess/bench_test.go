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

// BenchmarkPerftDeep runs the deeper published counts of
// (Chess Programming Wiki, Fairy-Stockfish) once per iteration and fails on a wrong
// count; it reports nodes/s per position.
func BenchmarkPerftDeep(b *testing.B) {
	cases := []struct {
		name  string
		v     Variant
		fen   string
		depth int
		nodes uint64
	}{
		{"start-d6", Standard, Standard.StartFEN(), 6, 119060324},
		{"kiwipete-d5", Standard, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -", 5, 193690690},
		{"cpw3-d6", Standard, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -", 6, 11030083},
		{"cpw5-d5", Standard, "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 5, 89941194},
		{"cpw6-d5", Standard, "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 5, 164075551},
		{"960-2-d5", Chess960, "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9", 5, 16253601},
		{"zh-start-d5", Crazyhouse, Crazyhouse.StartFEN(), 5, 4888832},
		{"zh-midgame-d4", Crazyhouse, "2rn1b1r/1pp2n1p/B1PBk1pP/5p1P/P5p1/2P2RP1/RP1QNP2/1NBK4[QPp] w - -", 4, 10118606},
		{"zh-promoted-d4", Crazyhouse, "4k3/1Q~6/8/8/4b3/8/Kpp5/8/ b - -", 4, 132758},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			p, err := NewPosition(c.v, c.fen)
			if err != nil {
				b.Fatal(err)
			}
			for i := 0; i < b.N; i++ {
				if got := p.Perft(c.depth); got != c.nodes {
					b.Fatalf("perft(%d) = %d, want %d", c.depth, got, c.nodes)
				}
			}
			b.ReportMetric(float64(c.nodes)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}
