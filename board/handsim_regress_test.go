package board_test

import (
	"math/rand/v2"
	"testing"

	"github.com/dgtbridge/dgtbridge/internal/handsim"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// simSoakGame replays game i of the soak (TestHandsimSoak's seeds and
// options).
func simSoakGame(t *testing.T, i int) (handsim.Game, simOutcome) {
	t.Helper()
	r := rand.New(rand.NewPCG(uint64(i), 7))
	o := handsim.Options{Start: simStart, Plies: 60, Pace: handsim.Pace(i % 3), Noise: i%4 == 0, Bursts: i%5 == 0}
	g := handsim.Play(r, o)
	return g, followSim(t, g, false)
}

// wantReread checks that the record ends exact, that it was reread from
// an earlier ply, and that the arbiter heard of it (record_corrected).
func wantReread(t *testing.T, out simOutcome) {
	t.Helper()
	if !out.exact() {
		t.Fatalf("%s", out)
	}
	if !out.reread() {
		t.Fatalf("the record is exact but was never reread: the case no longer tests rereading")
	}
	n := 0
	for _, a := range out.alerts {
		if a.Kind == game.KindRecordCorrected && a.Severity == game.Warn {
			n++
		}
	}
	if n == 0 {
		t.Fatalf("no record_corrected warning for the reread record")
	}
}

// TestRereadBlitzRecapture: a pawn moved to c4 and was taken 100–300 ms
// after the press, before the board's scan saw it there; the record read
// one wrong move (cxd4) and the board then showed the true game. Once a
// press came, the line from the ply before (c4 Qxc4+) explains the board:
// the record is reread.
func TestRereadBlitzRecapture(t *testing.T) {
	_, out := simSoakGame(t, 121)
	wantReread(t, out)
}

// TestRereadRecaptureOrder: a queen's move and its capture, then a king's
// move: four plies reach the same placement in two orders (…axb6 g4 Kf7
// and …Kf7 g4 axb6); the line that passes through the placements the board
// showed is the one played.
func TestRereadRecaptureOrder(t *testing.T) {
	_, out := simSoakGame(t, 2722)
	wantReread(t, out)
}

// TestRereadSlideInABurst: a rook slid a8–b8–d8 in blitz, the board's
// reports of the next seconds handed over in one burst: the rest on b8
// was completed as a move, the rest of the slide read as a second rook
// move. The shortest line to what the board showed next (Rd8 Be4 a6)
// replaces both.
func TestRereadSlideInABurst(t *testing.T) {
	_, out := simSoakGame(t, 2725)
	wantReread(t, out)
}

// TestRereadSixPlies: a knight's move taken at once (Nc6 Bxc6 dxc6 in 0.7
// s) was read as Nxb5; nothing explained the board for six plies, until a
// placement did: the six are reread.
func TestRereadSixPlies(t *testing.T) {
	_, out := simSoakGame(t, 640)
	wantReread(t, out)
}

// TestDumpsOnlySlideIsOneMove: a slow game read by whole-board reads once
// a second, no clock: a bishop slid d2–c3–b4 was read resting on c3, and
// taken for two moves (Bc3 … Bb4) when every read counted; only positions
// that stood for two reads are moves now.
func TestDumpsOnlySlideIsOneMove(t *testing.T) {
	g := handsim.Play(rand.New(rand.NewPCG(3, 11)), handsim.Options{Start: simStart, Plies: 40, Pace: handsim.Slow, DumpsOnly: true})
	if out := followSim(t, g, true); !out.exact() {
		t.Fatalf("%s", out)
	}
}
