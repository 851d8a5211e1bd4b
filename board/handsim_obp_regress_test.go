package board_test

import (
	"testing"

	"github.com/dgtbridge/dgtbridge/internal/handsim"
)

// TestOBPCannonRestsWhileCapturing: the shrunk case of
// TestHandsimOBPGuarantee (6 plies of xiangqi on a board that senses only
// occupancy): a cannon slid across points to its capture, the captured
// piece lifted after the cannon and before it rested on its way. The
// translator named the piece put on the resting point after the last piece
// lifted, the captured one: the board read a piece of the wrong side
// there, and the game's last ply was never recorded, with no alert but
// displaced_pieces. The piece that rests is of the side that did not move
// last.
func TestOBPCannonRestsWhileCapturing(t *testing.T) {
	r := &replayRand{vals: []int{96, 5, 0, 92, 1, 1, 386, 51, 8, 0, 3, 2, 0, 91, 2, 119, 97, 15, 1, 0, 3500, 4, 15, 8, 135, 0, 175, 135, 32, 10, 4, 1, 1, 14, 34, 43, 0, 2, 174, 3, 0, 1, 53, 15, 5, 53, 1, 11, 1, 0, 0, 1, 107, 0, 12, 97, 1, 13, 77, 0, 2}}
	g := handsim.Play(r, handsim.Options{Start: simStart, Plies: 6, Pace: handsim.Rapid, Xiangqi: true, Occupancy: true})
	if out := followOBP(t, g, obpRuleSet(handsim.Rapid)); !out.exact() {
		t.Fatalf("%s", out)
	}
}

// TestOBPCannonRestsTwiceWhileCapturing: game 47 of the OBP soak (a board
// that senses only occupancy): a cannon slid b7-b5-b4-b0 to its capture,
// resting twice, the captured horse lifted before the first rest. The
// first rest counted as the end of the cannon's move, so the second was
// named after the other side: the horse stood on b4, the cannon vanished,
// and the record was lost a few plies later. A rest leaves the
// captured piece in the hand: no move ended.
func TestOBPCannonRestsTwiceWhileCapturing(t *testing.T) {
	g, o := obpSoakGame(47)
	if out := followOBP(t, g, obpRuleSet(o.Pace)); !out.exact() {
		t.Fatalf("%s", out)
	}
}

// TestOBPBlitzExchangeBetweenTicks: a case of TestHandsimOBPGuarantee
// (43 plies at blitz pace, sensor chatter): a chariot's move (a9a7) was
// pressed, and the opponent's hand came 290 ms later, 40 ms after the
// press's window fell due and before the next tick. Taken for a burst of
// queued lines, the press was left unjudged while the hands went on
// (a4a5 a7a5 b4b1 a5a7, each pressed, the board never still for the
// 500 ms a settled read needs), and the five plies were read at the end
// as the three of a shorter line (a9a4 b4b1 a4a7), two presses said to be
// without a move: the record silently differed. A window that falls due
// between two ticks is no burst.
func TestOBPBlitzExchangeBetweenTicks(t *testing.T) {
	r := &rapidReplay{vals: []int{
		31, 12, 1377, 65, 0, 2, 2, 8, 150, 64, 16, 497, 0, 11, 75, 15, 0, 59, 0, 1, 38, 1, 17, 85, 7, 5, 78, 36, 3,
		45, 1, 1241, 85, 1, 49, 35, 0, 0, 42, 115, 0, 28, 15, 3, 0, 302, 11, 159, 54, 2, 14, 24, 21, 1, 226, 6, 2, 8,
		3, 0, 10, 43, 1, 1, 11, 1, 66, 0, 3, 1, 1, 10, 44, 73, 2, 17, 1, 4, 0, 74, 0, 3, 3, 1, 31, 53, 27, 1118, 83,
		1, 25, 35, 29, 42, 7, 1155, 17, 1, 4, 1, 43, 16, 0, 74, 17, 350, 71, 2, 109, 36, 102, 3, 104, 0, 236, 2, 0,
		96, 51, 1, 52, 89, 0, 0, 58, 61, 70, 360, 99, 2, 6, 39, 78, 8, 2, 0, 0, 1, 0, 99, 1, 0, 0, 43, 86, 15, 2, 0,
		0, 3, 20, 1, 110, 68, 158, 26, 1, 25, 1, 22, 0, 34, 50, 3, 1, 8, 272, 2, 1, 20, 0, 2, 99, 98, 25, 0, 1, 0,
		24, 101, 0, 8, 339, 0, 56, 28, 1, 72, 2, 20, 12, 49, 210, 35, 43, 17, 381, 88, 0, 12, 0, 0, 1, 99, 1, 102, 1,
		26, 139, 21, 6, 0, 106, 5, 0, 468, 10, 1, 22, 1, 0, 1, 0, 15, 2, 0, 1, 13, 2, 85, 9, 127, 6, 4, 40, 0, 2, 32,
		1, 0, 0, 29, 60, 150, 95, 2, 136, 9, 146, 39, 0, 0, 37, 9, 1, 35, 0, 6, 99, 57, 162, 0, 10, 0, 0, 24, 144,
		99, 1, 3, 21, 0, 14, 0, 377, 37, 1, 2, 1, 0, 0, 50, 5, 20, 394, 7, 2, 93, 1, 1, 1, 1, 0, 57, 11, 70, 59, 1,
		7, 3, 0, 48, 9, 18, 390, 0, 56, 2, 6, 19, 200, 41, 1, 20, 110, 61, 11, 0, 1, 6, 1, 23, 0, 3, 82, 64, 1, 14,
		1, 748, 2, 6, 19, 60, 1, 1, 99, 9, 127, 1, 1, 47, 2, 7, 35, 2, 48, 44, 13, 1, 28, 0, 92, 27, 0, 0, 0, 2, 14,
		53, 150, 9, 7, 7, 3, 41, 2, 1, 1, 5, 0, 1, 258, 0, 57, 99, 1, 1226, 0, 4, 32, 83, 2, 100, 400, 99, 9, 3, 13,
		0, 2, 78, 359, 16, 9, 0, 207, 68, 1, 106, 0, 31, 8, 61, 52, 4, 5, 10, 2, 1, 52, 189, 6, 81, 5, 1001, 1, 0, 2,
		0, 1, 73, 107, 18, 1, 1, 6, 0, 2, 7, 8, 1, 52, 380, 1, 78, 36, 10, 1, 53, 1, 76, 0, 1, 87, 399, 90, 9, 1, 60,
		2, 3, 10, 85, 40, 1, 25, 2, 149, 97, 1, 90, 18, 2, 0, 18, 18, 52, 22, 37, 1, 16, 47, 1, 1, 4, 0, 2, 0, 80,
		179, 0, 4, 40, 1, 0, 0, 4, 100, 0, 0, 49, 6, 0, 4, 75, 21, 39, 3, 13, 3, 1309, 80, 0, 1, 13, 1, 3, 40, 82, 6,
		53, 6, 7, 414, 86, 1, 1, 33, 6, 1, 4, 4, 28, 24, 1, 10, 157, 6, 12, 77, 5, 30, 37, 58, 83, 0, 37, 0, 110, 4,
		3, 1, 2, 0, 12, 18, 4, 13, 3, 10, 14, 4, 3, 0, 14, 1, 1, 8, 3, 0, 10, 0, 1, 13, 16, 12, 15, 9, 5, 6, 13, 1,
		17, 13, 13, 5, 14, 3, 1, 5, 11, 3, 1, 11, 11, 9, 4, 0, 1, 2, 10, 13, 18, 8, 1, 16, 6, 4, 18, 2, 12, 6, 0, 9,
		8, 4, 0, 3, 5, 12, 10, 7, 11, 3, 16, 0, 15, 0, 8, 9, 14, 8, 2, 15, 16, 0, 1, 9, 15, 0, 3, 0, 3, 6, 2, 3, 8,
		0, 4, 3, 1, 2, 5, 3, 0, 11, 7, 16, 6, 0, 0, 0, 0, 1, 3, 6, 0, 1, 13, 9, 9, 2, 7, 4, 12, 1, 0, 17, 2, 1, 0, 8,
		18, 12, 14, 16, 10, 14, 5, 0, 13, 13, 3, 3, 2, 18, 13, 18, 13, 16, 13, 7, 1, 7, 0, 1, 1, 0, 0, 3, 1, 3, 3,
		17, 18, 0, 0, 2, 3, 0, 4, 3, 3, 0, 1, 2, 0, 11, 6, 6, 16, 1, 17, 3, 1, 5, 13, 15, 2, 2, 2, 0, 1, 2, 6, 7, 2,
		13, 8, 14, 0, 7, 15, 5, 0, 1, 2, 4, 13, 0, 14, 0, 0, 4, 15, 5, 12, 1, 6, 5, 3, 0, 13, 7, 1, 11, 6, 0, 0, 4,
		12, 8, 1, 11, 13, 5, 0, 13, 13, 2, 17, 6, 13, 4, 11, 2, 3, 9, 15, 16, 2, 5, 0, 8, 10, 0, 11, 5, 18, 16, 0, 7,
		10, 1, 3}}
	g := handsim.Play(r, handsim.Options{Start: simStart, Plies: 43, Pace: handsim.Blitz, Xiangqi: true, Noise: true})
	if out := followOBP(t, g, obpRuleSet(handsim.Blitz)); !out.exact() {
		t.Fatalf("%s", out)
	}
}

// TestOBPRecaptureOfAPieceAtRest: game 130 of the OBP soak (blitz, a
// board that senses only occupancy): a chariot moved i0i5 and was
// pressed; the opponent's chariot took it from i6 at once, lifted 230 ms
// after the press and the chariot of i5 30 ms later, before the press's
// window fell due. Seen then (i5 and i6 empty, the capturer in the air),
// i0i5 was not read as shown, the piece put on i5 having been reported
// before the press (on a scanning board, a slide's resting square): the
// move was taken for i0i6, taking the capturer itself, and the record
// was lost (record_lost). An OBP board reports each lift and
// put at once: the piece stood on i5 at the press, and the opponent's
// hand lifting it is evidence that the move stood.
func TestOBPRecaptureOfAPieceAtRest(t *testing.T) {
	g, o := obpSoakGame(130)
	if out := followOBP(t, g, obpRuleSet(o.Pace)); !out.exact() {
		t.Fatalf("%s", out)
	}
}

// TestOBPPressJudgedWithoutAScan: a case of TestHandsimOBPGuarantee on a
// board that names its pieces (16 plies at blitz pace, sensor chatter):
// the first ply's cannon (h2h9) stood on the board 270 ms before its
// press, and the opponent's hand touched a pawn 270 ms after the press,
// inside the 275 ms a scanning board's press waits for its scan. The
// board having changed since the press, the press waited for a settled
// board, which the next four plies, each pressed, never left for 500 ms;
// read at the end, the cannon's b2b1 and b1b9 were one move, b2b9, and
// the record silently one ply short. An OBP board has no scan: its press
// is judged on what was reported before it.
func TestOBPPressJudgedWithoutAScan(t *testing.T) {
	r := &rapidReplay{vals: []int{
		8, 1, 16, 1, 1, 15, 0, 2, 15, 1, 44, 261, 74, 81, 3, 1, 71, 0, 178, 2, 1, 2, 1, 1, 0, 46, 17, 0, 15, 98, 63,
		20, 5, 1, 10, 50, 1, 2, 8, 0, 1, 151, 62, 17, 83, 3, 2, 44, 0, 62, 326, 31, 26, 22, 0, 31, 0, 22, 53, 38,
		391, 3, 18, 18, 916, 82, 28, 0, 1, 56, 9, 0, 160, 51, 1, 16, 1021, 93, 1, 16, 0, 10, 42, 12, 228, 99, 2, 73,
		38, 0, 6, 30, 12, 20, 18, 1, 91, 317, 36, 0, 40, 33, 1270, 53, 1, 10, 12, 1, 71, 2, 81, 0, 91, 52, 171, 1,
		368, 41, 37, 8, 29, 0, 8, 41, 2, 0, 7, 6, 6, 2, 1, 2, 0, 48, 2, 23, 1, 29, 1, 70, 22, 0, 1, 0, 43, 150, 6, 1,
		40, 15, 3, 1, 1, 108, 2, 1, 1, 0, 1, 1, 10, 64, 14, 12, 78, 188, 0, 3, 99, 1, 39, 15, 0, 3, 4, 1, 3, 0, 0,
		31, 2, 142, 0, 1213, 73, 1, 74, 1, 54, 40, 27, 11, 68, 1, 30, 35, 50, 2, 34, 34, 17, 1, 0, 3, 1, 2, 0, 8, 13,
		324, 1, 7, 16, 3, 3, 7, 1, 11, 1, 2, 0, 17, 1, 1, 5, 7, 3, 4, 13, 3, 18, 1, 11, 0, 4, 15, 18, 14, 15, 3, 3,
		3, 3, 1, 15, 5, 17, 8, 15, 14, 0, 18, 3, 5, 4, 2, 4, 15, 0, 0, 14, 11, 7, 11, 17, 0, 0, 0, 8, 6, 18, 5, 12,
		9, 6, 9, 10, 8, 18, 18, 5, 4, 1, 0, 0, 9, 16, 2, 0, 6, 18, 2, 0, 18, 2, 1, 6, 0, 10, 1, 9, 18, 5, 17, 1, 0,
		8, 17, 1}}
	g := handsim.Play(r, handsim.Options{Start: simStart, Plies: 16, Pace: handsim.Blitz, Xiangqi: true, Noise: true})
	if out := followOBP(t, g, obpRuleSet(handsim.Blitz)); !out.exact() {
		t.Fatalf("%s", out)
	}
}

// TestOBPChatterNotACapture: a case of TestHandsimOBPGuarantee (2 plies,
// a board that senses only occupancy, sensor chatter): Red's pawn, just
// moved to e4, chattered while Black held his cannon from h7 on its way
// to take the horse of h0 (lifted 5 ms after the pawn's chatter began).
// The translator read the pawn put back as the cannon taking it, and the
// cannon landing on h0 as the horse put back: the record showed an
// illegal move (Ch7xe4) for the capture played. Given the game's rules,
// the translator reads a capture only where the piece in the hand may
// take: a cannon of h7 cannot take on e4, so the pawn was put back.
func TestOBPChatterNotACapture(t *testing.T) {
	r := &rapidReplay{vals: []int{60, 41, 15, 32, 1, 0, 9, 0, 1, 1, 7, 5, 0, 104, 1, 16, 174, 30, 187, 2, 5, 1, 564, 11, 6, 381, 4, 15, 0, 0, 14, 2, 15, 6, 0, 1, 0, 13, 2, 3, 12, 0, 0, 4, 9, 1, 16}}
	g := handsim.Play(r, handsim.Options{Start: simStart, Plies: 2, Pace: handsim.Rapid, Xiangqi: true, Occupancy: true, Noise: true})
	if out := followOBP(t, g, obpRuleSet(handsim.Rapid)); !out.exact() {
		t.Fatalf("%s", out)
	}
}

// TestOBPChatterDuringACapture: a case of TestHandsimOBPGuarantee (1 ply at
// blitz pace, a board that senses only occupancy, sensor chatter): Red's
// cannon took the horse of b9 (the horse lifted first, the cannon resting
// on b3 on its way), and the chariot of a0 chattered just before the
// cannon landed. The translator took the last piece of Red's lifted, the
// chariot, for the capturer: the move was never read. Of the pieces in the
// hand, the capturer is one the rules let take there: the chariot of a0
// cannot take on b9.
func TestOBPChatterDuringACapture(t *testing.T) {
	r := &rapidReplay{vals: []int{0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 7, 11, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}}
	g := handsim.Play(r, handsim.Options{Start: simStart, Plies: 1, Pace: handsim.Blitz, Xiangqi: true, Occupancy: true, Noise: true})
	if out := followOBP(t, g, obpRuleSet(handsim.Blitz)); !out.exact() {
		t.Fatalf("%s", out)
	}
}

// TestOBPCaptureWhileASensorChatters: a case of TestHandsimOBPGuarantee
// (2 plies at blitz pace, a board that senses only occupancy, sensor
// chatter): Red's cannon took the horse of b9 while the advisor of d0
// chattered, still up when the cannon landed. The translator counted a
// move as ended only once the hand was empty, so Black's chariot taking
// the cannon next was read as Red's cannon put back, and the reply never
// recorded. A capture ends the move.
func TestOBPCaptureWhileASensorChatters(t *testing.T) {
	r := &rapidReplay{vals: []int{0, 0, 2, 0, 3, 7, 109, 2, 12, 1, 90, 7, 70, 11, 476, 79, 51, 59, 1, 4, 84, 1, 1, 2, 56, 1, 2, 0, 3, 1, 1, 15, 0, 0, 17, 0, 12, 3, 11, 15, 0, 5, 7, 12, 11, 0, 8, 5, 16, 5}}
	g := handsim.Play(r, handsim.Options{Start: simStart, Plies: 2, Pace: handsim.Blitz, Xiangqi: true, Occupancy: true, Noise: true})
	if out := followOBP(t, g, obpRuleSet(handsim.Blitz)); !out.exact() {
		t.Fatalf("%s", out)
	}
}

// TestOBPChatterWhileACannonRests: a case of TestHandsimOBPGuarantee (3
// plies, a board that senses only occupancy, sensor chatter): Red's cannon
// went h2-h3-h4-h9 to take the horse, resting twice, and Black's chariot,
// just moved to b9, chattered between the rests. Asked whether the cannon
// could take on b9, the rules were asked from h3, where the record has no
// piece: they could not tell, and the chatter was read as the cannon's
// capture (an illegal move for the capture played). A resting piece is
// asked about from the point it came from: a cannon of h2 cannot take on
// b9.
func TestOBPChatterWhileACannonRests(t *testing.T) {
	r := &rapidReplay{vals: []int{14, 0, 0, 26, 0, 3, 17, 69, 6, 45, 7, 58, 2, 2, 3, 34, 123, 1, 0, 40, 1, 9, 29, 6, 1, 0, 4, 117, 2, 252, 90, 3, 2, 2, 780, 7, 5, 678, 1, 8, 1, 4, 2, 0, 0, 18, 17, 1, 8, 14, 17, 4, 17, 5, 2, 1, 18, 17, 10, 12, 7, 18, 2, 8, 10}}
	g := handsim.Play(r, handsim.Options{Start: simStart, Plies: 3, Pace: handsim.Rapid, Xiangqi: true, Occupancy: true, Noise: true})
	if out := followOBP(t, g, obpRuleSet(handsim.Rapid)); !out.exact() {
		t.Fatalf("%s", out)
	}
}
