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
	g := soakGame(i)
	return g, followSim(t, g, false)
}

// simSoakGameReread is simSoakGame with the tracker's rereading on.
func simSoakGameReread(t *testing.T, i int) simOutcome {
	t.Helper()
	return followSimWith(t, soakGame(i), false, true)
}

// soakGame is game i of the soak.
func soakGame(i int) handsim.Game {
	r := rand.New(rand.NewPCG(uint64(i), 7))
	return handsim.Play(r, handsim.Options{Start: simStart, Plies: 60, Pace: handsim.Pace(i % 3), Noise: i%4 == 0, Bursts: i%5 == 0})
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

// TestBlitzRecaptureReadAtOnce: a pawn moved to c4 and was taken 100–300
// ms after the press, before the board's scan saw it there; the record
// once read one wrong move (cxd4), and was reread (c4 Qxc4+) when a press
// came. The pawn was reported on c4 before the press and lifted off it
// after: the move that put it there stood, and it is read at once.
func TestBlitzRecaptureReadAtOnce(t *testing.T) {
	wantAtOnce(t, simSoakGameReread(t, 121))
}

// TestRereadRecaptureOrder: a queen's move and its capture, then a king's
// move: four plies reach the same placement in two orders (…axb6 g4 Kf7
// and …Kf7 g4 axb6); the line that passes through the placements the board
// showed is the one played.
func TestRereadRecaptureOrder(t *testing.T) {
	wantReread(t, simSoakGameReread(t, 2722))
}

// TestSlideInABurst: a rook slid a8–b8–d8 in blitz, the board's reports
// of the next seconds handed over in one burst: the rest on b8 was once
// completed as a move and the rest of the slide read as a second rook
// move (then reread from Rd8 Be4 a6). A rest replaced by a shorter
// explanation is no move: the record is right at once.
func TestSlideInABurst(t *testing.T) {
	if _, out := simSoakGame(t, 2725); !out.exact() {
		t.Fatalf("%s", out)
	}
}

// TestKnightTakenAtOnceReadAtOnce: a knight's move taken at once (Nc6
// Bxc6 dxc6 in 0.7 s) was once read as Nxb5, and nothing explained the
// board for six plies, until a placement did and the six were reread. The
// knight was reported on c6 before the press and lifted off it after: it
// is read at once.
func TestKnightTakenAtOnceReadAtOnce(t *testing.T) {
	wantAtOnce(t, simSoakGameReread(t, 640))
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

// wantAtOnce checks that the record is exact, was never reread, and that
// the arbiter heard no crit or warn alert (a move read right as it came).
func wantAtOnce(t *testing.T, out simOutcome) {
	t.Helper()
	if !out.exact() {
		t.Fatalf("%s", out)
	}
	if out.reread() {
		t.Fatalf("the record is exact but was reread: a move was misread first\n%s", out)
	}
	if f := out.falseAlerts(); len(f) > 0 {
		t.Fatalf("alerts %v on a record read right at once\n%s", f, out)
	}
}

// replayRand replays choices a failing property case drew (rapid's log
// of the shrunk case), 0 after them.
type replayRand struct {
	vals []int
	i    int
}

func (r *replayRand) IntN(n int) int {
	if r.i >= len(r.vals) {
		return 0
	}
	v := r.vals[r.i]
	r.i++
	return min(v, n-1)
}

// TestBlitzSlideRestThenReply: the shrunk case of TestHandsimGuarantee
// (8 plies at blitz pace): a bishop slid f1–d3–c4, resting on d3, and the
// reply came 100–300 ms after the press; the rest on d3 must not become a
// move of the record (Bd3 … Bc4), nor cost the next move.
func TestBlitzSlideRestThenReply(t *testing.T) {
	r := &replayRand{vals: []int{16, 1, 0, 1, 55, 47, 2, 48, 0, 91, 1, 14, 71, 1, 0, 0, 1, 3, 12, 50, 8, 2, 12, 1, 1, 73, 11, 280, 1, 260,
		15, 131, 20, 19, 18, 1, 5, 3, 4, 1, 43, 7, 1, 0, 6, 79, 15, 0, 110, 1, 0, 1, 73, 13, 42, 34, 0, 7, 45, 8, 0, 99, 9, 1, 66, 0,
		49, 99, 2, 0, 16, 3, 130, 0, 1, 3, 0, 2, 8, 177, 51, 8, 74, 3}}
	g := handsim.Play(r, handsim.Options{Start: simStart, Plies: 8, Pace: handsim.Blitz})
	if out := followSim(t, g, false); out.stuck() {
		t.Fatalf("%s", out)
	}
}

// TestKnightRecaptureReadAtOnce: blitz, a knight's move taken at once
// (Nd4 Rxd4, the recapture 100–300 ms after the press) was once read as
// Nxd6. When the board showed Kc3 next, the shortest line from an earlier
// ply was Rd1 Nd4 Rxd4 Kc3 from four plies back: it dropped the rook's
// detour (Rh6 Kd2 Rd6+) that the board had shown and the presses had
// confirmed, and the record ended silently wrong, until the rereading
// weighed the lines by the presses. The knight was reported on d4 before
// the press and lifted off it after: it is read at once now.
func TestKnightRecaptureReadAtOnce(t *testing.T) {
	wantAtOnce(t, simSoakGameReread(t, 994))
}

// TestRereadKeepsPressedPlies: blitz, a rook's move taken at once (Rd6
// Bxd6, the recapture 100–300 ms after the press) was read as Rxe7+. When
// the board showed Ba6 next, the shortest line from an earlier ply was
// Kf7 Rd6 Bxd6 Ba6 from four plies back: it dropped Kf8 and Rd7 (the
// king went to f7 in two steps, the rook to d6 in two), which the board
// had shown and the presses had confirmed, and the record ended wrong. The line whose length fits
// the presses heard since its start (Rd6 Bxd6 Ba6 for Rxe7+) is the one
// played. (The game of the soak this was first found in, 994, is now read
// right without rereading: its press, due between two ticks, was taken
// for a burst.)
func TestRereadKeepsPressedPlies(t *testing.T) {
	wantReread(t, simSoakGameReread(t, 4972))
}

// TestRereadTwoLiftsReadAsCaptures: blitz, Rxh1 Rxh1 with the recapture
// before the scan saw the black rook on h1: the board showed f1 and h1
// empty, which the record read as two captures on d1 (Rxd1 Rxd1), both
// presses completing them. Without rereading, the next position was read
// forward as three plies (Ke7 Rh1 Kd8 for Kd8) and the record stayed two
// plies long with no alert; the rereading finds Rxh1 Rxh1 from the ply
// before, which fits the two presses.
func TestRereadTwoLiftsReadAsCaptures(t *testing.T) {
	wantReread(t, simSoakGameReread(t, 247))
	if out := followSimWith(t, soakGame(247), false, false); out.exact() {
		t.Fatalf("without rereading the record is exact: the case no longer tests rereading")
	}
}

// rapidReplay replays the choices rapid logged for a shrunk case of the
// property tests: rapidRand draws nothing for a single choice, so
// neither does the replay; 0 after the log.
type rapidReplay struct {
	vals []int
	i    int
}

func (r *rapidReplay) IntN(n int) int {
	if n <= 1 || r.i >= len(r.vals) {
		return 0
	}
	v := r.vals[r.i]
	r.i++
	return min(v, n-1)
}

// TestKnightTakenAtOnce: the shrunk case of TestHandsimGuarantee with
// the rereading off (8 plies at blitz pace, with noise): Nxa5 was taken by
// bxa5 116 ms after White's press; the board showed the knight on a5
// before the press (which may be a slide's rest), and the scan that
// followed the press saw bxa5 already, the knight lifted off a5. The
// press read Nxb6 (the opponent taking the knight on b6) and the game
// ended one piece short of the record with only a displaced_pieces
// warning, rereading or not. The knight lifted off a5 after the press is
// the opponent's hand taking it: the move that put it there stood.
func TestKnightTakenAtOnce(t *testing.T) {
	g := handsim.Play(&rapidReplay{vals: []int{0, 10, 2, 5, 35, 110, 1, 1, 279, 7, 113, 5, 0, 24, 1, 32, 1, 55, 80, 1, 3, 11, 0, 49,
		379, 99, 8, 1700, 60, 0, 58, 368, 3, 89, 1, 417, 7, 2, 40, 25, 0, 0, 3, 2, 3, 14, 5, 35, 2, 53, 22, 57, 36, 1, 1328, 0, 0,
		46, 0, 4, 7, 328, 95, 39, 1, 1, 62, 14, 47, 0, 1, 2, 99, 16, 14, 60, 6, 1, 25, 0}},
		handsim.Options{Start: simStart, Plies: 8, Pace: handsim.Blitz, Noise: true})
	for _, reread := range []bool{false, true} {
		if out := followSimWith(t, g, false, reread); !out.exact() {
			t.Fatalf("rereading %v: %s", reread, out)
		}
	}
}

// TestSlideRestsWhilePressPending: the shrunk case of TestHandsimGuarantee
// (32 plies at slow pace): Rxh4 slid h1–h2–h3–h4, resting 250 ms on h2
// and 500 ms on h3, the black rook on h4 lifted before the rook arrived;
// the lever was pressed at the release, before the board's scan reported
// the rook on h4. The placement with the rook resting on h3 settled first,
// and was read as three plies (Rh2 Rh3+ Rxh3) for the one press; the
// record ended two plies long with no alert, rereading or not. An
// explanation with more plies than the presses and one waits for the
// scan that follows the press.
func TestSlideRestsWhilePressPending(t *testing.T) {
	g := handsim.Play(&rapidReplay{vals: []int{0, 4940, 31, 0, 5, 48, 2, 1889, 0, 2, 19, 93, 0, 61, 4, 9, 4638, 1, 10, 3, 143, 1, 56, 14, 13, 84, 4, 13, 41, 64, 1, 2,
		189, 23, 1771, 3, 14, 100, 0, 1, 1, 64, 45, 3052, 52, 1, 11, 10, 0, 1, 28, 61, 1, 55, 16, 1, 0, 0, 7, 1, 96, 6, 2, 0,
		91, 20, 26, 0, 3, 87, 2, 3, 124, 2, 1, 175, 25, 2, 50, 144, 1, 2737, 1, 6, 83, 1, 1, 13, 278, 8, 3178, 10, 1, 2, 75, 0,
		5, 133, 27, 0, 13, 102, 7, 0, 99, 3, 203, 89, 1, 47, 0, 916, 14, 2, 15, 144, 292, 7, 5000, 17, 1, 124, 1, 21, 3848, 7,
		12, 49, 29, 1, 1, 141, 46, 17, 5000, 10, 0, 182, 69, 201, 2, 0, 3860, 15, 0, 9, 1, 95, 0, 20, 4510, 33, 1, 10, 1, 1, 1,
		443, 0, 4, 37, 21, 0, 190, 1, 16, 1, 7, 58, 2, 0, 65, 65, 0, 16, 0, 10, 1, 1, 13, 0, 400, 3, 1, 253, 3, 8, 18, 3, 1,
		86, 1, 55, 8, 4, 1, 339, 38, 1, 0, 183, 5, 0, 0, 26, 3213, 91, 0, 3, 0, 95, 259, 94, 92, 1, 1767, 1, 1, 80, 1, 1, 132,
		400, 1, 1, 14, 21, 1, 187, 15, 1, 0, 325, 14, 1, 69, 2, 5, 1, 1, 1, 10, 23, 3, 0, 0, 100, 3, 0, 3, 2, 25, 2993, 98, 1,
		0, 48, 47, 210, 7, 4492, 72, 1, 119, 37, 11, 1, 56, 209, 0, 34, 280, 15, 0, 19, 28, 61, 1, 6, 1, 1, 308, 70, 239}},
		handsim.Options{Start: simStart, Plies: 32, Pace: handsim.Slow})
	for _, reread := range []bool{false, true} {
		if out := followSimWith(t, g, false, reread); !out.exact() {
			t.Fatalf("rereading %v: %s", reread, out)
		}
	}
}

// TestRereadPressBeforeItsMove: the shrunk case of TestHandsimGuarantee
// (33 plies at blitz pace, with bursts): Rxg4 slid g8–g7–g4 and was read
// as Rg7, then Rxg4 after Qc1 (a rook's slide split in two). The reports
// came in a burst, and the rereading heard White's next press (Kd2)
// before the squares of its move: counting it, the line that fitted the
// presses was one ply too long (Qe1 Rxg4 Qc1 h5 for Qc1 h5). A press whose
// scan has not reported the board yet may have no move on it: the line
// Rxg4 Qc1 h5 from the ply before fits, and is the one played.
func TestRereadPressBeforeItsMove(t *testing.T) {
	g := handsim.Play(&rapidReplay{vals: []int{2, 24, 46, 1, 110, 0, 34, 141, 12, 45, 23, 1, 1, 1, 81, 0, 1490, 75, 2, 94, 331, 66, 6, 3, 1558, 51, 1, 85, 400, 26, 115, 0, 2, 3, 10, 16, 2, 2, 1, 0, 0, 49, 16, 4, 4, 6, 84, 4, 0, 48, 329, 94, 5, 266, 38, 2, 7, 132, 62, 1, 11, 1, 1, 11, 7, 43, 2, 37, 0, 40, 13, 71, 8, 2, 22, 1, 1, 73, 0, 0, 3, 89, 391, 1, 64, 68, 1, 1672, 96, 28, 0, 110, 0, 339, 1, 0, 6, 373, 0, 3, 7, 110, 0, 2, 110, 3, 11, 0, 1, 64, 180, 28, 2, 4, 87, 0, 0, 6, 2, 1, 320, 13, 3, 74, 1, 14, 57, 18, 39, 7, 13, 1570, 38, 1, 66, 0, 92, 0, 1, 98, 1, 1, 263, 49, 1, 1, 153, 11, 1, 4, 122, 80, 1, 1550, 88, 1, 0, 6, 1, 4, 69, 31, 28, 79, 1, 1, 167, 48, 0, 0, 6, 70, 17, 43, 0, 3, 2, 0, 1, 1, 1, 3, 2, 70, 2, 314, 11, 1, 41, 3, 400, 7, 3, 3, 15, 2, 0, 374, 99, 29, 1, 1, 32, 3, 1, 2, 56, 8, 1, 0, 29, 1, 3, 34, 6, 726, 99, 0, 0, 75, 107, 97, 46, 4, 7, 192, 18, 1, 33, 15, 393, 13, 4, 13, 85, 93, 1, 12, 67, 21, 22, 10, 1, 1, 1, 2, 3, 88, 0, 27, 1, 15, 0, 43, 0, 3, 400, 11, 32, 17, 2, 0, 85, 3, 0, 61, 32, 0, 75, 31, 13, 0, 192, 16, 106, 23, 1499, 4, 12, 75, 86, 1, 21, 4, 87, 3, 1478, 95, 0, 68, 88, 8, 1, 20, 266, 3, 72, 99, 1, 10, 0, 10, 18, 2, 0, 100, 28, 2, 11, 47, 341, 23, 2, 42, 30, 532, 0, 1, 3, 6, 2, 0, 1, 0, 1, 2, 51, 0, 1, 30, 44, 0, 42, 1, 9, 7, 13, 520, 15, 1, 104, 32, 10, 1, 4, 0, 27, 10, 1, 1, 6, 33, 25, 2, 27, 4, 0, 231, 23, 134, 1, 114, 1, 348, 444, 26969, 71}},
		handsim.Options{Start: simStart, Plies: 33, Pace: handsim.Blitz, Bursts: true})
	wantReread(t, followSimWith(t, g, false, true))
}

// TestRereadSlideEndHeardLate: the shrunk case of TestHandsimGuarantee (46
// plies at blitz pace, with bursts): the game's last move, Ra8–d8, rested
// on b8 and was pressed at the release; the rest of the slide came in a
// burst a second later. The press completed Rb8, and the rook on d8 was a
// move of the side not having it (Rb8–d8), which kept the rereading off
// until the game ended silently wrong. A piece of the side not having the
// move that stands for the hold is searched for from earlier plies: Rd8
// for Rb8.
func TestRereadSlideEndHeardLate(t *testing.T) {
	g := handsim.Play(&rapidReplay{vals: []int{7, 194, 47, 1, 106, 270, 30, 0, 19, 729, 8, 1, 6, 5, 93, 0, 2, 62, 1, 97, 193, 3, 0, 0, 1, 99, 0, 40, 19, 91, 3, 1410, 7, 14, 3, 28, 1, 0, 32, 67, 22, 11, 1, 97, 1, 1, 18, 47, 15, 18, 785, 86, 0, 1, 0, 2, 3, 24, 0, 3, 6, 1, 97, 2, 6, 355, 99, 24, 0, 12, 1, 2, 24, 43, 26, 0, 1, 9, 0, 85, 29, 1, 110, 46, 1, 98, 6, 0, 44, 1, 1, 158, 97, 1, 834, 1, 10, 46, 106, 0, 40, 0, 11, 0, 78, 1, 5, 83, 0, 0, 5, 0, 7, 39, 3, 67, 2, 6, 1, 63, 3, 0, 2, 17, 1543, 46, 0, 72, 42, 377, 99, 15, 972, 0, 0, 22, 110, 2, 3, 50, 228, 33, 103, 0, 13, 89, 0, 8, 3, 73, 2, 57, 14, 2, 17, 2, 0, 0, 0, 5, 23, 6, 96, 33, 58, 28, 3, 19, 0, 106, 55, 22, 1, 1, 105, 2, 72, 344, 90, 4, 237, 39, 2, 81, 1, 16, 8, 45, 1, 225, 99, 0, 13, 400, 0, 26, 18, 742, 28, 0, 2, 227, 1, 1, 28, 1, 5, 129, 48, 1, 0, 9, 54, 0, 1, 44, 2, 1, 0, 0, 99, 94, 2, 14, 0, 5, 21, 24, 12, 1, 0, 3, 3, 3, 0, 0, 0, 1, 93, 68, 5, 58, 71, 6, 30, 31, 0, 110, 27, 63, 26, 99, 2, 0, 37, 0, 1, 1, 6, 0, 30, 81, 11, 0, 61, 3, 1, 150, 0, 1, 4, 12, 6, 12, 1, 11, 82, 31, 3, 46, 150, 1, 19, 75, 0, 0, 23, 11, 0, 22, 1471, 45, 0, 0, 72, 45, 29, 40, 1, 324, 99, 82, 1, 28, 19, 229, 79, 25, 193, 73, 1, 11, 226, 86, 36, 0, 3, 1, 7, 2, 16, 0, 2, 10, 53, 1, 48, 50, 4, 0, 0, 2, 5, 92, 2, 26, 4, 4, 122, 1, 63, 10, 1, 100, 6, 14, 1, 82, 63, 1, 0, 200, 1, 5, 65, 34, 0, 52, 69, 0, 1, 211, 3, 0, 1, 110, 0, 3, 100, 88, 1, 10, 112, 82, 79, 6, 209, 3, 1, 55, 18, 2, 0, 146, 34, 1, 0, 759, 0, 3, 40, 0, 2, 0, 59, 44, 59, 15, 16, 20, 2, 73, 6, 0, 4, 4, 0, 11, 2, 1, 1, 63, 22, 1, 8, 391, 13, 17, 2, 176, 44, 0, 3, 4, 77, 40, 2, 7, 63, 3, 73, 14, 833, 26, 1, 36, 31, 0, 1, 8, 0, 41, 6, 30, 0, 1, 1, 107, 90, 48, 0, 0, 2, 6, 1, 1, 1, 75, 12, 13, 64, 0, 13, 7, 9, 0, 66, 0, 91, 6, 79, 126, 1, 32, 8, 27, 2, 13, 28, 2, 0, 93, 0, 0, 1, 6, 1047, 0, 8, 6, 50, 1, 71, 11, 0, 20, 157, 54, 376, 4, 0, 13, 2, 1, 35854, 833, 0, 171}},
		handsim.Options{Start: simStart, Plies: 46, Pace: handsim.Blitz, Bursts: true})
	wantReread(t, followSimWith(t, g, false, true))
}
