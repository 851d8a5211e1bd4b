package xiangqi

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
)

// TestCheckReasons: every illegal move gets the precise reason
// (the order is documented on Position.reason).
func TestCheckReasons(t *testing.T) {
	tests := []struct {
		name, fen, move string
		want            rules.Reason
	}{
		{"no piece", StartFEN, "e4e5", rules.ReasonNoPiece},
		{"not your turn", StartFEN, "b9c7", rules.ReasonNotYourTurn},
		{"own piece on target", StartFEN, "a0a3", rules.ReasonOwnPieceOnTarget},
		{"horse straight", StartFEN, "b0b1", rules.ReasonBadGeometry},
		{"horse leg", StartFEN, "b0d1", rules.ReasonBlocked},
		{"chariot through a piece", StartFEN, "a0a4", rules.ReasonBlocked},
		{"chariot diagonal", "5k3/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", "a0b1", rules.ReasonBadGeometry},
		{"cannon through a piece", StartFEN, "b2b8", rules.ReasonBlocked},
		{"cannon capture without screen", "5k3/9/9/9/9/9/9/1Cp6/9/3K5 w - - 0 1", "b2c2", rules.ReasonBadGeometry},
		{"cannon capture over two screens", "5k3/1n7/9/1p7/1p7/9/9/1C7/9/3K5 w - - 0 1", "b2b8", rules.ReasonBlocked},
		{"elephant across the river", "5k3/9/9/9/9/2B6/9/9/9/3K5 w - - 0 1", "c4e6", rules.ReasonBadGeometry},
		{"elephant eye", "5k3/9/9/9/9/9/3P5/4B4/9/3K5 w - - 0 1", "e2c4", rules.ReasonBlocked},
		{"elephant one step", StartFEN, "c0d1", rules.ReasonBadGeometry},
		{"advisor out of palace", "5k3/9/9/9/9/9/9/3A5/9/4K4 w - - 0 1", "d2c3", rules.ReasonBadGeometry},
		{"advisor straight", StartFEN, "d0d1", rules.ReasonBadGeometry},
		{"general out of palace", "5k3/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "d0c0", rules.ReasonBadGeometry},
		{"general two steps", StartFEN, "e0e2", rules.ReasonBadGeometry},
		{"soldier sideways before river", StartFEN, "a3b3", rules.ReasonBadGeometry},
		{"soldier backwards", "5k3/9/9/9/2P6/9/9/9/9/3K5 w - - 0 1", "c5c4", rules.ReasonBadGeometry},
		{"soldier two steps", StartFEN, "a3a5", rules.ReasonBadGeometry},
		{"takes the general", "4k4/9/9/9/4R4/9/9/9/9/3K5 w - - 0 1", "e5e9", rules.ReasonCapturesKing},
		{"general steps onto the open file", "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "d0e0", rules.ReasonFlyingGeneral},
		{"shield leaves the file", "4k4/9/9/9/9/9/4N4/9/9/4K4 w - - 0 1", "e3d5", rules.ReasonFlyingGeneral},
		{"general into check", "5k3/9/9/9/9/9/9/9/9/3K1r3 w - - 0 1", "d0e0", rules.ReasonKingIntoCheck},
		{"ignores check", "3k5/9/9/9/9/4r4/9/R8/9/4K4 w - - 0 1", "a2a3", rules.ReasonLeavesKingInCheck},
		{"pinned horse", "3k5/9/4r4/9/9/9/9/9/4N4/4K4 w - - 0 1", "e1c2", rules.ReasonPinned},
		{"pinned cannon screen", "3k5/9/9/4c4/9/9/4R4/9/4N4/4K4 w - - 0 1", "e3d3", rules.ReasonPinned},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPos(t, tc.fen)
			m := iccs(t, tc.move)
			err := p.Check(m)
			var ie *rules.IllegalMoveError
			if !errors.As(err, &ie) || !errors.Is(err, rules.ErrIllegalMove) {
				t.Fatalf("Check(%s) = %v, want an IllegalMoveError", tc.move, err)
			}
			if ie.Reason != tc.want {
				t.Errorf("Check(%s) reason %q, want %q", tc.move, ie.Reason, tc.want)
			}
			if q, err := p.Play(m); q != nil || err == nil {
				t.Errorf("Play(%s) = %v, %v; want nil and an error", tc.move, q, err)
			}
		})
	}
}

// TestCheckAgreesWithGenerator: on random positions, Check accepts
// exactly the generated moves and gives every other move of a piece of the
// side to move a reason; Play and PlayIllegal agree with it.
func TestCheckAgreesWithGenerator(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	positions := randomPositions(r, 8, 80)
	for i, p := range positions {
		if i%16 != 0 {
			continue
		}
		legal := map[rules.Move]bool{}
		for _, m := range p.LegalMoves(nil) {
			legal[rules.Move{From: m.From, To: m.To}] = true
		}
		for from := rules.Square(0); from < nPoints; from++ {
			pc := p.At(from)
			if pc.IsEmpty() || pc.Color != p.Turn() {
				continue
			}
			for to := rules.Square(0); to < nPoints; to++ {
				m := rules.Move{From: from, To: to}
				err := p.Check(m)
				if legal[m] != (err == nil) {
					t.Fatalf("%s: %s generated=%v but Check = %v", p.FEN(), p.UCI(m), legal[m], err)
				}
				var ie *rules.IllegalMoveError
				if err != nil && (!errors.As(err, &ie) || ie.Reason == rules.ReasonUnknown) {
					t.Fatalf("%s: %s: Check = %v, want a precise reason", p.FEN(), p.UCI(m), err)
				}
				if q, err := p.Play(m); (err == nil) != legal[m] || (q == nil) == legal[m] {
					t.Fatalf("%s: Play(%s) = %v, %v", p.FEN(), p.UCI(m), q, err)
				}
				if legal[m] {
					q, err := p.PlayIllegal(m)
					if err != nil {
						t.Fatalf("PlayIllegal(%s) of a legal move: %v", p.UCI(m), err)
					}
					q2, _ := p.Play(m)
					if q.FEN() != q2.FEN() || q.RepetitionKey() != q2.RepetitionKey() {
						t.Fatalf("PlayIllegal(%s) differs from Play", p.UCI(m))
					}
				}
			}
		}
	}
}
