package xiangqi

import (
	"slices"
	"strings"
	"testing"
)

// TestPieceMoves lists, for one piece in a set-up position, every legal
// move (Art. 4.3, 5).
func TestPieceMoves(t *testing.T) {
	tests := []struct {
		name, fen, from string
		want            string // space-separated ICCS, any order
	}{
		// General: one orthogonal step inside the palace; d1 would face
		// the black general on the open d-file.
		{"general centre, flying general", "3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1", "e1", "e1e0 e1e2 e1f1"},
		{"general corner stays in palace", "5k3/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "d0", "d0d1 d0e0"},
		{"general may not step into check", "5k3/9/9/9/9/9/9/9/9/3K1r3 w - - 0 1", "d0", "d0d1"},
		{"general captures in palace", "5k3/9/9/9/9/9/9/9/3p5/3K5 w - - 0 1", "d0", "d0d1 d0e0"},
		{"black general", "9/4k4/9/9/9/9/9/9/9/3K5 b - - 0 1", "e8", "e8e7 e8e9 e8f8"},
		// Advisor: one diagonal step inside the palace.
		{"advisor centre", "5k3/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1", "e1", "e1d2 e1f0 e1f2"},
		{"advisor corner", "5k3/9/9/9/9/9/9/9/9/3AK4 w - - 0 1", "d0", "d0e1"},
		{"black advisor", "3k5/4a4/9/9/9/9/9/9/9/5K3 b - - 0 1", "e8", "e8d7 e8f7 e8f9"},
		// Elephant: two diagonal steps, blocked at the eye, never across the river.
		{"elephant eye", "5k3/9/9/9/9/9/3P5/4B4/9/3K5 w - - 0 1", "e2", "e2c0 e2g0 e2g4"},
		{"elephant at the river", "5k3/9/9/9/9/2B6/9/9/9/3K5 w - - 0 1", "c4", "c4a2 c4e2"},
		{"black elephant at the river", "3k5/9/9/9/2b6/9/9/9/9/5K3 b - - 0 1", "c5", "c5a7 c5e7"},
		// Horse: blocked at the leg (either colour); may cross the river.
		{"horse legs", "5k3/9/9/9/4p4/4NR3/9/9/9/3K5 w - - 0 1", "e4", "e4c3 e4c5 e4d2 e4f2"},
		{"horse crosses river and captures", "5k3/9/9/2r6/9/3N5/9/9/9/3K5 w - - 0 1", "d4", "d4b3 d4b5 d4c2 d4c6 d4e2 d4e6 d4f3 d4f5"},
		// Chariot: rays, capture of the first enemy piece.
		{"chariot", "5k3/9/n8/9/R1P6/9/9/9/9/3K5 w - - 0 1", "a5", "a5a0 a5a1 a5a2 a5a3 a5a4 a5a6 a5a7 a5b5"},
		// Cannon: moves like a chariot, captures over exactly one screen.
		{"cannon one screen", "5k3/1n7/9/9/1p7/9/9/1C7/9/3K5 w - - 0 1", "b2", "b2a2 b2b0 b2b1 b2b3 b2b4 b2b8 b2c2 b2d2 b2e2 b2f2 b2g2 b2h2 b2i2"},
		{"cannon two screens", "5k3/1n7/9/1p7/1p7/9/9/1C7/9/3K5 w - - 0 1", "b2", "b2a2 b2b0 b2b1 b2b3 b2b4 b2b6 b2c2 b2d2 b2e2 b2f2 b2g2 b2h2 b2i2"},
		{"cannon no screen", "5k3/9/9/9/9/9/9/1Cp6/9/3K5 w - - 0 1", "b2", "b2a2 b2b0 b2b1 b2b3 b2b4 b2b5 b2b6 b2b7 b2b8 b2b9"},
		{"cannon own screen", "5k3/9/9/9/9/9/9/1CP3r2/9/3K5 w - - 0 1", "b2", "b2a2 b2b0 b2b1 b2b3 b2b4 b2b5 b2b6 b2b7 b2b8 b2b9 b2g2"},
		// Soldier: forward only before the river, also sideways after it.
		{"soldier before river", "5k3/9/9/9/9/9/2P6/9/9/3K5 w - - 0 1", "c3", "c3c4"},
		{"soldier at river bank", "5k3/9/9/9/9/2P6/9/9/9/3K5 w - - 0 1", "c4", "c4c5"},
		{"soldier crossed", "5k3/9/9/9/2P6/9/9/9/9/3K5 w - - 0 1", "c5", "c5b5 c5c6 c5d5"},
		{"soldier last rank", "2P2k3/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "c9", "c9b9 c9d9"},
		{"black soldier before river", "5k3/9/9/2p6/9/9/9/9/9/3K5 b - - 0 1", "c6", "c6c5"},
		{"black soldier crossed", "5k3/9/9/9/9/2p6/9/9/9/3K5 b - - 0 1", "c4", "c4b4 c4c3 c4d4"},
		// A piece between the generals is pinned by the flying-general rule.
		{"pinned by facing generals", "4k4/9/9/9/9/9/4N4/9/9/4K4 w - - 0 1", "e3", ""},
		{"pinned piece moves along the file", "4k4/9/9/9/9/9/4R4/9/9/4K4 w - - 0 1", "e3", "e3e1 e3e2 e3e4 e3e5 e3e6 e3e7 e3e8"},
		// Generals facing (an illegal move stood): only moves that end it.
		{"generals facing", "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "", "e0d0 e0f0"},
		{"generals facing, a shield may step in", "4k4/9/9/9/9/9/9/9/R8/4K4 w - - 0 1", "", "a1e1 e0d0 e0f0"},
		// In check: only moves that parry.
		{"answer check", "3k5/9/9/9/9/4r4/9/R8/9/4K4 w - - 0 1", "", "a2e2 e0f0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPos(t, tc.fen)
			got := legalICCS(p, tc.from)
			want := strings.Fields(tc.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("moves from %s:\n got %v\nwant %v", tc.from, got, want)
			}
		})
	}
}
