package board_test

import (
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/internal/handsim"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// The shrunk cases of TestHandsimTeamGuarantee where a dropped piece no
// scan saw was read as a kind the known pocket held.

// teamDropUnseenWant checks a match where board "to" dropped, at ply ply
// (from 1), a piece whose kind the board did not show (taken at once, or
// the pocket it came from misread on the partner board): every
// difference is covered, and board "to" is exact or has an
// ambiguous_move warning at its ply that names the drop.
func teamDropUnseenWant(t *testing.T, tm handsim.TeamMatch, to, ply int, drop string) {
	t.Helper()
	out := followTeamCase(t, tm, to, ply, drop)
	if out.stuck() {
		t.Fatalf("a difference no open alert covers: %s", out.brief())
	}
	found := out.boards[to].exact()
	for _, a := range out.boards[to].alerts {
		if a.Kind == game.KindAmbiguous && a.Ply == ply && strings.Contains(a.Message, "did not show which piece was dropped") {
			found = true
		}
	}
	if !found {
		t.Errorf("board %d: no ambiguous_move at ply %d naming the unseen drop: %s", to, ply, out.brief())
	}
}

// TestTeamDropUnseenKindFromAWrongPocket: the shrunk case of
// TestHandsimTeamGuarantee (36 plies a board, blitz). On board B White
// drops a bishop on b6 and Black takes it at once (a7xb6) before any scan
// saw it; the pocket held a bishop and pawns, and the tracker chose the
// pawn (with an ambiguous_move there), so board A's pocket got a pawn
// for the bishop. White on board A then drops that bishop on b6 and
// Black takes it at once too. The scan saw the bishop put down and the
// tracker read B@b6 (a piece the known pocket lacked); when board B's
// capture reached the match as a pawn, the pockets were replaced
// (Repocket), B@b6 no longer played and was taken back, and the board was
// read again as P@b6 axb6, the one line the pocket allowed, with the
// touches that showed the bishop gone and nothing said. A drop whose
// piece the touches of the turn do not show where the record puts it is
// now named to the arbiter (ambiguous_move at its ply: the kind the
// record has, the pocket's other kind or that it held no other).
func TestTeamDropUnseenKindFromAWrongPocket(t *testing.T) {
	tm := playTeam(t, &rapidReplay{vals: []int{
		0, 2, 7, 8, 0, 85, 0, 0, 4, 13, 8, 0, 0, 193, 70, 0, 413, 9, 0, 0, 0, 78, 0, 1, 0, 0, 140, 65, 5, 25, 2, 93, 44, 19, 0,
		574, 10, 60, 0, 71, 13, 1, 43, 21, 0, 10, 239, 107, 389, 71, 2, 2, 7, 9, 48, 2, 1, 30, 13, 34, 583, 0, 152, 6, 0, 99,
		0, 14, 1, 306, 2, 23, 15, 60, 2, 5, 246, 6, 8, 4, 36, 1157, 2, 38, 0, 3, 54, 61, 2, 22, 29, 354, 1, 1, 20, 5, 0, 2, 15,
		1, 17, 1, 62, 2, 0, 225, 14, 11, 249, 0, 3, 33, 110, 1, 4, 11, 226, 53, 1, 549, 14, 1, 6, 31, 304, 0, 1, 2, 30, 22, 23,
		83, 99, 17, 0, 4, 3, 86, 0, 98, 38, 82, 31, 1386, 31, 31, 1, 1, 7, 2, 107, 2, 1, 31, 1, 3, 64, 12, 5, 11, 86, 110, 0,
		13, 305, 99, 7, 1265, 1, 99, 7, 29, 2, 53, 1, 1, 240, 28, 143, 5, 2, 3, 0, 0, 3, 13, 16, 53, 4, 35, 100, 43, 14, 0, 18,
		15, 0, 2, 6, 0, 111, 6, 54, 39, 7, 1, 50, 1, 108, 26, 10, 1, 14, 26, 37, 37, 16, 57, 1, 21, 5, 1, 7, 4, 69, 781, 8, 1,
		1, 1, 8, 1, 7, 73, 1, 40, 64, 55, 23, 24, 1, 14, 30, 45, 288, 99, 56, 375, 21, 6, 95, 1, 20, 2, 37, 106, 2, 1, 13, 7,
		30, 0, 8, 14, 322, 1, 1, 2, 0, 24, 114, 1, 6, 166, 1, 86, 0, 1, 10, 1, 47, 3, 166, 384, 1, 56, 0, 1, 11, 1, 0, 6, 107,
		3, 57, 10, 4, 68, 208, 1, 13, 0, 7, 8, 0, 188, 1, 3, 5, 3, 7, 2, 48, 18, 3, 0, 51, 12, 0, 1, 35, 26, 0, 1, 11, 15, 14,
		8, 1, 1, 53, 47, 1, 58, 14, 31, 26, 136, 4, 5, 0, 0, 26, 9, 145, 1, 1, 7, 1, 1, 136, 96, 177, 0, 1, 495, 53, 200, 0,
		52, 1, 0, 0, 243, 57, 35, 241, 38, 1502, 22, 162, 1, 1, 13, 3, 19, 54, 3, 1, 18, 1, 0, 1, 24, 37, 1, 1, 82, 90, 1, 1,
		1, 289, 1, 6, 18, 97, 42, 99, 2, 73, 63, 0, 24, 49, 1, 1, 46, 1, 24, 0, 3, 0, 48, 40, 1, 55, 73, 1108, 2, 6, 7, 2, 7,
		67, 2, 22, 5, 3, 1, 13, 75, 1, 11, 14, 123, 2, 368, 33, 192, 29, 0, 3, 86, 89, 308, 91, 608, 5, 24, 127, 78, 2, 0, 68,
		86, 27, 132, 2, 468, 6, 1140, 4, 28, 64, 10, 1, 1, 0, 9, 88, 246, 1, 47, 7, 6, 12, 5, 9, 11, 5, 4, 5, 4, 18, 3, 5, 63,
		85, 5, 14, 55, 0, 26, 51, 2, 1, 2, 77, 1, 1, 6, 0, 27, 2, 2, 21, 2, 4, 0, 0, 36, 99, 2, 29, 39, 76, 50, 37, 38, 1, 1,
		1, 31, 79, 563, 1082, 36, 36, 45, 0, 76, 2, 19, 5, 1, 1, 3, 37, 7, 10, 1700, 1, 76, 2, 1, 4, 1, 5, 11, 79, 15, 1, 19,
		1, 0, 0, 1, 1, 8, 135, 92, 37, 74, 10, 0, 2, 140, 284, 1, 4, 0, 11, 2, 27, 8, 36, 365, 40, 144, 6, 42, 32, 94, 13, 44,
		1, 2, 27, 1, 2, 17, 13, 1006, 2, 20, 33, 93, 40, 6, 31, 9, 4, 99, 2, 73, 46, 6, 0, 0, 16, 8, 2, 0, 20, 393, 85, 0, 580,
		1, 111, 1, 2, 36, 33, 99, 1, 2, 82, 2, 53, 94, 53, 1, 67, 2, 221, 51, 61, 126, 13, 283, 3, 81, 18, 12, 0, 3, 0, 0, 65,
		33, 32, 21, 83, 1, 28, 63, 29, 84, 5, 150, 24, 71, 98, 94, 4, 85, 1, 1, 75, 29, 61, 398, 35, 8, 475, 64, 0, 2, 4, 1, 0,
		0, 11, 39, 29, 0, 2, 576, 10, 18, 62, 25, 1, 60, 1, 132, 17, 170, 0, 1, 0, 1, 79, 3, 2, 0, 44, 0, 12, 166, 32, 9, 10,
		41, 10, 1, 5, 1, 55, 3, 0, 91, 34, 99, 7, 0, 0, 1700, 1, 186, 0, 21, 1, 91, 44, 1, 9, 0, 14, 9, 22, 6, 32, 1, 0, 72, 0,
		48, 79, 99, 1, 70, 82, 49, 13, 1, 11, 0, 0, 0, 6, 1, 0, 5, 17, 150, 0, 26, 18, 119, 1, 3, 11, 0, 53, 0, 3, 95, 5, 1,
		302, 0, 100, 3, 43, 13, 41, 2, 0, 85, 102, 92, 488, 44, 2, 16, 22, 8, 5, 2, 0, 0, 1, 0, 42, 12, 0, 27, 41, 5, 6, 82,
		10, 44, 2, 5, 1, 383, 1, 40, 529, 3, 129, 4, 3, 1, 10, 1, 0, 27, 110, 299, 32, 3, 4, 28, 5, 5, 72, 5, 37, 52, 22, 0, 0,
		57, 3, 1, 2, 3, 40, 0, 2, 2, 6, 1, 29, 4, 11, 18, 138, 47, 7, 64, 4, 2, 1, 3, 35, 0, 11, 89, 400, 30, 31, 0, 219, 71,
		7, 5, 4, 11, 35, 1, 1, 1, 34, 0, 175, 78, 1, 1, 7, 3, 6, 104, 2, 1, 2, 12, 0, 11, 116, 69, 222, 22, 119, 24, 26, 0, 10,
		50, 95, 69, 34, 3, 3, 85, 46, 93, 735, 7, 10, 33, 86}}, handsim.TeamOptions{Start: simStart, Plies: 36, Pace: handsim.Blitz})
	teamDropUnseenWant(t, tm, 0, 13, "B@b6")
}

// TestTeamDropUnseenKnightFromAWrongPocket: the shrunk case of
// TestHandsimTeamGuarantee (19 plies a board, blitz, noise), the same on
// a knight: N@a3 taken at once on board B read as P@a3 (ambiguous
// there), then board A's N@b3 taken at once (c2xb3) read as P@b3, the
// only kind its pocket held, with nothing said, and later presses without
// a move. The drop is named (ambiguous_move at ply 6 of board A).
func TestTeamDropUnseenKnightFromAWrongPocket(t *testing.T) {
	tm := playTeam(t, &rapidReplay{vals: []int{
		342, 1192, 16, 0, 0, 8, 71, 0, 47, 0, 0, 23, 30, 0, 8, 0, 95, 0, 0, 3, 0, 0, 174, 8, 8, 0, 3, 143, 70, 8, 0, 0, 11, 0,
		0, 0, 55, 68, 0, 0, 15, 0, 0, 0, 60, 9, 8, 0, 0, 19, 99, 263, 70, 30, 1, 0, 0, 0, 0, 0, 33, 0, 0, 125, 579, 20, 0, 0,
		51, 1, 2, 0, 7, 88, 716, 2, 19, 2, 5, 0, 3, 0, 1, 0, 8, 3, 1700, 70, 10, 33, 1, 9, 26, 15, 0, 1, 1, 168, 1, 4, 1, 20,
		46, 24, 0, 4, 51, 18, 0, 98, 0, 7, 15, 0, 62, 17, 256, 942, 3, 2, 81, 1, 73, 90, 37, 87, 13, 36, 2, 0, 10, 1, 61, 33,
		301, 68, 54, 14, 17, 3, 7, 59, 0, 336, 1, 5, 3, 1, 6, 4, 9, 243, 1, 6, 71, 19, 5, 7, 12, 0, 67, 1, 42, 27, 7, 0, 5, 43,
		20, 59, 51, 1145, 0, 3, 3, 12, 1, 29, 6, 77, 1, 2, 74, 9, 21, 59, 57, 7, 0, 73, 30, 70, 1, 1, 14, 1, 44, 48, 0, 27, 8,
		2, 3, 11, 87, 1, 0, 1, 57, 0, 0, 1, 6, 13, 2, 0, 2, 43, 20, 2, 31, 303, 99, 20, 1, 7, 16, 1, 99, 3, 99, 1, 1140, 4, 20,
		5, 13, 78, 5, 72, 99, 0, 0, 88, 211, 14, 101, 4, 3, 99, 1, 17, 12, 91, 59, 92, 1, 0, 5, 23, 18, 2, 0, 159, 99, 41, 15,
		0, 1, 48, 2, 2, 30, 7, 15, 23, 1, 170, 5, 1, 7, 26, 2, 1, 105, 0, 85, 298, 30, 0, 17, 2, 10, 1, 7, 0, 42, 211, 2, 121,
		24, 2, 16, 14, 124, 15, 1, 92, 6, 12, 21, 1, 50, 2, 14, 74, 267, 43, 3, 19, 99, 1, 26, 107, 84, 17, 533, 0, 0, 0, 6,
		99, 1, 0, 4, 1, 103, 80, 1, 2, 10, 99, 17, 3, 1, 24, 22, 39, 1, 16, 5, 80, 1, 8, 13, 105, 0, 1, 17, 12, 8, 15, 5, 60,
		3, 99, 1, 7, 77, 2, 64, 5, 3, 69, 1, 0, 105, 1, 3, 2, 100, 50, 0, 7, 93, 0, 44, 0, 1, 0, 55, 0, 30, 34, 48, 1, 2, 87,
		29, 13, 26, 2, 69, 15, 99, 97, 0, 26, 1, 7, 9, 43, 16, 30, 12, 115, 39, 58, 3, 0, 15, 52, 2, 16, 0, 1, 1, 1, 0, 1, 1,
		0, 0, 0, 0, 1, 0, 1, 1, 1, 0, 0, 0, 1, 1, 0}}, handsim.TeamOptions{Start: simStart, Plies: 19, Pace: handsim.Blitz, Noise: true})
	teamDropUnseenWant(t, tm, 0, 6, "N@b3")
}

// TestTeamDropUnseenPutOrder: the shrunk case of TestHandsimTeamGuarantee
// (28 plies a board, blitz, noise). On board B Black drops a knight on
// h2, White's king takes it at once (Kxh2) before any scan saw it, and
// Black drops a pawn on c5: three presses, and the board shows the king
// moved and a pawn put down. The one line of two plies (P@c5, then Kh2)
// was taken, though the pawn was put down after the king was lifted: the
// drop went missing, the knight stayed in Black's pocket and the later
// plies were read wrong, with nothing said at the ply. A drop's hand now
// counts where its piece was put down in the order of the hands
// (liftOrderFits), so the line gives way to the three plies the presses
// heard, the drop among them.
func TestTeamDropUnseenPutOrder(t *testing.T) {
	tm := playTeam(t, &rapidReplay{vals: []int{
		251, 44, 11, 8, 0, 30, 0, 0, 0, 1, 1, 8, 0, 57, 0, 0, 28, 0, 7, 8, 0, 35, 0, 16, 39, 0, 3, 11, 0, 81, 2, 35,
		33, 8, 34, 2, 26, 333, 99, 63, 11, 24, 2, 84, 0, 57, 0, 0, 202, 20, 50, 1, 98, 6, 10, 0, 36, 212, 32, 15, 43,
		31, 3, 49, 0, 89, 41, 95, 1345, 25, 2, 389, 306, 95, 89, 1, 10, 4, 5, 1, 5, 203, 107, 0, 74, 3, 2, 0, 150,
		33, 2, 10, 1, 94, 107, 105, 0, 0, 438, 21, 13, 160, 224, 3, 0, 4, 12, 57, 2, 30, 7, 114, 17, 31, 0, 52, 2, 0,
		0, 1, 30, 3, 3, 1700, 3, 22, 62, 100, 96, 2, 2, 43, 120, 99, 113, 0, 1, 1, 6, 0, 13, 29, 1, 44, 1, 10, 23, 1,
		613, 1, 1, 0, 8, 49, 40, 1, 56, 2, 2, 104, 143, 0, 2, 14, 26, 3, 1, 3, 90, 1, 0, 17, 17, 99, 3, 10, 79, 7,
		82, 0, 42, 1, 17, 2, 0, 12, 99, 101, 14, 85, 0, 16, 31, 0, 87, 471, 3, 63, 16, 0, 11, 100, 10, 2, 1, 1, 0,
		63, 0, 98, 1, 78, 122, 1, 120, 0, 756, 0, 22, 29, 10, 38, 0, 10, 1, 118, 7, 0, 103, 1, 1, 0, 14, 0, 1, 9, 96,
		3, 1, 75, 12, 31, 88, 12, 88, 1, 0, 11, 32, 1, 2, 2, 1, 7, 2, 7, 36, 12, 1, 0, 23, 153, 23, 0, 14, 982, 2, 0,
		0, 57, 2, 2, 90, 235, 0, 32, 3, 1, 3, 0, 80, 5, 2, 20, 400, 90, 60, 4, 12, 2, 63, 39, 17, 94, 0, 23, 36, 6,
		1, 9, 0, 0, 0, 7, 1, 80, 0, 13, 1, 4, 87, 0, 0, 15, 1, 2, 0, 99, 40, 37, 0, 2, 71, 1, 116, 1, 11, 2, 0, 172,
		14, 80, 1, 1, 77, 1, 0, 5, 1, 2, 104, 1, 9, 0, 4, 95, 108, 3, 2, 97, 6, 4, 3, 62, 301, 17, 0, 9, 13, 1, 110,
		57, 91, 10, 3, 106, 496, 58, 16, 44, 1, 11, 16, 211, 0, 131, 0, 24, 0, 7, 41, 28, 50, 3, 805, 75, 822, 63, 0,
		1, 21, 5, 99, 7, 32, 0, 378, 96, 16, 29, 2, 16, 0, 2, 67, 1700, 1, 60, 86, 1, 4, 2, 95, 10, 1, 909, 392, 3,
		0, 0, 0, 57, 81, 0, 37, 4, 1, 15, 85, 0, 4, 3, 1, 2, 85, 110, 2, 0, 89, 6, 0, 10, 34, 129, 3, 7, 1400, 43,
		36, 1, 0, 6, 2, 0, 0, 0, 2, 1, 1, 4, 156, 2, 7, 2, 13, 3, 92, 13, 17, 23, 1, 4, 2, 104, 2, 0, 3, 84, 46, 0,
		13, 0, 894, 804, 1, 21, 0, 91, 2, 36, 115, 2, 71, 39, 11, 6, 0, 60, 64, 41, 2, 9, 87, 0, 15, 0, 58, 28, 2,
		35, 95, 3, 4, 15, 18, 23, 2, 37, 0, 16, 0, 2, 0, 237, 3, 27, 8, 982, 1, 14, 3, 0, 67, 2, 7, 60, 0, 29, 69,
		1043, 181, 1, 2, 92, 0, 1, 1, 98, 15, 2, 1, 0, 48, 2, 150, 100, 2, 1, 0, 68, 31, 2, 13, 36, 2, 92, 3, 66, 8,
		2, 0, 27, 0, 1, 3, 87, 26, 387, 3, 36, 0, 923, 2, 7, 27, 64, 0, 0, 95, 31, 38, 105, 0, 4, 97, 3, 4, 0, 10, 0,
		20, 1, 71, 60, 46, 52, 45, 4, 10, 0, 53, 219, 14, 37, 0, 7, 0, 9, 0, 8, 7, 62, 1, 69, 76, 6, 0, 1, 8, 1, 34,
		1, 1, 18, 6, 1, 46, 13, 3, 1, 383, 0, 2, 0, 12, 7, 159, 4, 1, 1, 70, 2, 0, 103, 1, 0, 400, 1, 6, 3, 8, 6, 2,
		92, 15, 12, 13, 28, 79, 0}}, handsim.TeamOptions{Start: simStart, Plies: 28, Pace: handsim.Blitz, Noise: true})
	out := followTeamCase(t, tm, 1, 20, "N@h2")
	if out.stuck() {
		t.Fatalf("a difference no open alert covers: %s", out.brief())
	}
	if b := out.boards[1]; len(b.got) < 21 || b.got[20] != "h1h2" || b.got[19][1] != '@' || b.got[19][2:] != "h2" {
		t.Errorf("board B: the drop on h2 and its capture are not read: %s", out.brief())
	}
}

// TestTeamDropHiddenByItsRecapture: the shrunk case of
// TestHandsimTeamGuarantee (23 plies a board, blitz, bursts). On board B
// Black drops a bishop on g5, White takes it (Bd2xg5) and Black retakes
// with the h6 pawn, all within one burst of reports and no scan seeing
// the bishop. The black pawn seen put on g5 by the recapture was taken for
// the dropped piece, so P@g5 went into the record as seen, with nothing
// said; the wrong piece went to board A. A drop whose square a later move
// of the same line fills with the same piece is now counted as unseen
// and named to the arbiter (ambiguous_move at its ply).
func TestTeamDropHiddenByItsRecapture(t *testing.T) {
	tm := playTeam(t, &rapidReplay{vals: []int{
		542, 1, 6, 8, 0, 7, 0, 0, 94, 0, 7, 0, 0, 17, 38, 0, 30, 0, 0, 14, 0, 34, 2, 58, 1, 73, 25, 1356, 9, 55, 2,
		3, 209, 29, 11, 6, 2, 74, 1, 0, 345, 5, 14, 59, 7, 1, 11, 65, 93, 0, 24, 53, 16, 5, 8, 0, 83, 1, 96, 170, 60,
		127, 2, 2, 4, 1, 14, 0, 2, 116, 83, 463, 415, 6, 0, 6, 90, 42, 1, 6, 2, 22, 2, 4, 0, 12, 92, 1, 2, 31, 219,
		9, 115, 867, 0, 14, 82, 2, 1, 1, 34, 36, 7, 1, 27, 1, 1, 203, 10, 14, 14, 12, 83, 0, 1, 97, 94, 7, 63, 1, 0,
		65, 400, 54, 35, 3, 4, 62, 1, 61, 1, 1, 22, 1, 13, 47, 1, 0, 14, 6, 31, 0, 110, 2, 98, 29, 1083, 86, 6, 72,
		41, 2, 86, 0, 69, 64, 34, 309, 44, 1, 5, 317, 0, 22, 59, 0, 68, 0, 49, 23, 134, 9, 2, 1, 12, 70, 23, 36, 21,
		2, 89, 4, 3, 13, 1, 3, 0, 122, 32, 0, 136, 70, 124, 34, 1, 1092, 58, 40, 61, 24, 12, 1, 101, 5, 1, 30, 1091,
		5, 2, 9, 0, 105, 0, 85, 3, 1, 216, 38, 0, 0, 1, 23, 1, 53, 98, 45, 7, 12, 2, 2, 3, 0, 33, 2, 12, 22, 0, 1,
		34, 20, 1, 35, 0, 3, 245, 10, 27, 0, 4, 14, 1, 1, 0, 0, 1, 1, 5, 27, 8, 28, 1, 8, 0, 40, 1, 1700, 59, 0, 494,
		1181, 23, 120, 1, 0, 85, 80, 0, 70, 72, 94, 2, 2, 50, 3, 3, 15, 0, 0, 86, 103, 331, 99, 1, 978, 11, 147, 0,
		0, 83, 87, 1, 0, 58, 5, 1, 43, 0, 40, 6, 0, 93, 127, 0, 19, 404, 8, 7, 0, 7, 1, 0, 42, 1, 0, 0, 13, 110, 35,
		4, 79, 1308, 1615, 1, 72, 50, 2, 0, 99, 0, 83, 104, 349, 8, 3, 128, 217, 12, 84, 0, 0, 1, 5, 12, 6, 1, 25,
		24, 3, 20, 74, 294, 0, 0, 734, 8, 92, 11, 7, 99, 53, 1, 58, 148, 0, 51, 14, 1, 3, 11, 2, 87, 0, 110, 1, 1, 0,
		385, 3, 82, 12, 26, 9, 1, 90, 1, 4, 13, 20, 0, 1, 1219, 45, 0, 7, 14, 94, 0, 100, 0, 0, 0, 7, 69, 61, 83,
		1066, 2, 11, 5, 1, 57, 119, 31, 0, 27, 1, 109, 48, 0, 1, 4, 70, 7, 1, 57, 9, 31, 85, 1700, 48, 119, 110, 34,
		0, 93, 1, 100, 28, 58, 3, 78, 2, 102, 6, 2, 3, 92, 4, 1, 55, 2, 19, 3, 25, 48, 64, 266, 28, 3, 59, 84, 2, 11,
		0, 6, 5, 2, 1, 4, 67, 52, 2, 40, 12, 67, 59, 75, 0, 3, 5, 176, 12, 1, 42, 0, 2, 73, 0, 19, 82, 12, 1, 3, 5,
		7, 1, 1, 0, 63, 166, 2, 7, 24, 5, 1, 29, 87, 333, 39, 12, 89, 72, 51, 6, 10, 34, 0, 19, 15, 0, 13, 131, 1,
		181, 1, 23000, 289, 66, 974, 51, 3, 2, 15, 450, 1150, 1200, 4, 0}}, handsim.TeamOptions{Start: simStart, Plies: 23, Pace: handsim.Blitz, Bursts: true})
	teamDropUnseenWant(t, tm, 1, 18, "B@g5")
}

// TestTeamDropInAFiveMoveBurst: the shrunk case of
// TestHandsimTeamGuarantee (22 plies a board, blitz). On board A Black
// plays Nh6, White Ng1, Black drops a knight on a6, White's rook takes it
// and Black's knight from b8 retakes, five presses within 1.6 s and the
// board never at rest long enough to be judged in between. The search
// goes four plies deep: the one line of four (Nh6 Ra6 Nxa6 Ng1, the
// knight from h3 lifted first but played last) was taken, the drop lost
// and a press left over (a false clock_without_move crit), with nothing
// said at the ply. On a drop board a sole line whose lifts came in
// another order, while more presses wait than it has plies, now gives
// way to a line one ply deeper than the search's bound: the record is
// exact, and the drop seen before the rook took it is not named as
// unseen (dropSeen).
func TestTeamDropInAFiveMoveBurst(t *testing.T) {
	tm := playTeam(t, &rapidReplay{vals: []int{
		111, 255, 0, 0, 0, 1, 3, 0, 38, 2, 70, 1549, 3, 0, 0, 0, 27, 0, 0, 0, 0, 1, 5, 1, 8, 0, 26, 0, 6, 0, 23, 17,
		88, 1, 78, 13, 87, 399, 1, 70, 0, 32, 1, 4, 6, 888, 13, 3, 4, 75, 0, 2, 40, 2, 38, 0, 1700, 1, 1, 14, 0, 1,
		1, 170, 94, 25, 5, 14, 74, 2, 0, 302, 14, 0, 7, 6, 73, 1, 1, 82, 164, 13, 3, 2, 27, 7, 4, 8, 1, 106, 110,
		238, 1, 1, 4, 4, 1, 20, 2, 1, 5, 98, 0, 85, 7, 808, 74, 211, 1, 74, 37, 0, 3, 7, 1, 2, 35, 3, 42, 6, 0, 18,
		4, 60, 1, 18, 0, 2, 5, 14, 134, 1, 6, 115, 86, 0, 131, 0, 1, 20, 1, 1, 1, 3, 33, 93, 2, 0, 40, 28, 3, 22, 89,
		0, 303, 4, 0, 0, 7, 3, 6, 2, 13, 4, 140, 59, 1, 28, 6, 336, 72, 4, 7, 80, 23, 1, 2, 160, 77, 79, 8, 92, 1,
		29, 81, 11, 17, 76, 2, 13, 3, 14, 91, 135, 2, 3, 39, 2, 14, 42, 60, 67, 48, 2, 1236, 10, 63, 862, 64, 77, 1,
		83, 50, 56, 3, 1, 2, 1095, 90, 1, 3, 0, 2, 2, 53, 141, 1, 0, 153, 13, 32, 2, 91, 5, 62, 1, 1, 4, 5, 6, 0, 2,
		0, 17, 64, 12, 5, 46, 335, 10, 2, 14, 10, 389, 94, 1367, 511, 44, 47, 2, 1, 0, 2, 1, 132, 6, 10, 0, 67, 9,
		11, 0, 1, 280, 23, 27, 92, 4, 0, 99, 56, 1, 13, 1, 5, 2, 0, 1, 4, 238, 13, 14, 12, 6, 30, 22, 95, 1320, 1308,
		77, 7, 8, 0, 5, 1, 0, 1, 34, 96, 7, 4, 13, 83, 2, 0, 400, 40, 123, 403, 0, 17, 0, 13, 10, 105, 3, 0, 1, 72,
		3, 52, 18, 82, 1, 3, 40, 1, 70, 32, 0, 0, 93, 122, 3, 167, 45, 99, 56, 2, 11, 1, 0, 1, 1, 0, 51, 3, 0, 24,
		106, 18, 5, 87, 0, 1, 9, 0, 110, 33, 15, 50, 57, 753, 0, 71, 24, 9, 17, 90, 1, 96, 92, 1, 1, 35, 70, 11, 80,
		20, 26, 44, 1, 19, 6, 1, 37, 13, 208, 1, 3, 11, 15, 1, 2, 26, 286, 62, 13, 114, 3, 1650, 94, 4, 86, 2, 5, 2,
		21, 6, 0, 0, 52, 2, 3, 0, 53, 6, 0, 1, 54, 15, 4, 5, 3, 9, 1, 0, 0, 4, 63, 27, 12, 1598, 2, 103, 3, 13, 1,
		61, 0, 22, 0, 5, 0, 6, 4, 2, 3, 908, 1, 45, 0, 38, 1, 2, 29, 266, 57, 22, 34, 8, 1, 27, 77, 3, 0, 180, 0, 67,
		12, 0, 31, 1700, 2, 21, 99, 1, 0, 2, 136, 55, 57, 175, 25, 22, 0, 0, 4, 2, 15, 0, 14, 3, 70, 3, 1, 1, 1, 0,
		38, 1452, 5, 24, 89, 125, 3, 1, 109, 9, 23, 49, 8, 23, 76, 0, 3, 20, 2, 15, 107, 338, 2, 3, 1, 1123, 7, 5, 2,
		8, 2, 2, 0, 91, 5, 0, 14, 4, 2, 0, 27, 3}}, handsim.TeamOptions{Start: simStart, Plies: 22, Pace: handsim.Blitz})
	out := followTeamCase(t, tm, 0, 20, "N@a6")
	wantTeamQuiet(t, out)
}

// TestTeamDropSeenBeforeTheBurst: the shrunk case of
// TestHandsimTeamGuarantee (31 plies a board, blitz). On board A Black
// drops a knight on d5 (seen there by the scan), White's bishop takes it
// (Bg2xd5), Black's pawn retakes (cxd5), White drops a pawn on c3 and
// Black's bishop takes it (Bb4xc3): five presses in 1.6 s, the bishop
// from g2 never seen at rest. The one line of three plies (Bxc3 Bxd5 cxd5,
// the bishop from b4 lifted last but played first) gave way to none of
// five: the search kept the first eight lines of five it met, all with
// Bxc3 first, and dropped them for their order, so the line of three went
// into the record, the drop lost and a press left over, with nothing said
// at the ply. The search now walks only lines whose lifts fit while it
// looks past such a line, and of the lines that fit prefers those whose
// drops were seen (the knight, not a bishop of the pocket): the record is
// exact with no alert.
func TestTeamDropSeenBeforeTheBurst(t *testing.T) {
	tm := playTeam(t, &rapidReplay{vals: []int{
		6, 0, 11, 8, 0, 0, 0, 0, 133, 7, 8, 0, 27, 348, 6, 21, 21, 240, 4, 28, 0, 5, 270, 6, 0, 9, 18, 0, 1, 1, 8, 1,
		9, 19, 30, 0, 11, 69, 2, 28, 0, 0, 29, 85, 1, 0, 2, 14, 1, 1, 207, 79, 18, 84, 0, 7, 0, 16, 19, 215, 0, 2,
		14, 0, 28, 307, 66, 0, 12, 99, 1, 74, 12, 1, 41, 32, 116, 1700, 0, 1, 3, 2, 1, 0, 1, 4, 196, 1, 108, 360, 2,
		0, 11, 68, 110, 0, 64, 51, 7, 101, 322, 50, 12, 45, 0, 1, 34, 16, 71, 33, 7, 91, 0, 10, 10, 1, 8, 8, 5, 117,
		8, 0, 3, 2, 9, 100, 12, 2, 29, 23, 14, 46, 197, 769, 14, 37, 0, 12, 14, 223, 2, 51, 175, 240, 18, 6, 15, 2,
		0, 0, 2, 1, 15, 21, 92, 0, 124, 44, 20, 0, 11, 59, 93, 1, 10, 96, 28, 150, 2, 70, 0, 110, 43, 1, 1, 43, 1461,
		199, 83, 8, 98, 1, 6, 4, 12, 13, 0, 24, 0, 3, 6, 0, 13, 245, 58, 1, 0, 80, 0, 10, 84, 15, 85, 1, 1, 1, 1, 16,
		1, 3, 148, 29, 13, 8, 5, 24, 20, 2, 14, 8, 175, 0, 53, 0, 0, 0, 27, 0, 12, 90, 28, 1, 5, 133, 4, 23, 1, 4,
		156, 28, 44, 24, 21, 1, 0, 0, 44, 0, 0, 2, 162, 1, 1, 1, 38, 0, 27, 1, 173, 0, 2, 451, 7, 6, 118, 1, 1, 30,
		1, 49, 6, 1, 1, 150, 1, 75, 0, 59, 301, 91, 1, 230, 642, 14, 2, 1, 1, 17, 18, 0, 9, 2, 1, 3, 81, 251, 0, 9,
		0, 1, 2, 92, 2, 3, 23, 2, 2, 23, 81, 981, 21, 193, 92, 12, 14, 1, 24, 24, 53, 122, 0, 0, 5, 2, 0, 0, 14, 1,
		8, 5, 27, 5, 32, 937, 5, 2, 84, 350, 5, 1, 1, 94, 16, 44, 0, 2, 2, 52, 0, 1, 2, 100, 14, 1, 98, 39, 85, 0, 3,
		31, 0, 42, 2, 2, 0, 2, 1, 1, 0, 34, 1, 23, 8, 374, 87, 0, 0, 35, 6, 25, 1, 8, 99, 2, 60, 13, 188, 1, 0, 78,
		49, 1, 56, 2, 14, 6, 84, 82, 7, 17, 1310, 1, 0, 2, 38, 22, 5, 1, 12, 58, 3, 0, 5, 12, 26, 3, 20, 8, 0, 15,
		129, 99, 113, 90, 4, 7, 1, 84, 1, 1, 2, 12, 1, 8, 187, 0, 1, 126, 3, 3, 1, 4, 1, 37, 67, 53, 11, 0, 108, 100,
		80, 7, 33, 1, 284, 84, 1, 1, 37, 50, 18, 52, 1, 46, 51, 368, 72, 0, 14, 2, 3, 41, 84, 1, 48, 94, 30, 22, 4,
		21, 0, 38, 0, 45, 4, 29, 1, 36, 1, 3, 48, 3, 15, 288, 28, 0, 7, 3, 99, 22, 4, 3, 185, 1, 30, 21, 2, 0, 31,
		49, 0, 0, 1657, 0, 29, 2, 3, 40, 0, 75, 12, 181, 1, 2, 0, 4, 15, 23, 2, 83, 16, 22, 66, 1, 0, 1, 6, 94, 0,
		67, 28, 12, 0, 0, 2, 127, 26, 789, 33, 56, 34, 1, 1, 62, 0, 2, 51, 0, 36, 25, 10, 24, 4, 31, 301, 1, 2, 13,
		74, 22, 63, 27, 7, 0, 0, 25, 2, 26, 5, 1, 65, 9, 13, 0, 7, 3, 1, 187, 71, 33, 2, 25, 1, 110, 337, 3, 129, 60,
		0, 52, 5, 2, 99, 0, 43, 90, 3, 35, 0, 4, 5, 6, 67, 1, 0, 49, 4, 23, 150, 35, 21, 59, 1, 81, 117, 42, 119, 13,
		383, 0, 3, 1, 1, 2, 7, 108, 131, 64, 2, 3, 3, 281, 8, 7, 3, 0, 9, 0, 99, 20, 6, 1, 26, 1700, 14, 45, 2, 8,
		65, 14, 1, 48, 1, 57, 363, 1, 15, 1, 93, 13, 45, 44, 8, 2, 7, 1, 70, 1, 1, 6, 16, 1, 66, 88, 15, 1, 3, 7, 6,
		1, 4, 38, 34, 11, 0, 49, 67, 2, 3, 13, 26, 43, 2, 2, 61, 0, 59, 147, 69, 83, 6, 27, 2, 0, 0, 1, 51, 1, 1, 0,
		1, 1, 0, 0, 0, 1, 1, 0, 110, 1, 1, 1, 0, 1, 0, 0, 0, 1, 0}}, handsim.TeamOptions{Start: simStart, Plies: 31, Pace: handsim.Blitz})
	out := followTeamCase(t, tm, 0, 22, "N@d5")
	wantTeamQuiet(t, out)
}

// TestTeamDropUnseenFromAnUnknownPiece: the ninth case go test plays of
// TestHandsimTeamGuarantee (25 plies a board, blitz, bursts). On board B
// White drops a pawn on h6, Black's knight takes it at once (Nxh6)
// before any scan saw it, and White drops a pawn on a6: three presses,
// and the board shows a knight moved and a pawn put down. The known
// pocket held one pawn (the second came from a capture on board A not
// reported yet), so no line of three plies played, and the one line of
// two (P@a6, then Nh6: the pawn put down after the knight was lifted) was
// taken with the drop lost and nothing said at the ply. When the search
// falls back on such a line, a drop board now also looks for a longer
// line whose lifts fit with one more piece of every kind in the pockets
// (fedFallback): the record is exact, and which piece went to h6 is named
// to the arbiter (no scan saw it).
func TestTeamDropUnseenFromAnUnknownPiece(t *testing.T) {
	tm := playTeam(t, &rapidReplay{vals: []int{
		0, 0, 12, 8, 0, 102, 0, 0, 6, 19, 8, 0, 66, 0, 0, 0, 352, 68, 0, 0, 0, 1, 4, 0, 3, 0, 0, 5, 0, 8, 0, 0, 8, 1,
		0, 0, 192, 70, 0, 8, 0, 33, 0, 0, 73, 7, 1430, 1, 0, 0, 68, 29, 0, 22, 0, 0, 14, 1640, 14, 8, 0, 5, 0, 0, 0,
		27, 0, 8, 0, 3, 2, 70, 24, 0, 8, 0, 1, 110, 0, 0, 60, 60, 60, 0, 0, 2, 2, 8, 0, 12, 0, 0, 122, 0, 189, 0, 0,
		3, 8, 2, 6, 77, 30, 0, 0, 47, 0, 3, 0, 8, 0, 5, 0, 0, 44, 1289, 7, 8, 0, 42, 0, 1, 0, 231, 13, 0, 13, 1, 0,
		0, 53, 0, 0, 127, 10, 1, 14, 58, 2, 0, 4, 1374, 184, 0, 59, 2, 5, 0, 2, 7, 6, 1, 3, 11, 7, 109, 3, 4, 1, 171,
		79, 28, 1, 95, 1, 91, 23, 36, 1, 20, 377, 5, 23, 0, 80, 7, 185, 3, 63, 2, 99, 1, 91, 2, 88, 1, 7, 110, 230,
		58, 1, 4, 1, 526, 1, 87, 2, 7, 51, 53, 158, 19, 1, 85, 250, 3, 139, 0, 1, 1, 4, 1, 1, 5, 3, 0, 27, 4, 4, 55,
		26, 1, 0, 4, 0, 22, 1, 18, 99, 29, 359, 15, 60, 11, 97, 2, 2, 9, 1, 76, 45, 26, 0, 1, 0, 130, 3, 4, 39, 1, 0,
		4, 6, 1, 1, 0, 14, 82, 56, 0, 5, 0, 71, 110, 2, 93, 155, 84, 1400, 488, 634, 51, 4, 3, 12, 100, 0, 1, 94, 1,
		0, 0, 280, 61, 124, 37, 54, 3, 17, 0, 1, 262, 0, 1, 142, 0, 90, 1, 29, 0, 14, 2, 99, 0, 43, 1, 4, 5, 15, 77,
		2, 32, 198, 24, 64, 2, 1, 9, 1, 110, 2, 1, 7, 18, 1, 519, 0, 40, 4, 0, 1, 26, 63, 0, 99, 5, 6, 0, 4, 64, 4,
		1, 0, 2, 42, 13, 2, 25, 17, 40, 329, 1, 65, 18, 12, 1, 60, 355, 1, 146, 51, 2, 23, 96, 13, 59, 0, 92, 11, 19,
		0, 3, 1, 0, 1, 3, 6, 1, 6, 1, 32, 96, 1, 1, 87, 1, 25, 0, 0, 34, 13, 210, 7, 2, 12, 3, 1, 18, 11, 0, 49, 41,
		477, 1490, 3, 7, 57, 2, 1, 9, 66, 128, 11, 11, 3, 180, 5, 1, 192, 6, 4, 4, 20, 0, 5, 10, 47, 1, 64, 87, 76,
		36, 9, 0, 4, 7, 88, 74, 1, 2, 1, 6, 2, 8, 1, 2, 39, 34, 2, 0, 1, 7, 63, 0, 5, 0, 0, 9, 6, 14, 34, 6, 0, 0, 0,
		110, 2, 2, 8, 38, 385, 71, 98, 4, 0, 1, 52, 6, 2, 27, 0, 11, 147, 5, 9, 1666, 26, 63, 7, 23, 2, 1, 13, 0, 21,
		7, 2, 52, 45, 1, 43, 1, 1, 44, 44, 22, 1, 1, 2, 42, 70, 1151, 1, 1, 1, 0, 5, 1, 6, 0, 3, 3, 348, 89, 53, 0,
		57, 27, 0, 29, 0, 34, 100, 3, 92, 3, 23, 874, 48, 2, 0, 0, 7, 0, 0, 1, 0, 1, 0, 12, 1, 24, 19, 3, 4, 77, 35,
		30, 82, 6, 5, 16, 54, 10, 1, 0, 2, 14, 1, 6, 0, 35, 0, 4, 2, 3, 14, 7, 3, 4, 22, 350, 0, 0, 21, 2, 79, 3, 57,
		46, 48, 27, 0, 1, 1, 1, 0, 1, 1, 0, 0, 1}}, handsim.TeamOptions{Start: simStart, Plies: 25, Pace: handsim.Blitz, Bursts: true})
	out := followTeamCase(t, tm, 1, 23, "P@h6")
	if out.stuck() {
		t.Fatalf("a difference no open alert covers: %s", out.brief())
	}
	if b := out.boards[1]; !b.exact() {
		t.Errorf("board B: %s", out.brief())
	}
}

// TestTeamDropWhenEveryShorterLineIsContradicted: the shrunk case of
// TestHandsimTeamGuarantee (36 plies a board, blitz, noise, bursts). On
// board B Black drops a pawn on b2 (put down first on c2 and moved on),
// White's bishop takes it at once (Bc1xb2), Black drops a pawn on a2,
// White's rook takes it (Rxa2) and Black's rook takes a knight (Rh5xg5):
// five plies in a burst, the pawn on b2 never seen. Every line of four
// plies that reaches the board starts with a move whose piece was lifted
// last, and the search took the first of them (Rxg5 first, the drop on b2
// lost) with an ambiguous_move that named the ply of the other drop, two
// plies after the first difference. When every line of a length is one
// the hands contradict while the presses say as many moves or more, a
// drop board now looks further as for a sole such line, and the alert of
// a drop's kind names the first ply of the lines: the record is exact.
func TestTeamDropWhenEveryShorterLineIsContradicted(t *testing.T) {
	tm := playTeam(t, &rapidReplay{vals: []int{
		179, 0, 12, 8, 0, 0, 0, 0, 0, 1700, 0, 0, 0, 6, 0, 0, 62, 0, 0, 81, 76, 7, 2, 0, 1, 3, 2, 5, 3, 4, 64, 1669,
		10, 2, 2, 2, 0, 2, 12, 110, 77, 1444, 12, 14, 1, 52, 335, 99, 1130, 1, 0, 35, 0, 41, 71, 9, 0, 3, 191, 10,
		33, 34, 83, 19, 42, 0, 1, 4, 17, 12, 6, 227, 0, 43, 1, 1, 1, 1, 100, 1, 1, 52, 18, 31, 400, 59, 6, 0, 23, 1,
		0, 214, 4, 0, 1, 41, 455, 99, 16, 2, 15, 6, 21, 1, 51, 383, 7, 30, 1590, 83, 20, 19, 0, 50, 148, 63, 3, 3,
		34, 6, 0, 1, 75, 4, 0, 0, 19, 1, 2, 6, 71, 25, 18, 22, 2, 55, 26, 68, 76, 5, 2, 0, 28, 2, 6, 91, 7, 2, 79, 0,
		278, 7, 2, 10, 140, 5, 2, 167, 6, 99, 135, 0, 0, 11, 66, 7, 2, 1, 0, 1, 2, 19, 86, 1, 63, 0, 3, 1, 9, 49,
		274, 34, 74, 1, 57, 0, 15, 2, 68, 2, 0, 104, 293, 80, 28, 846, 7, 1, 56, 30, 0, 12, 0, 15, 1, 291, 53, 150,
		45, 2, 29, 63, 77, 0, 72, 1256, 265, 262, 399, 61, 99, 14, 22, 2, 13, 6, 0, 97, 501, 7, 8, 93, 4, 11, 139,
		85, 76, 131, 15, 13, 1, 0, 49, 44, 23, 90, 12, 1, 5, 36, 26, 20, 68, 1, 0, 3, 108, 7, 6, 111, 1, 12, 7, 18,
		144, 1179, 45, 18, 99, 0, 5, 3, 0, 3, 318, 2, 29, 4, 15, 2, 5, 343, 81, 1, 91, 74, 1, 23, 46, 2, 15, 68, 24,
		27, 74, 0, 6, 7, 329, 34, 1, 24, 0, 12, 1, 1, 9, 11, 6, 0, 0, 94, 0, 72, 0, 63, 5, 77, 301, 1, 7, 17, 44, 1,
		7, 110, 44, 5, 8, 25, 2, 6, 5, 44, 1, 15, 100, 4, 2, 13, 110, 14, 18, 150, 603, 1700, 44, 9, 6, 10, 36, 5, 1,
		0, 1, 1, 0, 1, 2, 101, 1262, 0, 241, 1, 13, 0, 1, 0, 105, 0, 43, 18, 88, 3, 35, 0, 0, 40, 48, 24, 9, 0, 38,
		18, 46, 53, 3, 1, 2, 1, 136, 1341, 18, 0, 82, 37, 1, 12, 38, 103, 31, 13, 151, 58, 0, 2, 6, 1, 7, 0, 117, 79,
		10, 1, 18, 158, 36, 29, 25, 92, 90, 0, 20, 57, 0, 9, 58, 6, 55, 0, 435, 198, 0, 4, 66, 217, 99, 0, 68, 2,
		386, 47, 0, 9, 44, 0, 0, 63, 32, 112, 1, 26, 556, 61, 93, 31, 2, 7, 2, 1, 35, 30, 0, 26, 3, 96, 261, 67, 7,
		551, 1091, 68, 2, 1, 4, 0, 11, 100, 0, 77, 22, 56, 3, 3, 1, 1535, 14, 2, 63, 76, 81, 69, 0, 52, 1, 47, 2, 7,
		32, 1, 1, 46, 1, 26, 60, 0, 18, 6, 36, 1, 1, 4, 23, 2, 8, 13, 11, 49, 345, 3, 2, 67, 68, 1, 2, 80, 293, 99,
		86, 17, 36, 2, 55, 53, 37, 13, 7, 35, 5, 7, 7, 97, 1, 1, 67, 0, 0, 14, 14, 29, 2, 57, 23, 1, 41, 1, 11, 14,
		44, 22, 128, 3, 38, 26, 99, 210, 11, 0, 15, 104, 37, 27, 43, 0, 538, 378, 71, 62, 99, 2, 9, 1, 28, 1, 67, 67,
		12, 6, 3, 1, 1, 51, 0, 1, 30, 15, 26, 73, 44, 0, 7, 11, 1, 110, 2, 6, 46, 15, 1, 40, 280, 52, 70, 188, 38, 0,
		12, 3, 27, 63, 227, 0, 1, 2, 6, 0, 59, 51, 125, 99, 563, 1, 7, 54, 0, 7, 1, 20, 1, 8, 2, 0, 0, 2, 2, 1, 280,
		68, 29, 0, 6, 67, 824, 91, 8, 1, 95, 85, 10, 1, 21, 1, 65, 3, 11, 18, 1, 0, 6, 1400, 437, 15, 45, 3, 1, 59,
		64, 0, 4, 69, 92, 99, 102, 42, 1, 1, 25, 1, 3, 1, 144, 9, 61, 0, 31, 0, 0, 56, 7, 0, 6, 2, 8, 38, 96, 32, 0,
		2, 179, 2, 65, 161, 99, 21, 2, 3, 11, 64, 0, 17, 8, 0, 6, 1, 0, 1, 12, 9, 22, 1, 29, 5, 10, 0, 3, 56, 14,
		1635, 55, 164, 3, 61, 1, 33, 1, 31, 0, 4, 1, 1, 1, 2, 1, 0, 53, 54, 68, 3, 3, 81, 318, 65, 10, 100, 73, 63,
		20, 1, 0, 10, 30, 103, 1, 9, 41, 77, 2, 2, 1, 0, 145, 27, 17, 14, 46, 22, 99, 1, 73, 89, 99, 9, 1, 2, 5, 0,
		110, 4, 2, 0, 1, 39, 98, 47, 65, 55, 1, 1, 0, 1, 20, 0, 104, 11, 85, 97, 51, 4, 0, 52, 11, 5, 21, 42, 43, 67,
		110, 10, 28, 0, 0, 6, 16, 85, 269, 7, 3, 4, 3, 91, 0, 85, 27, 53, 0, 0, 46, 2, 22, 104, 34, 1, 46, 3, 981,
		1566, 48, 0, 6, 5, 4, 1, 1, 13, 77, 79, 1700, 99, 0, 0, 1, 0, 0, 1, 0, 1, 1, 1, 1, 0, 1, 0, 0, 0, 0, 0, 1, 1,
		0, 0, 1, 0, 1, 1, 0, 0, 1, 0}}, handsim.TeamOptions{Start: simStart, Plies: 36, Pace: handsim.Blitz, Noise: true, Bursts: true})
	out := followTeamCase(t, tm, 1, 24, "P@b2")
	if out.stuck() {
		t.Fatalf("a difference no open alert covers: %s", out.brief())
	}
	if b := out.boards[1]; !b.exact() {
		t.Errorf("board B: %s", out.brief())
	}
}
