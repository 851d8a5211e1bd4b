package chess

import (
	"errors"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
)

func sq(name string) rules.Square {
	s, err := rules.Chess8x8.ParseSquare(name)
	if err != nil {
		panic(err)
	}
	return s
}

func mv(from, to string) rules.Move { return rules.Move{From: sq(from), To: sq(to)} }

func drop(k rules.Kind, to string) rules.Move {
	return rules.Move{From: rules.NoSquare, To: sq(to), Drop: k, Flags: rules.FlagDrop}
}

func TestCheckReasons(t *testing.T) {
	start := Standard.StartFEN()
	tests := []struct {
		name string
		v    Variant
		fen  string
		move rules.Move
		want rules.Reason
	}{
		{"bad geometry pawn", Standard, start, mv("e2", "e5"), rules.ReasonBadGeometry},
		{"bad geometry knight", Standard, start, mv("g1", "g3"), rules.ReasonBadGeometry},
		{"not your turn", Standard, start, mv("e7", "e5"), rules.ReasonNotYourTurn},
		{"no piece", Standard, start, mv("e3", "e4"), rules.ReasonNoPiece},
		{"blocked queen", Standard, start, mv("d1", "d3"), rules.ReasonBlocked},
		{"blocked pawn double step", Standard, "4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1", mv("e2", "e4"), rules.ReasonBlocked},
		{"own piece on target", Standard, start, mv("a1", "a2"), rules.ReasonOwnPieceOnTarget},
		{"pinned", Standard, "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", mv("e2", "c3"), rules.ReasonPinned},
		{"leaves king in check", Standard, "4k3/4r3/8/8/8/8/8/N3K3 w - - 0 1", mv("a1", "b3"), rules.ReasonLeavesKingInCheck},
		{"king into check", Standard, "4k3/3r4/8/8/8/8/8/4K3 w - - 0 1", mv("e1", "d1"), rules.ReasonKingIntoCheck},
		{"king next to king", Standard, "8/8/8/8/8/3k4/8/4K3 w - - 0 1", mv("e1", "e2"), rules.ReasonKingIntoCheck},
		{"castle out of check", Standard, "4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1", mv("e1", "g1"), rules.ReasonCastleOutOfCheck},
		{"castle through check", Standard, "4k3/5r2/8/8/8/8/8/R3K2R w KQ - 0 1", mv("e1", "g1"), rules.ReasonCastleThroughCheck},
		{"castle into check", Standard, "4k3/6r1/8/8/8/8/8/R3K2R w KQ - 0 1", mv("e1", "g1"), rules.ReasonCastleIntoCheck},
		{"castle rights gone", Standard, "4k3/8/8/8/8/8/8/R3K2R w Q - 0 1", mv("e1", "h1"), rules.ReasonCastleRightsGone},
		{"castle blocked", Standard, start, mv("e1", "g1"), rules.ReasonCastleBlocked},
		{"960 castle blocked on rook destination", Chess960, "4k3/8/8/8/8/8/8/4KNR1 w G - 0 1", mv("e1", "g1"), rules.ReasonCastleBlocked},
		{"no en passant", Standard, "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1", mv("e5", "d6"), rules.ReasonNoEnPassant},
		{"pawn diagonal to empty square", Standard, start, mv("e2", "d3"), rules.ReasonBadGeometry},
		{"missing promotion", Standard, promoFEN, mv("a7", "a8"), rules.ReasonMissingPromotion},
		{"promotion to king", Standard, promoFEN, rules.Move{From: sq("a7"), To: sq("a8"), Promo: rules.King}, rules.ReasonBadPromotion},
		{"promotion not on last rank", Standard, start, rules.Move{From: sq("e2"), To: sq("e4"), Promo: rules.Queen}, rules.ReasonBadPromotion},
		{"captures king", Standard, "4k3/8/8/8/8/8/8/4RK2 w - - 0 1", mv("e1", "e8"), rules.ReasonCapturesKing},
		{"drop in chess", Standard, start, drop(rules.Knight, "e4"), rules.ReasonBadDrop},
		{"empty pocket", Crazyhouse, zhFEN, drop(rules.Queen, "d4"), rules.ReasonEmptyPocket},
		{"drop on occupied square", Crazyhouse, zhFEN, drop(rules.Knight, "e1"), rules.ReasonBadDrop},
		{"pawn drop on last rank", Crazyhouse, "4k3/8/8/8/8/8/8/4K3[Np] b - - 0 1", drop(rules.Pawn, "e1"), rules.ReasonBadDrop},
		{"drop not blocking check", Crazyhouse, "4k3/8/8/8/8/8/8/r3K3[N] w - - 0 1", drop(rules.Knight, "h5"), rules.ReasonLeavesKingInCheck},
		{"team drop gives check", TeamDrop, "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", drop(rules.Knight, "d6"), rules.ReasonDropGivesCheck},
		{"team drop on last rank", TeamDrop, "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", drop(rules.Knight, "a8"), rules.ReasonBadDrop},
		{"team promotion", TeamDrop, "4k3/P7/8/8/8/8/8/4K3[] w - - 0 1", rules.Move{From: sq("a7"), To: sq("a8"), Promo: rules.Queen}, rules.ReasonBadPromotion},
		{"team must remove pawn", TeamDrop, "P3k3/8/8/8/8/8/8/4K3[] b - - 0 1", mv("e8", "f7"), rules.ReasonMustRemovePawn},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPos(t, tc.v, tc.fen)
			err := p.Check(tc.move)
			var ie *rules.IllegalMoveError
			if !errors.As(err, &ie) || !errors.Is(err, rules.ErrIllegalMove) {
				t.Fatalf("Check = %v, want *rules.IllegalMoveError", err)
			}
			if ie.Reason != tc.want {
				t.Errorf("reason %q, want %q", ie.Reason, tc.want)
			}
			if q, err := p.Play(tc.move); q != nil || err == nil {
				t.Errorf("Play of an illegal move returned %v, %v", q, err)
			}
		})
	}
}

func TestPlayIllegal(t *testing.T) {
	start := StartPosition(Standard)
	tests := []struct {
		name    string
		p       *Position
		move    rules.Move
		wantFEN string
		reason  rules.Reason // when an error is wanted
	}{
		{"knight like a bishop", start, mv("g1", "e3"), "rnbqkbnr/pppppppp/8/8/8/4N3/PPPPPPPP/RNBQKB1R b KQkq - 1 1", 0},
		{"rook jumps: right lost", start, mv("a1", "a3"), "rnbqkbnr/pppppppp/8/8/8/R7/PPPPPPPP/1NBQKBNR b Kkq - 1 1", 0},
		{"king left in check", mustPos(t, Standard, "4k3/4r3/8/8/8/8/8/N3K3 w - - 0 1"), mv("a1", "b3"), "4k3/4r3/8/8/8/1N6/8/4K3 b - - 1 1", 0},
		{"pawn not promoted stays", mustPos(t, Standard, promoFEN), mv("a7", "a8"), "P7/7k/8/8/8/8/8/4K3 b - - 0 1", 0},
		{"castling through check", mustPos(t, Standard, "4k3/5r2/8/8/8/8/8/R3K2R w KQ - 0 1"), rules.Move{From: sq("e1"), To: sq("h1"), Flags: rules.FlagCastle}, "4k3/5r2/8/8/8/8/8/R4RK1 b - - 1 1", 0},
		{"double step clears e.p.", start, mv("e2", "e4"), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", 0},
		{"not your turn", start, mv("e7", "e5"), "", rules.ReasonNotYourTurn},
		{"own piece", start, mv("a1", "a2"), "", rules.ReasonOwnPieceOnTarget},
		{"empty origin", start, mv("e4", "e5"), "", rules.ReasonNoPiece},
		{"takes the king", mustPos(t, Standard, "4k3/8/8/8/8/8/8/4RK2 w - - 0 1"), mv("e1", "e8"), "", rules.ReasonCapturesKing},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q, err := tc.p.PlayIllegal(tc.move)
			if tc.wantFEN == "" {
				var ie *rules.IllegalMoveError
				if !errors.As(err, &ie) || ie.Reason != tc.reason || q != nil {
					t.Fatalf("PlayIllegal = %v, %v; want reason %v", q, err, tc.reason)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := q.FEN(); got != tc.wantFEN {
				t.Errorf("FEN %q, want %q", got, tc.wantFEN)
			}
			if q.Turn() == tc.p.Turn() {
				t.Error("side to move did not change")
			}
			q.(*Position).LegalMoves(nil) // must not panic on the odd position
		})
	}
}
