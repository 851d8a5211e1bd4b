package xiangqi

import (
	"fmt"
	"testing"
)

// perftCases are the published counts (CPW
// "Chinese Chess Perft Results" and Fairy-Stockfish tests/perft.sh).
var perftCases = []struct {
	name   string
	fen    string
	counts []uint64 // depth 1, 2, …
}{
	{"start", StartFEN, []uint64{44, 1920, 79666, 3290240, 133312995, 5392831844}},
	{"pos-2", "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1", []uint64{38, 1128, 43929, 1339047, 53112976}},
	{"pos-3", "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1", []uint64{7, 281, 8620, 326201, 10369923}},
	{"pos-4", "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1", []uint64{25, 424, 9850, 202884, 4739553}},
	{"pos-5", "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1", []uint64{28, 516, 14808, 395483, 11842230}},
	{"pos-6", "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1", []uint64{21, 364, 7626, 162837, 3500505}},
	{"pos-7", "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1", []uint64{28, 222, 6241, 64971, 1914306}},
	{"pos-8", "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1", []uint64{23, 345, 8124, 149272, 3513104}},
	{"pos-9", "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w - - 0 1", []uint64{21, 195, 3883, 48060, 933096}},
	{"pos-10", "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1", []uint64{30, 830, 22787, 649866, 17920736}},
	{"pos-11", "CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3 w - - 0 1", []uint64{19, 583, 11714, 376467, 8148177}},
	{"fsf-1", "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1", []uint64{0, 0, 0, 4485547}},
	{"fsf-2", "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1", []uint64{0, 0, 0, 92741}},
}

// TestPerftShallow checks every published count up to 250 000
// leaves, which keeps the suite to seconds under -race; the deeper counts
// run in BenchmarkPerftDeep.
func TestPerftShallow(t *testing.T) {
	const maxNodes = 250000
	for _, tc := range perftCases {
		p, err := NewPosition(tc.fen)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for i, want := range tc.counts {
			if want == 0 || want > maxNodes {
				continue
			}
			t.Run(fmt.Sprintf("%s/d%d", tc.name, i+1), func(t *testing.T) {
				if got := p.Perft(i + 1); got != want {
					t.Errorf("perft(%d) = %d, want %d", i+1, got, want)
				}
			})
		}
	}
}
