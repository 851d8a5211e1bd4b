package chess

import (
	"fmt"
	"testing"
)

// Published perft counts (Chess Programming Wiki, Fairy-Stockfish
// tests/perft.sh, python-chess, Ethereal fischer.epd).
var perftCases = []struct {
	name  string
	v     Variant
	fen   string
	nodes []uint64 // depth 1, 2, …
}{
	{"start", Standard, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", []uint64{20, 400, 8902, 197281, 4865609}},
	{"kiwipete", Standard, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -", []uint64{48, 2039, 97862, 4085603}},
	{"cpw3", Standard, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -", []uint64{14, 191, 2812, 43238, 674624}},
	{"cpw4", Standard, "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", []uint64{6, 264, 9467, 422333, 15833292}},
	{"cpw4-mirror", Standard, "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", []uint64{6, 264, 9467, 422333}},
	{"cpw5", Standard, "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", []uint64{44, 1486, 62379, 2103487}},
	{"cpw6", Standard, "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", []uint64{46, 2079, 89890, 3894594}},
	{"xfen-00", Chess960, "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq -", []uint64{23, 522, 12333, 285754}},
	{"hside-rook-blocks-aside-castling", Chess960, "4rrk1/pbbp2p1/1ppnp3/3n1pqp/3N1PQP/1PPNP3/PBBP2P1/4RRK1 w Ff -", []uint64{42, 1743, 71908}},
	{"960-1", Chess960, "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", []uint64{21, 528, 12189, 326672, 8146062}},
	{"960-2", Chess960, "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9", []uint64{21, 807, 18002, 667366}},
	{"960-3", Chess960, "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9", []uint64{20, 479, 10471, 273318}},
	{"960-4", Chess960, "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9", []uint64{22, 593, 13440, 382958}},
	{"960-5", Chess960, "1nbbnrkr/p1p1ppp1/3p4/1p3P1p/3Pq2P/8/PPP1P1P1/QNBBNRKR w HFhf - 0 9", []uint64{28, 1120, 31058}},
	{"960-6", Chess960, "qnbnr1kr/ppp1b1pp/4p3/3p1p2/8/2NPP3/PPP1BPPP/QNB1R1KR w HEhe - 1 9", []uint64{29, 899, 26578}},
	{"960-7", Chess960, "q1bnrkr1/ppppp2p/2n2p2/4b1p1/2NP4/8/PPP1PPPP/QNB1RRKB w ge - 1 9", []uint64{30, 860, 24566}},
	{"960-8", Chess960, "qbn1brkr/ppp1p1p1/2n4p/3p1p2/P7/6PP/QPPPPP2/1BNNBRKR w HFhf - 0 9", []uint64{25, 635, 17054}},
	{"960-9", Chess960, "qnnbbrkr/1p2ppp1/2pp3p/p7/1P5P/2NP4/P1P1PPP1/Q1NBBRKR w HFhf - 0 9", []uint64{24, 572, 15243}},
	{"960-10", Chess960, "qn1rbbkr/ppp2p1p/1n1pp1p1/8/3P4/P6P/1PP1PPPK/QNNRBB1R w hd - 2 9", []uint64{28, 811, 23175}},
	{"zh-start", Crazyhouse, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1", []uint64{20, 400, 8902, 197281}},
	{"zh-all-drop-types", Crazyhouse, "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - -", []uint64{301, 75353}},
	{"zh-drops", Crazyhouse, "2k5/8/8/8/8/8/8/4K3[Qn] w - -", []uint64{67, 3083, 88634, 932554}},
	{"zh-drops-9th-rank", Crazyhouse, "2k5/8/8/8/8/8/8/4K3/Qn w - - 0 1", []uint64{67, 3083, 88634}},
	{"zh-middlegame", Crazyhouse, "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq -", []uint64{42, 1347, 58057, 2083382}},
	{"zh-promoted", Crazyhouse, "4k3/1Q~6/8/8/4b3/8/Kpp5/8/ b - -", []uint64{20, 360, 5445, 132758}},
	{"zh-midgame", Crazyhouse, "2rn1b1r/1pp2n1p/B1PBk1pP/5p1P/P5p1/2P2RP1/RP1QNP2/1NBK4[QPp] w - -", []uint64{99, 3932, 314782}},
	{"zh-d5", Crazyhouse, "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR[] w KQkq d6 0 2", []uint64{31, 866, 28137, 849858}},
	{"zh-crazyhouse.js", Crazyhouse, "rnbqkbnr/pppp1ppp/8/8/3pP3/8/PPP2PPP/RNBQKBNR/p w KQkq - 4 3", []uint64{0, 0, 88606}},
}

func TestPerft(t *testing.T) {
	for _, tc := range perftCases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := NewPosition(tc.v, tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			for d, want := range tc.nodes {
				if want == 0 {
					continue
				}
				if got := p.Perft(d + 1); got != want {
					t.Errorf("perft(%d) = %d, want %d", d+1, got, want)
					for _, e := range p.Divide(d + 1) {
						fmt.Println(e.UCI, e.Nodes)
					}
					return
				}
			}
		})
	}
}
