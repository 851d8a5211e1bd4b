package board_test

import (
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/internal/handsim"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// The shrunk cases of TestHandsimTeamGuarantee where a dropped piece no
// scan saw was read as a kind the known pocket held.

// teamDropUnseenWant checks a match where board "from" dropped a piece no
// scan saw at ply ply (1-based) and the opponent took it at once, both
// boards reading the same kind wrongly (the wrong piece went to the
// partner board, which then dropped the right piece from a pocket that
// lacked it): every difference is covered, and board "to" (the partner
// board) has an ambiguous_move warning at its ply that names the drop.
func teamDropUnseenWant(t *testing.T, tm handsim.TeamMatch, to, ply int, drop string) {
	t.Helper()
	if got := tm.Boards[to].Plies[ply-1].UCI; got != drop {
		t.Fatalf("board %d ply %d is %s, not the %s of the case (the generator changed)", to, ply, got, drop)
	}
	out := followTeam(t, tm)
	if out.stuck() || out.unseenStuck(0) || out.unseenStuck(1) {
		t.Fatalf("a difference no open alert covers: %s", out.brief())
	}
	found := false
	for _, a := range out.boards[to].alerts {
		if a.Kind == game.KindAmbiguous && a.Ply == ply && strings.Contains(a.Message, "did not show which piece was dropped") {
			found = true
		}
	}
	if !found {
		t.Errorf("board %d: no ambiguous_move at ply %d naming the unseen drop: %s", to, ply, out.brief())
	}
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
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
