package link

import "github.com/dgtbridge/dgtbridge/dgt"

// DetectOrientation recognises a start position (standard or Chess960:
// pawns on their second ranks, one piece on each back-rank square) in a
// dump and tells how the board is placed: Normal when White's
// pawns are on fields 48–55, Rotated when they are on fields 8–15. ok is
// false for any other position; the tracker then keeps what it knew.
func DetectOrientation(d dgt.BoardDump) (o dgt.Orientation, ok bool) {
	rank := func(first int, want func(dgt.PieceCode) bool) bool {
		for f := first; f < first+8; f++ {
			if !want(d.Fields[f]) {
				return false
			}
		}
		return true
	}
	white := func(c dgt.PieceCode) bool { return c >= dgt.WhitePawn && c <= dgt.WhiteQueen && c != dgt.WhitePawn }
	black := func(c dgt.PieceCode) bool { return c >= dgt.BlackPawn && c <= dgt.BlackQueen && c != dgt.BlackPawn }
	is := func(p dgt.PieceCode) func(dgt.PieceCode) bool { return func(c dgt.PieceCode) bool { return c == p } }
	switch {
	case rank(48, is(dgt.WhitePawn)) && rank(8, is(dgt.BlackPawn)) && rank(56, white) && rank(0, black):
		return dgt.Normal, true
	case rank(8, is(dgt.WhitePawn)) && rank(48, is(dgt.BlackPawn)) && rank(0, white) && rank(56, black):
		return dgt.Rotated, true
	}
	return dgt.Normal, false
}
