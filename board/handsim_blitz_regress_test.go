package board_test

import (
	"testing"

	"github.com/dgtbridge/dgtbridge/internal/handsim"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Shrunk cases of TestHandsimGuarantee at blitz pace (runs of 20,000
// random cases), each misread silently before its fix.

// TestQueenTakenOnAPawnsSquare: Qa4xc6+ (the queen slid a4–b5–c6) taken
// by bxc6 at once, the scan never seeing the queen on c6: the board ended
// with a4 and b7 empty and a black pawn on c6 as before, which is the
// record's position with two pieces lifted. Having shown the queen
// resting on b5, the board was read as a hand in the air, both presses
// became one displaced_pieces warning, and the game ended two plies short
// with no open alert. Both pressers' hands were done: the two plies the
// presses finished (Qxc6+ bxc6, the square c6 touched, where Qxa6 bxa6
// would leave the same placement) are the moves.
func TestQueenTakenOnAPawnsSquare(t *testing.T) {
	g := handsim.Play(&rapidReplay{vals: []int{
		14, 0, 67, 0, 5, 1, 2, 1, 4, 26, 11, 2, 95, 62, 7, 10, 15, 1321, 47, 0, 22, 400, 24, 9, 0, 63, 3, 5, 1, 64, 1, 5, 4,
		86, 14, 62, 8, 2, 0, 12, 3, 142, 71, 2, 998, 1, 37, 0, 1, 1, 5, 1, 8, 4, 7, 0, 18, 87, 66, 0, 1, 6, 0, 93, 0, 2, 3, 8,
		59, 1, 11, 1303, 61, 2, 10, 110, 298, 20, 59, 6, 2, 9, 140, 26, 0, 7, 10, 389, 53, 6, 14, 6, 1, 3, 2, 21, 2, 15, 208,
		3, 43, 99, 10, 726, 86, 0, 25, 9, 0, 40, 0, 28, 0, 82, 2, 1055, 22, 2, 0, 400, 24, 3, 48, 5, 9, 136, 29, 2, 14, 37,
		23, 0, 20, 88, 13, 8, 5, 44, 3, 0, 6, 1, 57, 2, 6, 3, 14, 99, 62, 242}},
		handsim.Options{Start: simStart, Plies: 14, Pace: handsim.Blitz})
	out := followSim(t, g, false)
	if !out.exact() {
		t.Fatalf("%s", out)
	}
	if n := out.falseAlerts(); len(n) > 0 {
		t.Fatalf("false alerts %v on an exact record: %s", n, out)
	}
}

// TestSlideRestBeforePress: Bf1–b5 slid resting on e2 long enough for the
// placement to settle, so Be2 was made; the lever came before the scan
// reported the bishop on b5. With the opponent's king moving at once,
// the board never settled again before the next plies, and the press
// completed Be2: the bishop's arrival on b5 was read as a second bishop
// move, the record a ply off from there (Be2 Ke7 Bb5 Kf7 Kf1 for Bb5 Ke7
// Kf1 Kf7) with no alert. The scan that follows the press shows Bb5 from
// the same position: the rest is replaced before the press completes it.
func TestSlideRestBeforePress(t *testing.T) {
	g := handsim.Play(&rapidReplay{vals: []int{
		18, 1651, 0, 0, 62, 0, 1, 21, 1, 21, 136, 0, 546, 56, 0, 47, 11, 4, 70, 2, 1394, 28, 1, 57, 1, 23, 2, 0, 1124, 67, 1,
		56, 294, 1, 3, 15, 0, 2, 0, 70, 95, 2, 98, 1, 93, 73, 4, 122, 2, 3, 2, 11, 1, 2, 3, 1, 15, 21, 1467, 0, 2, 1, 0, 2,
		58, 13, 38, 9, 2, 22, 61, 2, 84, 13, 99, 2, 13, 0, 15, 2, 4, 2, 4, 3, 0, 104, 14, 296, 61, 2, 0, 397, 39, 20, 3, 3,
		84, 99, 1, 52, 73, 293, 51, 20, 14, 344, 56, 2, 4, 400, 1, 108, 61, 20, 930, 46, 1, 11, 3, 1, 4, 254, 55, 28, 1, 102,
		5, 5, 5, 2, 3, 89, 1, 2, 210, 99, 55, 0, 1, 2, 15, 0, 0, 87, 82, 400, 60, 1, 22, 1, 602, 13, 1, 70, 1, 5, 83, 28, 45,
		13, 11, 498, 15, 2, 1, 0, 3, 146, 43, 15, 3, 114, 71, 1, 2, 2, 0, 14, 139, 36, 9, 82, 0, 1, 46, 15, 1, 7, 0, 7, 0, 4,
		72, 1, 18, 0, 38, 4, 86, 29, 1, 60, 23, 1, 30, 24, 0, 30, 93, 14, 15, 36, 68, 1, 12, 14, 47, 2, 23, 1, 86, 0, 24, 95,
		3, 1, 21, 2, 13, 6, 1, 0, 15, 11, 18, 1421, 20, 2, 81, 23, 66, 24, 1, 294, 97, 2, 19, 61, 93, 118, 49, 3, 0, 1163, 9,
		1, 27, 38, 79, 21, 1, 1, 96, 2, 1, 0, 12, 1, 16, 122, 110, 0, 58, 24, 0, 1700, 28, 0, 110, 264, 53, 64, 25, 0, 1155,
		86, 0, 69, 95, 99, 23, 5, 6, 0, 552, 21, 14, 71, 1, 7, 12, 64, 269, 42, 9, 7, 1, 0, 3, 2, 46, 2, 83, 169, 64, 60, 3,
		0, 27, 0, 14, 81, 2, 34, 76, 40, 3, 99, 63, 12, 88, 0, 2, 17, 54, 1, 1, 5, 53, 18, 2, 39, 67, 0, 0, 10, 22, 2, 3, 1,
		104, 1, 7, 12, 172, 83, 0, 82, 11, 64, 2, 9, 26, 2, 61, 1, 7, 95, 36, 1, 25, 110, 386, 0, 111, 8, 0, 99, 1, 74, 21,
		66, 1, 35, 169, 2, 151, 0, 3, 1, 15, 0, 77, 30, 9, 18, 1, 89, 27, 1469, 36, 22, 31, 2, 2, 19, 211, 81, 18, 16, 53, 1,
		5, 4, 1, 0, 2, 27, 4, 5, 34, 57, 2, 1, 16, 1, 2, 7, 314, 34, 0, 8, 0, 0, 50, 278, 17, 387, 42, 138, 2, 31, 1, 1, 6, 0,
		1, 90, 39, 93, 1, 0, 98, 0, 1, 0, 21, 87, 2, 8, 49, 0, 32, 2, 0, 55, 22, 4, 1, 7, 7, 95, 2, 19, 0, 3, 73, 0, 22, 50,
		1, 17, 6, 98, 12, 0, 40, 0, 44, 42, 152, 99, 14, 2, 17, 1, 3, 15, 15, 3, 0, 1, 40, 0, 0, 3, 0, 45, 76, 0, 1, 1, 48, 0,
		0, 9}},
		handsim.Options{Start: simStart, Plies: 49, Pace: handsim.Blitz, Noise: true, Bursts: true})
	if out := followSim(t, g, false); !out.exact() {
		t.Fatalf("%s", out)
	}
}

// TestSlideEndInABurstBeforeTheReply: the shrunk case of
// TestHandsimGuarantee at rapid pace with bursts: Bc8xa6 slid resting on
// b7 and was pressed at once; the reports of the next 0.6 s came in a
// burst, so the scan that follows the press showed the bishop on b7 and
// the press completed Bb7. The burst then showed the bishop on a6, and
// White's Nb1 was read with it as his move and Black's reply (Nb1 Bxa6),
// the record a ply long from there with no alert. The bishop was seen on
// a6 before White lifted the knight: no reply to Nb1, but the end of
// Black's own slide. The line from the ply before (Bxa6 Nb1), which puts
// the moves in the order the hands made them, is the one played.
func TestSlideEndInABurstBeforeTheReply(t *testing.T) {
	g := handsim.Play(&rapidReplay{vals: []int{
		0, 2, 99, 1, 89, 314, 4, 2225, 0, 1, 0, 2, 1, 1, 28, 16, 63, 6, 5, 47, 87, 0, 33, 7, 5, 3, 1, 9, 31, 15, 2, 3, 386, 6,
		1, 8, 0, 90, 190, 1, 1, 80, 33, 1, 1, 3, 6, 51, 328, 5, 1, 3, 1, 7, 0, 77, 0, 143, 3, 6, 1, 7, 21, 28, 1, 3, 250, 0,
		1, 90, 0, 0, 107, 12, 17, 1957, 91, 0, 19, 7, 10, 28, 65, 0, 4, 4, 1, 6, 5, 0, 48, 1, 2, 179, 4, 20, 1, 97, 0, 0, 320,
		57, 1, 2, 3, 3, 6, 0, 1, 9, 7, 1, 15, 3, 88, 101, 36, 0, 86, 0, 1, 7, 2, 2, 1, 498, 0, 3, 37, 62, 1, 23, 133, 15, 1,
		80, 0, 0, 17, 9, 36, 24, 377, 81, 84, 0, 427, 1, 4, 73, 108, 2, 1, 6, 0, 0, 0, 1, 6, 79, 136, 1, 54, 100, 108, 10,
		1431, 2, 1, 36, 139, 1, 36, 6, 39, 2, 3, 0, 85, 6, 12, 89, 161, 1, 120, 9, 0, 99, 1, 3, 2, 99, 2, 2, 125, 2, 1, 50, 7,
		179, 28, 257, 1, 116, 1, 45, 0, 2, 95, 13, 2, 0, 278, 96, 28, 8, 7, 6, 1, 46, 1, 0, 92, 19, 95, 97, 0, 5, 166, 3, 0,
		0, 1, 0, 0, 0, 5, 190, 1, 1, 68, 86, 16, 4, 68, 62, 0, 93, 1, 80, 3, 0, 83, 2, 1, 121, 41, 39, 119, 12, 526, 1, 4, 34,
		126, 2, 35, 22, 82, 9, 1, 51, 84, 1, 13, 157, 10, 0, 50, 80, 2, 50, 5, 3, 26, 0, 2, 8366, 286, 7, 617, 42, 3}},
		handsim.Options{Start: simStart, Plies: 27, Pace: handsim.Rapid, Noise: true, Bursts: true})
	wantReread(t, followSim(t, g, false))
}

// TestBlitzSlideEndInABurst: the same at blitz pace (50 plies, noise and
// bursts): Bf8–d6 rested on e7, the press completed Be7, and the rest of
// the slide came in a burst before White's next move (a king adjusted,
// then b3): read as b3 Bd6 from Be7, it left the record a ply long.
func TestBlitzSlideEndInABurst(t *testing.T) {
	g := handsim.Play(&rapidReplay{vals: []int{
		1, 1, 20, 0, 84, 172, 74, 13, 48, 48, 0, 0, 74, 1, 3, 1, 1, 12, 7, 86, 2, 5, 94, 5, 18, 3, 10, 3, 57, 1, 9, 29, 99,
		33, 0, 2, 54, 1, 3, 0, 68, 4, 16, 998, 1, 5, 88, 1, 2, 30, 15, 14, 25, 0, 2, 74, 47, 85, 0, 21, 48, 370, 24, 10, 2,
		71, 0, 22, 3, 12, 44, 76, 2, 21, 2, 0, 7, 127, 67, 7, 15, 7, 7, 32, 0, 2, 5, 3, 1, 0, 68, 50, 1, 78, 2, 1, 23, 14, 2,
		12, 46, 30, 6, 15, 1, 7, 41, 2, 1, 40, 111, 1, 9, 3, 1, 31, 3, 67, 2, 11, 108, 24, 1, 0, 10, 123, 8, 1, 7, 1, 8, 30,
		1, 2, 44, 45, 11, 1, 1700, 64, 2, 0, 110, 74, 1, 96, 2, 935, 0, 0, 30, 2, 15, 1, 90, 1, 79, 5, 43, 58, 0, 1, 328, 51,
		42, 25, 8, 72, 58, 12, 0, 77, 6, 0, 1, 8, 3, 13, 48, 4, 24, 32, 1, 1, 93, 12, 14, 25, 3, 99, 0, 2, 30, 42, 2, 111, 1,
		16, 5, 8, 1, 53, 2, 0, 2, 0, 53, 44, 28, 24, 0, 0, 9, 0, 5, 0, 1, 105, 18, 9, 92, 1, 3, 32, 2, 0, 350, 1, 34, 18, 20,
		1, 10, 9, 82, 1, 104, 1, 1, 6, 237, 49, 47, 3, 2, 74, 10, 22, 4, 2, 27, 42, 2, 77, 2, 15, 2, 5, 1426, 82, 0, 1, 0, 63,
		108, 26, 6, 40, 2, 39, 2, 17, 1, 61, 6, 27, 108, 1, 0, 3, 0, 24, 108, 13, 1, 20, 1, 7, 1, 1, 1, 164, 33, 1, 38, 18,
		400, 85, 2, 950, 40, 2, 15, 2, 3, 0, 10, 6, 90, 1, 22, 66, 20, 0, 85, 0, 31, 0, 64, 69, 20, 3, 7, 1674, 10, 8, 45, 1,
		110, 5, 384, 11, 3, 8, 0, 21, 1, 110, 21, 0, 6, 7, 29, 75, 53, 133, 22, 1, 8, 1, 2, 0, 1, 101, 4, 0, 94, 1, 110, 29,
		1, 150, 11, 787, 0, 2, 84, 95, 0, 13, 3, 1, 67, 62, 0, 227, 11, 72, 1, 2, 57, 1, 42, 40, 0, 46, 97, 0, 22, 230, 1,
		150, 10, 169, 6, 7, 7, 78, 1, 67, 21, 1, 55, 92, 7, 32, 1, 4, 2, 0, 37, 0, 1, 81, 1, 0, 154, 35, 12, 36, 53, 31, 1, 1,
		1, 34, 1, 9, 14, 0, 6, 5, 0, 1, 60, 1, 90, 7, 1, 90, 1, 49, 65, 227, 3, 150, 34, 376, 30, 7, 85, 0, 22, 1, 323, 16,
		11, 12, 40, 78, 1, 95, 9, 1, 68, 43, 64, 0, 1, 255, 72, 0, 110, 3, 0, 8, 21, 176, 1, 7, 1, 0, 2, 79, 0, 1, 81, 71, 51,
		33, 80, 60, 1, 1, 6, 1, 10, 145, 90, 5, 5, 3, 172, 19, 2, 26, 107, 3, 0, 32, 170, 29, 3, 2, 1, 14, 94, 31, 0, 26, 0,
		0, 76, 0, 0, 106, 96, 12, 7, 0, 1, 14, 2, 17, 4, 0, 45, 16, 1700, 1, 1, 3, 6, 0, 12, 2, 1, 52, 272, 11, 3, 5, 2, 2,
		60, 116, 1, 805, 67, 1, 14, 0, 96, 2, 124, 1, 2, 1, 19, 2, 7, 1, 1, 2, 5, 3, 71, 2, 3, 312, 85, 18, 13, 1, 171, 33, 2,
		1, 1, 10200, 3, 12382, 0}},
		handsim.Options{Start: simStart, Plies: 50, Pace: handsim.Blitz, Noise: true, Bursts: true})
	wantReread(t, followSim(t, g, false))
}

// TestSlideOnAFullTrail: the shrunk case of TestHandsimGuarantee (36
// plies at blitz pace, with bursts): fourteen plies came without the board
// standing still for the settle window, and the trail of fast moves was
// full (twelve) when the rook slid f1–f2–f3, resting on f2. The trail
// kept Rf2, the slide's end could not replace it, and the board was read
// as Rf2 d6 Rf1 for Rf3 d6 Rf1: the same placement, the same number of
// presses, no alert. Replacing the trail's last move does not lengthen
// it, so a full trail takes it too.
func TestSlideOnAFullTrail(t *testing.T) {
	g := handsim.Play(&rapidReplay{vals: []int{
		2, 702, 48, 1, 7, 397, 53, 21, 1, 1, 0, 15, 7, 50, 1, 1, 1, 13, 130, 3, 21, 99, 2, 1, 1, 0, 67, 12, 11, 32, 79, 99, 1,
		0, 93, 2, 3, 1, 3, 0, 77, 1, 5, 0, 42, 57, 2, 1, 750, 66, 2, 1, 45, 305, 49, 46, 2, 1, 1, 14, 3, 28, 2, 1, 1, 8, 1, 3,
		7, 16, 3, 6, 0, 2, 0, 0, 0, 49, 0, 0, 2, 33, 39, 19, 2, 9, 2, 22, 107, 19, 0, 0, 51, 30, 233, 43, 6, 2, 0, 889, 0, 83,
		28, 1, 9, 0, 44, 3, 77, 40, 7, 20, 51, 13, 0, 0, 53, 0, 0, 13, 0, 110, 278, 48, 46, 45, 15, 22, 97, 35, 2, 1, 15, 0,
		0, 0, 17, 18, 32, 0, 46, 106, 60, 2, 9, 0, 2, 1, 29, 3, 0, 36, 29, 1, 29, 19, 2, 99, 0, 1, 400, 4, 59, 5, 28, 74, 2,
		55, 3, 0, 1, 21, 3, 51, 0, 44, 46, 0, 110, 122, 1, 150, 1, 47, 11, 0, 10, 98, 388, 3, 3, 8, 62, 98, 1, 101, 24, 1, 10,
		226, 92, 383, 1, 2, 13, 0, 1, 7, 2, 5, 0, 1, 1, 49, 2, 6, 21, 14, 1, 0, 20, 1, 87, 112, 6, 13, 11, 1371, 1, 2, 4, 0,
		1, 16, 7, 0, 223, 61, 13, 6, 860, 4, 6, 2, 3, 0, 44, 25, 0, 7, 3, 114, 12, 124, 1, 5, 10, 14, 2, 48, 0, 72, 85, 2, 1,
		21, 1, 62, 391, 1, 6, 16, 836, 71, 2, 23, 83, 12, 23, 18, 0, 76, 0, 82, 4, 3, 1, 23, 125, 73, 24, 2, 77, 400, 10, 73,
		23, 1, 352, 15, 128, 1, 10, 22, 59, 1, 48, 25, 240, 9, 1, 1, 3, 30, 1, 6, 6, 4, 7, 0, 173, 0, 6, 44, 39, 0, 101, 196,
		24, 1, 6, 6, 62, 2, 79, 1, 39, 0, 11, 1700, 11, 1, 108, 1, 1, 0, 2, 20, 13, 48, 14, 0, 3, 400, 76, 0, 729, 17, 1, 110,
		400, 15, 94, 8, 3, 99, 0, 94, 12, 2, 74, 10, 1, 71, 2, 7, 48, 7, 99, 67, 30, 0, 0, 1}},
		handsim.Options{Start: simStart, Plies: 36, Pace: handsim.Blitz, Bursts: true})
	if out := followSim(t, g, false); !out.exact() {
		t.Fatalf("%s", out)
	}
}

// TestRookSlideOverACapture: the shrunk case of TestHandsimGuarantee (15
// plies at blitz pace, with noise and bursts): gxh4 answered at once by
// Rxh4, the rook slid h1–h2–h3–h4 and the pawn on h4 taken off first. The
// board showed the rook resting on h2 and h3 with h4 empty, which the trail
// of fast moves read as Rh2 h3 Rxh3 (the pawn moved on, then taken): the
// record ended two plies longer than the presses (nine plies for seven)
// with no alert. An explanation with more plies than the presses and one
// has the rereading search from the record's last ply too, and the line
// that fits the presses (gxh4 Rxh4 Ke8 Rxh7 Rxh7 d5) is the game.
func TestRookSlideOverACapture(t *testing.T) {
	g := handsim.Play(&rapidReplay{vals: []int{
		15, 4, 35, 1, 0, 1, 6, 0, 9, 868, 12, 2, 1, 107, 6, 27, 5, 0, 3, 1, 23, 14, 1, 21, 147, 1, 1, 9, 920, 0, 1, 32, 97, 0,
		79, 1, 1, 6, 4, 0, 9, 0, 62, 1, 18, 7, 0, 3, 73, 1, 59, 172, 3, 1, 9, 1, 2, 3, 21, 43, 2, 61, 58, 3, 71, 3, 1273, 99,
		72, 2, 7, 98, 147, 3, 1, 23, 213, 0, 0, 0, 63, 0, 3, 400, 79, 6, 322, 23, 0, 86, 0, 99, 36, 8, 92, 88, 1, 1, 13, 2, 0,
		9, 5, 4, 2, 32, 7, 26, 1, 1, 105, 74, 30, 32, 0, 0, 47, 0, 3, 259, 89, 0, 43, 19, 0, 65, 16, 348, 2, 1, 1, 78, 0, 13,
		2, 61, 7, 4, 16, 50, 13, 65, 1, 3, 4, 0, 10, 0, 62, 90, 99, 1, 18, 3, 15, 3, 1, 2, 3, 0, 1, 3, 27, 95, 26, 30, 1, 45,
		13, 0, 2529, 370}},
		handsim.Options{Start: simStart, Plies: 15, Pace: handsim.Blitz, Noise: true, Bursts: true})
	if out := followSim(t, g, false); !out.exact() {
		t.Fatalf("%s", out)
	}
}

// TestBlitzFlurryBehindTheBoard: the shrunk case of TestHandsimGuarantee
// (36 plies at blitz pace, with noise): from ply 22 on, fifteen plies came
// without the board standing still for the settle window, more than the
// trail of fast moves follows (twelve). The board then showed a position
// of the trail with pieces lifted, and was taken for a hand in the middle
// of a move (20 s before it is reported) although fifteen presses had
// been heard: the game ended with one displaced_pieces warning, the record
// fifteen plies short and no open alert. Pieces lifted after both players
// pressed are no move in progress: the board is reported unexplained.
func TestBlitzFlurryBehindTheBoard(t *testing.T) {
	g := handsim.Play(&rapidReplay{vals: []int{
		10, 244, 33, 1, 3, 20, 58, 0, 9, 568, 8, 2, 2, 3, 22, 145, 1, 1040, 28, 2, 37, 14, 23, 1, 5, 1700, 25, 0, 78, 1, 0, 7,
		19, 0, 99, 1, 77, 78, 5, 147, 2, 12, 93, 1, 1, 185, 10, 1, 85, 50, 1, 1322, 8, 1, 3, 278, 3, 2, 15, 0, 55, 1, 0, 5,
		74, 46, 1700, 24, 59, 96, 2, 0, 11, 28, 1, 1, 2, 1, 3, 106, 14, 0, 7, 10, 49, 93, 99, 3, 386, 28, 0, 3, 3, 42, 10, 21,
		767, 1, 9, 27, 1, 1, 13, 1, 0, 0, 52, 203, 19, 335, 58, 0, 0, 1, 91, 99, 1, 7, 3, 3, 1, 10, 89, 3, 6, 68, 2, 8, 0, 12,
		1, 10, 1, 0, 12, 1, 34, 2, 74, 1, 0, 400, 37, 127, 1, 19, 28, 2, 1, 0, 35, 107, 63, 10, 0, 73, 12, 1, 110, 12, 2, 1,
		1, 126, 75, 62, 6, 0, 0, 5, 39, 4, 0, 56, 39, 20, 5, 3, 91, 102, 2, 35, 6, 4, 62, 4, 28, 1077, 14, 1, 49, 7, 0, 2, 92,
		10, 10, 42, 0, 10, 1, 81, 1, 988, 14, 1, 3, 289, 81, 91, 4, 5, 0, 2, 0, 2, 2, 86, 52, 51, 20, 1, 28, 1, 54, 3, 49, 0,
		3, 110, 11, 1, 51, 242, 49, 5, 6, 91, 4, 9, 53, 0, 205, 1, 145, 7, 1, 23, 3, 1, 78, 5, 51, 1, 51, 2, 28, 14, 0, 1, 0,
		27, 66, 35, 9, 84, 3, 1, 3, 91, 1, 103, 81, 251, 0, 70, 21, 1700, 5, 28, 1, 6, 3, 0, 1, 2, 1, 24, 0, 100, 21, 1700,
		11, 45, 6, 2, 95, 8, 1, 23, 3, 109, 99, 3, 50, 3, 5, 6, 0, 2, 5, 14, 1, 1, 14, 276, 1, 94, 0, 2, 6, 41, 4, 74, 93, 2,
		2, 10, 51, 0, 2, 4, 30, 32, 1, 78, 1, 34, 29, 8, 105, 0, 30, 6, 0, 0, 4, 1, 53, 400, 25, 82, 1, 4, 32, 2, 0, 109, 325,
		25, 4, 19, 7, 89, 16, 0, 1, 0, 1, 8, 84, 14, 1, 10, 2, 0, 1, 1, 46, 220, 17, 44, 0, 67, 315, 74, 65, 38, 45, 63, 83,
		0, 78, 55, 23, 62, 6, 19, 4, 23, 1, 0, 0, 0, 110, 0, 0, 4, 37, 49, 52, 24, 29, 1, 9, 0}},
		handsim.Options{Start: simStart, Plies: 36, Pace: handsim.Blitz, Noise: true})
	if out := followSim(t, g, false); out.stuck() {
		t.Fatalf("%s", out)
	}
}

// TestRookTakenOnItsSquareAtOnce: game 5044 of the soak (blitz, noise):
// Ra1 answered by Rxa1 0.3 s after the press, the black rook lifted off a8
// and the white rook off a1 before any scan saw the black one land. The
// scan that follows White's press showed a7, a8 and a1 empty: read as
// Rxa8 taken at once (the sensors never saw a white rook on a8), the record
// was later reread into another order of the same moves, with no alert.
// The white rook was reported on a1 before the press and lifted off it
// after, on a square it could not have rested on to go on: Ra1 stood.
func TestRookTakenOnItsSquareAtOnce(t *testing.T) {
	if _, out := simSoakGame(t, 5044); !out.exact() {
		t.Fatalf("%s", out)
	}
}

// TestCaptureAndRecaptureWhileAMoveWaits: game 1300 of the soak (blitz,
// bursts): Rxa6 bxa6 (the rook resting on a5 on its way) while Black's g6
// still waited for its press, heard in a burst. The board showed a2 and b7
// empty, a pawn on a6 as before: two pieces lifted off the rook's rest on
// a5. It was read as a hand in the air, then as a record lost (a
// record_lost crit for a game the presses had followed). The two plies
// after g6 are the two presses heard since: the presses win.
func TestCaptureAndRecaptureWhileAMoveWaits(t *testing.T) {
	if _, out := simSoakGame(t, 1300); !out.exact() {
		t.Fatalf("%s", out)
	}
}

// TestRookSlideOverAQueen: the shrunk case of TestHandsimGuarantee (26
// plies at blitz pace, with noise and bursts): Qxh4 answered by Rxh4, the
// rook slid h1–h2–h3–h4 with the queen taken off first, in a stretch of
// twelve plies the board never stood still. The trail of fast moves read
// the rook resting on h3 as two plies at once (Qh3 Rxh3: the queen moving
// on, taken there), a ply more than the presses heard and one, and the
// record ended two plies long with no alert. The trail takes no more plies
// than the presses heard and one: the rook's arrival on h4 then replaces
// the rest.
func TestRookSlideOverAQueen(t *testing.T) {
	g := handsim.Play(&rapidReplay{vals: []int{
		2, 919, 0, 5, 0, 106, 0, 0, 352, 90, 14, 33, 1, 7, 78, 59, 1, 104, 2, 99, 1, 2, 5, 5, 0, 27, 1, 1, 240, 68, 86, 16,
		10, 5, 4, 1, 24, 2, 83, 38, 14, 91, 0, 14, 47, 0, 29, 2, 12, 45, 5, 13, 22, 0, 3, 77, 2, 87, 7, 84, 71, 26, 6, 72, 1,
		2, 121, 45, 2, 17, 3, 10, 1, 91, 5, 0, 96, 0, 0, 96, 3, 0, 0, 110, 1, 104, 3, 65, 6, 5, 1, 6, 31, 2, 20, 52, 29, 1, 3,
		5, 87, 63, 2, 5, 59, 0, 95, 46, 761, 26, 2, 97, 2, 7, 6, 2, 1, 18, 231, 76, 0, 5, 69, 0, 2, 23, 20, 7, 51, 2, 22, 15,
		10, 2, 27, 1545, 0, 55, 7, 12, 4, 43, 2, 0, 0, 59, 1, 31, 1, 11, 45, 1, 40, 13, 0, 37, 64, 0, 0, 14, 205, 1, 236, 20,
		1, 1, 0, 1377, 5, 9, 1, 12, 1, 49, 56, 3, 81, 4, 34, 52, 76, 3, 1, 35, 103, 1, 0, 2, 10, 1, 3, 92, 50, 7, 1460, 28, 1,
		91, 45, 99, 12, 3, 99, 34, 29, 12, 14, 2, 58, 400, 2, 1, 1, 0, 0, 187, 75, 0, 62, 4, 3, 5, 142, 71, 12, 2, 32, 200,
		77, 2, 19, 110, 19, 0, 3, 59, 115, 14, 3, 2, 4, 56, 52, 0, 10, 59, 1, 3, 51, 1342, 1, 26, 0, 0, 72, 87, 2, 7, 96, 4,
		0, 1, 36, 137, 5, 1700, 31, 2, 25, 98, 23, 1, 13, 128, 28, 0, 0, 32, 3, 95, 3, 125, 48, 0, 98, 28, 0, 167, 0, 62, 1,
		424, 39, 28, 73, 1, 8, 101, 73, 38, 1, 114, 50, 16, 1, 0, 15, 1, 3, 12, 3045, 50}},
		handsim.Options{Start: simStart, Plies: 26, Pace: handsim.Blitz, Noise: true, Bursts: true})
	if out := followSim(t, g, false); !out.exact() {
		t.Fatalf("%s", out)
	}
}

// TestRookRestThenExchange: the shrunk case of TestHandsimGuarantee (37
// plies at blitz pace, with noise): Rh8–h2 resting on h6, taken by Rxh2 at
// once, then b5, all before the board stood still. The trail had Rh6 (the
// rest) and read the rest as Rxh6 b5 Rh2 from it, the record a ply long
// and the same placement, no alert. Three plies from the position before
// the rest (Rh2 Rxh2 b5) are fewer: the rest was no move.
func TestRookRestThenExchange(t *testing.T) {
	g := handsim.Play(&rapidReplay{vals: []int{
		8, 21, 9, 1, 10, 0, 0, 1, 1, 93, 2, 11, 6, 3, 1, 0, 3, 0, 25, 3, 39, 1, 5, 11, 12, 0, 14, 71, 0, 58, 0, 1397, 24, 1,
		3, 216, 5, 117, 9, 0, 19, 1, 27, 9, 59, 0, 75, 24, 492, 3, 2, 2, 11, 0, 76, 92, 16, 140, 15, 1047, 57, 1, 9, 1, 85,
		41, 18, 7, 6, 5, 14, 63, 0, 70, 8, 0, 2, 0, 4, 95, 1, 6, 400, 4, 150, 5, 0, 115, 84, 0, 19, 7, 281, 70, 29, 434, 56,
		16, 1, 0, 100, 66, 2, 26, 5, 51, 0, 1, 1, 14, 3, 52, 0, 5, 3, 0, 103, 0, 1, 12, 2, 31, 105, 4, 0, 19, 22, 30, 2, 100,
		49, 40, 7, 6, 760, 18, 0, 30, 10, 7, 1, 10, 280, 4, 12, 216, 37, 7, 1, 144, 7, 1, 34, 12, 2, 6, 7, 0, 24, 0, 1, 1,
		142, 3, 87, 26, 57, 34, 0, 11, 380, 30, 150, 2, 583, 0, 12, 55, 0, 4, 6, 138, 3, 72, 19, 6, 0, 1, 8, 0, 40, 52, 131,
		6, 141, 34, 14, 2, 84, 1, 108, 4, 1, 1, 113, 0, 0, 141, 54, 123, 24, 41, 40, 2, 9, 2, 60, 0, 1, 82, 2, 0, 17, 7, 0,
		39, 20, 3, 0, 1, 86, 12, 1, 87, 391, 50, 0, 0, 1, 1405, 3, 134, 0, 0, 2, 28, 1, 90, 5, 99, 12, 89, 93, 20, 1, 1, 5,
		30, 1, 1, 0, 0, 2, 3, 0, 184, 11, 1, 3, 15, 1, 0, 16, 1, 96, 1, 68, 31, 1, 1, 123, 99, 3, 0, 50, 15, 0, 35, 47, 43,
		45, 90, 4, 611, 2, 11, 87, 1, 1, 67, 362, 9, 6, 2, 5, 9, 0, 2, 14, 3, 1, 9, 1, 7, 83, 0, 58, 1, 52, 23, 1373, 48, 2,
		9, 11, 4, 0, 7, 7, 2, 21, 1, 2, 33, 79, 2, 1, 1, 1, 1, 1, 3, 84, 99, 2, 5, 9, 7, 9, 2, 64, 101, 25, 48, 43, 2, 21, 52,
		123, 5, 0, 61, 20, 84, 64, 2, 24, 383, 94, 1, 2, 103, 0, 0, 64, 2, 12, 3, 9, 31, 37, 4, 0, 15, 0, 5, 30, 7, 0, 82, 86,
		5, 0, 164, 0, 83, 6, 5, 66, 2, 84, 1, 1, 4, 50, 28, 86, 14, 1700, 2, 7, 56, 34, 0, 50, 20, 0, 69, 51, 265, 18, 146,
		98, 2, 7, 1, 5, 12, 85, 2, 2, 400, 28, 10, 6, 5, 1, 4, 2}},
		handsim.Options{Start: simStart, Plies: 37, Pace: handsim.Blitz, Noise: true})
	if out := followSim(t, g, false); !out.exact() {
		t.Fatalf("%s", out)
	}
}

// TestSlideRestThenBurstWithThePress: the shrunk case of
// TestHandsimGuarantee (28 plies at blitz pace, with bursts): Bf1–b5
// rested on e2 long enough to be made (Be2+), and the rest of the slide
// came in a burst with the press, White's Kd2 right behind it. The rest was
// completed by the press and the bishop's arrival read with the next
// move (Be2 Kd2 Bc4 for Bb5 Kd2 Bc4: the same placement, no alert). The
// scan that follows the press shows Bb5 from the same position, the
// opponent's hand at work: it replaces the rest, in a burst too.
func TestSlideRestThenBurstWithThePress(t *testing.T) {
	g := handsim.Play(&rapidReplay{vals: []int{
		14, 4, 84, 0, 61, 6, 34, 78, 15, 1, 55, 0, 77, 219, 62, 7, 48, 3, 0, 0, 64, 0, 102, 72, 12, 1, 56, 81, 3, 211, 20, 3,
		0, 1, 7, 30, 2, 1, 1, 55, 376, 4, 2, 9, 2, 22, 0, 75, 162, 61, 20, 0, 1, 9, 0, 32, 2, 1, 20, 55, 114, 14, 39, 29, 0,
		5, 41, 5, 51, 1, 9, 0, 1, 0, 5, 1, 86, 146, 0, 1, 23, 1, 57, 0, 74, 23, 0, 97, 38, 693, 49, 2, 110, 145, 1, 103, 14,
		20, 38, 2, 2, 67, 66, 5, 0, 1, 10, 1, 8, 1, 19, 91, 10, 12, 2, 2, 18, 14, 0, 101, 3, 0, 365, 15, 69, 0, 3, 0, 10, 0,
		2, 0, 13, 58, 12, 3, 31, 0, 1700, 5, 4, 49, 44, 2, 35, 3, 29, 9, 8, 22, 11, 66, 1, 12, 0, 16, 0, 110, 1, 71, 107, 3,
		1, 70, 62, 9, 891, 20, 104, 82, 2, 30, 0, 55, 391, 1, 31, 11, 5, 21, 0, 46, 63, 14, 0, 5, 52, 2, 1123, 2, 96, 3, 11,
		98, 12, 1, 6, 110, 42, 4, 64, 0, 531, 0, 7, 71, 23, 0, 68, 0, 7, 31, 4, 0, 96, 2, 2, 19, 5, 0, 1, 194, 76, 12, 22, 41,
		87, 99, 0, 5, 27, 2, 15, 4, 1, 37, 16, 6, 3, 6, 0, 39, 2, 9, 20, 5, 1, 14, 50, 4, 0, 5, 23, 1, 74, 276, 0, 6, 8, 101,
		1, 7, 32, 3, 0, 48, 18, 1, 10, 236, 79, 21, 50, 63, 42, 1, 10, 3, 117, 7, 1, 31, 30, 1, 57, 142, 0, 6, 7, 0, 20, 2, 3,
		99, 149, 15, 2, 13, 13, 32, 0, 3, 2, 25, 52, 11, 1278, 0, 0, 1, 1, 1, 9, 0, 30, 21, 0, 131, 49, 30, 2, 14207, 539, 1,
		293, 7916, 353}},
		handsim.Options{Start: simStart, Plies: 28, Pace: handsim.Blitz, Bursts: true})
	if out := followSim(t, g, false); !out.exact() {
		t.Fatalf("%s", out)
	}
}

// TestPressJudgedWhileReportsStalled: the shrunk case of
// TestHandsimGuarantee (6 plies at blitz pace, with bursts): the board's
// reader stalled just after White's press for e4, and the reports of the
// next 1.5 s (e4, b6, Black's press, Na3, White's press) came at once.
// The press had been judged on the record's position meanwhile: a
// clock_without_move, the press gone. The burst then read as e4 b5 Na3 for
// the presses left, a second clock_without_move, and the record ended a
// ply short with no alert covering it. A press judged without a move on a
// board that had reported nothing since is pending again when a burst
// follows: it completes e4, and the record is exact (the arbiter has the
// first alert, which nothing could tell from a real one when it came).
func TestPressJudgedWhileReportsStalled(t *testing.T) {
	g := handsim.Play(&rapidReplay{vals: []int{
		11, 0, 3, 0, 92, 61, 2, 64, 34, 9, 10, 10, 403, 9, 1, 1, 74, 1, 14, 16, 1041, 3, 10, 5, 3, 0, 37, 65, 17, 8, 8, 4, 12,
		1, 20, 308, 0, 147, 1, 0, 42, 2, 43, 371, 3, 16, 8, 246, 6, 13, 16, 1, 1, 13, 2, 1, 34, 65, 21, 1, 2954, 1197, 9000,
		379}},
		handsim.Options{Start: simStart, Plies: 6, Pace: handsim.Blitz, Bursts: true})
	out := followSim(t, g, false)
	if !out.exact() {
		t.Fatalf("%s", out)
	}
	n := 0
	for _, a := range out.alerts {
		if a.Kind == game.KindClockWithoutMove {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d clock_without_move alerts, want the one raised while the reports stalled\n%s", n, out)
	}
}

// TestRereadFindsTheHandsLine: the shrunk case of TestHandsimGuarantee (43
// plies at blitz pace, with noise): Nc6 Qxc6+ Bd7 Qxd7+ Kxd7 in 1.6 s,
// every piece taken at once, the record left at Qxc2. The rereading search
// found, within its budget, Ke7 Qxc8 Nd7 Qxd7+ Kxd7 first (the same
// placement, the same presses) and nothing else: the record was rewritten
// with moves never played, and no ambiguity was told. The search now
// tries first the moves that land on squares the hands were seen to touch
// (c6, d7), and finds the line they made.
func TestRereadFindsTheHandsLine(t *testing.T) {
	g := handsim.Play(&rapidReplay{vals: []int{
		2, 241, 1, 11, 2, 83, 2, 3, 30, 0, 115, 4, 750, 21, 2, 39, 6, 99, 19, 1, 1, 15, 69, 6, 1, 6, 11, 14, 134, 0, 46, 6,
		10, 13, 1, 1, 46, 280, 95, 5, 4, 6, 1, 0, 1, 2, 2, 1, 3, 1, 8, 2, 64, 34, 1, 47, 19, 84, 34, 1, 3, 0, 22, 42, 1, 10,
		102, 246, 15, 63, 3, 68, 28, 0, 110, 32, 7, 150, 12, 19, 10, 2, 86, 1, 99, 14, 480, 5, 3, 32, 16, 0, 54, 21, 1, 5, 25,
		16, 362, 21, 6, 20, 50, 1, 14, 38, 1, 0, 3, 169, 2, 0, 9, 0, 18, 0, 33, 4, 7, 95, 11, 0, 606, 4, 7, 24, 0, 110, 0, 25,
		33, 22, 5, 883, 85, 0, 4, 267, 2, 0, 84, 73, 25, 107, 1, 10, 45, 1, 0, 12, 4, 5, 6, 6, 197, 1, 4, 39, 0, 1, 1, 0, 282,
		3, 77, 66, 611, 1, 111, 25, 2, 2, 4, 10, 0, 277, 23, 0, 6, 11, 12, 2, 55, 17, 1, 1, 96, 7, 193, 53, 2, 13, 2, 64, 0,
		12, 20, 55, 3, 0, 35, 4, 5, 2, 2, 1, 9, 79, 38, 23, 2, 7, 7, 6, 0, 2, 85, 86, 2, 14, 159, 1, 1, 21, 13, 16, 4, 11, 2,
		20, 10, 5, 1, 7, 2, 5, 9, 147, 83, 47, 3, 89, 2, 3, 22, 0, 55, 12, 1, 366, 29, 53, 69, 133, 36, 0, 24, 1, 28, 4, 51,
		15, 12, 8, 17, 0, 1, 7, 10, 2, 1, 30, 29, 67, 128, 13, 13, 97, 1, 1, 104, 4, 1, 9, 2, 70, 1, 3, 1, 1, 265, 35, 21, 0,
		22, 86, 0, 9, 9, 82, 15, 15, 29, 1, 0, 2, 98, 7, 1, 2, 6, 18, 0, 1, 34, 2, 0, 1, 80, 19, 33, 87, 2, 72, 13, 1, 12, 69,
		1336, 3, 151, 19, 1, 6, 94, 22, 59, 101, 5, 2, 56, 2, 0, 5, 1, 105, 6, 254, 2, 9, 32, 11, 0, 5, 2, 0, 7, 38, 0, 0, 0,
		8, 1, 48, 1, 8, 93, 45, 1, 14, 82, 2, 12, 0, 64, 5, 6, 1700, 1, 1, 60, 6, 1, 34, 75, 6, 35, 19, 0, 33, 0, 3, 196, 14,
		0, 31, 21, 49, 2, 0, 6, 89, 64, 0, 13, 73, 400, 41, 0, 0, 20, 2, 7, 13, 67, 2, 0, 9, 16, 0, 7, 18, 16, 232, 6, 38, 16,
		1, 15, 1, 140, 57, 0, 7, 7, 6, 23, 140, 0, 112, 40, 1, 65, 145, 0, 112, 1, 5, 12, 0, 6, 3, 2, 68, 9, 13, 68, 0, 39,
		15, 0, 15, 46, 38, 63, 1, 83, 3, 73, 0}},
		handsim.Options{Start: simStart, Plies: 43, Pace: handsim.Blitz, Noise: true})
	wantReread(t, followSim(t, g, false))
}

// TestRestNotReplacedByACaptureUnseen: game 586 of the soak (blitz), read
// without rereading: Qc3 (made before the press) taken at once by bxc3,
// the queen lifted off c3 and the pawn off b4 before the scan saw the pawn
// land. The scan that follows White's press showed d2, c3 and b4 empty,
// which "Qxb4, taken at once" fits too (the queen going on from c3 to
// b4): the made move was replaced by it, and without rereading the record
// stayed wrong, silently. A made move is replaced at the press only by one
// the board shows where it ended.
func TestRestNotReplacedByACaptureUnseen(t *testing.T) {
	if out := followSimWith(t, soakGame(586), false, false); !out.exact() {
		t.Fatalf("%s", out)
	}
}

// TestCaptureRecaptureNotOnAThirdSquare: the shrunk case of
// TestHandsimGuarantee (46 plies at blitz pace, with noise and bursts),
// one of the two-lifts misreads: Qd4xg7 (the queen resting on e5 on its
// way) taken at once by Kxg7, the scan never seeing the queen on g7, then
// f5 and Kf6. The four presses' board was read as the shortest line, Qf6+
// Kxf6 f5 (a capture and a recapture on f6, where the king ended), three
// plies: the fourth press became a clock_without_move crit, and the record
// was silently wrong. With fewer plies than the presses heard, the
// rereading search looks on for a line of the presses' length from the
// same ply (Qxg7 Kxg7 f5 Kf6).
func TestCaptureRecaptureNotOnAThirdSquare(t *testing.T) {
	g := handsim.Play(&rapidReplay{vals: []int{
		3, 0, 45, 2, 34, 110, 0, 98, 10, 3, 1, 6, 2, 3, 2, 1, 140, 89, 1, 384, 2, 1, 3, 5, 2, 49, 2, 8, 54, 10, 197, 1, 0, 78,
		18, 0, 3, 20, 0, 91, 4, 7, 1, 11, 0, 106, 2, 88, 315, 35, 129, 11, 34, 47, 1, 1, 67, 33, 400, 16, 0, 1, 12, 1, 22, 2,
		2, 6, 56, 2, 0, 7, 1, 78, 8, 5, 1, 3, 12, 1, 1, 98, 42, 246, 0, 123, 1, 1, 924, 52, 1, 3, 65, 270, 6, 8, 0, 3, 1647,
		32, 57, 43, 1, 2, 6, 28, 1, 348, 86, 13, 17, 52, 0, 8, 5, 89, 1, 3, 48, 1, 98, 15, 27, 1, 25, 9, 3, 66, 4, 41, 88, 6,
		3, 78, 1, 0, 271, 67, 200, 6, 1, 49, 41, 2, 1, 12, 75, 3, 69, 19, 2, 2, 2, 36, 45, 0, 65, 3, 44, 40, 8, 107, 18, 1, 0,
		47, 3, 1, 6, 3, 54, 0, 1, 93, 59, 1, 11, 400, 58, 122, 3, 65, 64, 2, 11, 65, 63, 6, 19, 1, 82, 37, 8, 458, 61, 2, 4,
		3, 4, 112, 35, 18, 1300, 1, 0, 0, 84, 0, 18, 90, 400, 76, 3, 1, 1248, 3, 113, 1, 3, 6, 1, 1, 26, 1, 49, 7, 80, 1, 914,
		7, 7, 29, 76, 1, 97, 203, 71, 29, 17, 0, 11, 2, 103, 0, 38, 23, 14, 35, 8, 1352, 0, 0, 7, 97, 2, 25, 55, 57, 1, 83,
		74, 50, 1, 23, 3, 2, 12, 1, 2, 0, 12, 1, 1, 3, 2, 29, 0, 11, 91, 84, 151, 5, 64, 1, 1, 56, 0, 105, 1, 0, 123, 24, 0,
		3, 3, 7, 103, 2, 40, 21, 79, 7, 2, 1, 4, 5, 12, 1, 1, 1, 15, 1, 1, 705, 22, 13, 1, 3, 6, 39, 0, 6, 21, 0, 1, 95, 3,
		34, 116, 0, 100, 6, 4, 86, 50, 2, 56, 400, 3, 112, 13, 4, 42, 1, 42, 42, 18, 63, 18, 1, 185, 0, 4, 1, 29, 2, 2, 311,
		12, 5, 18, 62, 0, 11, 100, 38, 0, 2, 36, 2, 30, 0, 0, 480, 84, 1, 3, 11, 51, 42, 23, 1, 72, 2, 1, 85, 59, 4, 0, 53, 6,
		665, 12, 1, 50, 96, 42, 46, 53, 28, 1058, 69, 1, 6, 50, 0, 0, 37, 1, 47, 22, 25, 22, 30, 35, 0, 83, 93, 0, 1, 29, 26,
		8, 0, 0, 1, 1, 1, 0, 39, 94, 47, 172, 30, 62, 56, 2, 35, 15, 56, 44, 79, 63, 1700, 22, 38, 99, 1, 3, 19, 1, 0, 1, 0,
		102, 104, 29, 28, 1, 400, 99, 2, 100, 6, 20, 62, 97, 17, 780, 3, 0, 53, 1, 2, 61, 1, 0, 0, 188, 0, 52, 2, 19, 39, 3,
		45, 3, 99, 0, 0, 29, 181, 85, 15, 15, 0, 0, 35, 2, 1, 81, 0, 43, 4, 0, 5, 14, 1, 2, 237, 76, 5, 3, 0, 0, 250, 6}},
		handsim.Options{Start: simStart, Plies: 46, Pace: handsim.Blitz, Noise: true, Bursts: true})
	out := followSim(t, g, false)
	if !out.exact() {
		t.Fatalf("%s", out)
	}
	for _, a := range out.alerts {
		if a.Kind == game.KindClockWithoutMove {
			t.Fatalf("a clock_without_move for a press that completed a move\n%s", out)
		}
	}
}
