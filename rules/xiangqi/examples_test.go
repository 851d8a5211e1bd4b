package xiangqi

import "testing"

// TestNotation001Examples: every move token the law prints as a syntax
// example (the worked examples of Art. 11.2 and the Art. 24
// figures) reads to the ICCS move it means, in a position where it is
// legal, and is written back the same way. The figures' positions are not
// in the source, so each token gets a position of its own.
func TestNotation001Examples(t *testing.T) {
	tests := []struct {
		art, fen, vn, iccs string
	}{
		{"11.2 / §10.5 1)", StartFEN, "P2-5", "h2e2"},
		{"§10.5 1)", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1", "M2.3", "b9c7"},
		{"§10.5 2)", "r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2", "M8.7", "b0c2"},
		{"§10.5 2)", "r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C4/9/R1BAKABNR b - - 3 2", "P8-5", "h7e7"},
		{"24 Fig. 1 advance", "3k5/9/9/9/9/7R1/9/9/9/4K4 w - - 0 1", "X2.1", "h4h5"},
		{"24 Fig. 1 retreat", "3k5/9/9/9/9/7R1/9/9/9/4K4 w - - 0 1", "X2/1", "h4h3"},
		{"24 Fig. 13 long retreat", "4k4/7R1/9/9/9/9/9/9/9/3K5 w - - 0 1", "X2/8", "h8h0"},
		{"24 Fig. 2 traverse", "3k5/9/9/9/9/5R3/9/9/9/4K4 w - - 0 1", "X4-5", "f4e4"},
		{"24 Fig. 6 elephant advances", "3k5/9/9/9/9/9/9/9/9/2B1K4 w - - 0 1", "T7.9", "c0a2"},
		{"24 Fig. 6 elephant retreats", "3k5/9/9/9/9/9/9/B8/9/4K4 w - - 0 1", "T9/7", "a2c0"},
		{"24 Fig. 7 horse advances", "3k5/9/9/9/9/9/9/3N5/9/4K4 w - - 0 1", "M6.7", "d2c4"},
		{"24 Fig. 7 horse retreats", "3k5/9/9/9/9/2N6/9/9/9/4K4 w - - 0 1", "M7/6", "c4d2"},
		{"24 Fig. 14 advisor retreats", "4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1", "S5/4", "e1f0"},
		{"24 Fig. 14 advisor advances", "4k4/9/9/9/9/9/9/9/9/3K1A3 w - - 0 1", "S4.5", "f0e1"},
		{"24 Fig. 2 general traverses", "5k3/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "Tg5-6", "e0d0"},
		{"24 Fig. 1 general advances", "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "Tg6.1", "d0d1"},
		{"24 Fig. 101 front chariot", "3k5/9/9/9/R8/9/9/R8/9/4K4 w - - 0 1", "Xt.1", "a5a6"},
		{"11.2 12) front cannon retreats", "4k4/9/9/9/9/C8/9/C8/9/3K5 w - - 0 1", "Pt/1", "a4a3"},
		{"11.2 12) middle soldier", "4k4/9/9/9/4p4/9/4p4/9/4p4/3K5 b - - 0 1", "Bg.1", "e3e2"},
		{"11.2 13) rear chariot", "3k5/9/9/9/R8/9/9/R8/9/4K4 w - - 0 1", "Xs.2", "a2a4"},
		{"11.2 13) front soldier traverses", "4k4/9/9/9/3p5/3p5/9/9/9/3K5 b - - 0 1", "Bt-3", "d4c4"},
	}
	for _, tc := range tests {
		t.Run(tc.art+" "+tc.vn, func(t *testing.T) {
			p := mustPos(t, tc.fen)
			m, err := p.ParseMove(tc.vn)
			if err != nil {
				t.Fatalf("ParseMove(%q): %v", tc.vn, err)
			}
			if got := p.UCI(m); got != tc.iccs {
				t.Fatalf("%q is %s, want %s", tc.vn, got, tc.iccs)
			}
			if got := p.SAN(m); got != tc.vn {
				t.Errorf("%s written %q, want %q", tc.iccs, got, tc.vn)
			}
			back, err := p.ParseMoveDialect(p.Notation(m, DialectWXF), DialectWXF)
			if err != nil || back != m {
				t.Errorf("WXF %q reads back as %v, %v", p.Notation(m, DialectWXF), back, err)
			}
		})
	}
}
