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
