package chess

import (
	"errors"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
)

// TestTeamDropHouseRules is one row per rule of one board under the 004
// "Cờ đặt" rules (A2, A4–A8 of docs/team-drop.md), each
// naming its article: the move is played (any notation) in the position,
// and it must be legal, or illegal for the reason given.
func TestTeamDropHouseRules(t *testing.T) {
	tests := []struct {
		article, name string
		fen           string
		opts          func(*Options) // nil: the variant's defaults
		move          string
		reason        rules.Reason // ReasonUnknown: legal
		san           string       // for legal moves: the SAN written
	}{
		{"A2, D1", "a drop on an empty square is a move", "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", nil, "N@c3", 0, "N@c3"},
		{"A2, D1", "no drop on an occupied square", "4k3/8/8/8/8/8/2p5/4K3[N] w - - 0 1", nil, "N@c2", rules.ReasonBadDrop, ""},
		{"A1, D2", "only a piece in the pocket", "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", nil, "B@c3", rules.ReasonEmptyPocket, ""},
		{"A1, D2", "only the mover's own pocket", "4k3/8/8/8/8/8/8/4K3[n] w - - 0 1", nil, "N@c3", rules.ReasonEmptyPocket, ""},
		{"A4, D3", "no drop giving check", "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", nil, "N@d6", rules.ReasonDropGivesCheck, ""},
		{"A4, D3", "no pawn drop giving check", "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", nil, "P@d7", rules.ReasonDropGivesCheck, ""},
		{"A4, D3", "no drop giving mate", "6rk/6pp/8/8/8/8/8/4K3[N] w - - 0 1", nil, "N@f7", rules.ReasonDropGivesCheck, ""},
		{"A4, D3", "no drop blocking a check while giving check", "3qk3/8/8/8/8/8/8/3K4[B] w - - 0 1", nil, "B@d7", rules.ReasonDropGivesCheck, ""},
		{"A4, D3", "a blocking drop that gives no check", "3qk3/8/8/8/8/8/8/3K4[N] w - - 0 1", nil, "N@d4", 0, "N@d4"},
		{"A4, D3 (off)", "drop_check_allowed lifts the ban", "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", func(o *Options) { o.NoDropCheck = false }, "N@d6", 0, "N@d6+"},
		{"A4, D4", "no piece dropped on White's last rank", "4k3/8/8/8/8/8/8/4K3[R] w - - 0 1", nil, "R@a8", rules.ReasonBadDrop, ""},
		{"A4, D4", "Black's last rank is rank 1 (relative)", "4k3/8/8/8/8/8/8/4K3[r] b - - 0 1", nil, "R@a1", rules.ReasonBadDrop, ""},
		{"A4, D4", "Black may drop on its own rank 8", "4k3/8/8/8/8/8/8/4K3[n] b - - 0 1", nil, "N@b8", 0, "N@b8"},
		{"A4, D4 (absolute)", "last_rank_reading absolute: rank 8 for Black too", "4k3/8/8/8/8/8/8/4K3[n] b - - 0 1", func(o *Options) { o.AbsoluteLastRank = true }, "N@b8", rules.ReasonBadDrop, ""},
		{"A4, D4 (absolute)", "last_rank_reading absolute: Black may drop on rank 1", "4k3/8/8/8/8/8/8/K7[n] b - - 0 1", func(o *Options) { o.AbsoluteLastRank = true }, "N@h1", 0, "N@h1"},
		{"A4, D4 (off)", "drop_last_rank_allowed lifts the ban", "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", func(o *Options) { o.NoDropOnLastRank = false }, "N@a8", 0, "N@a8"},
		{"A4, D5", "no pawn dropped on the first rank", "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", nil, "P@a1", rules.ReasonBadDrop, ""},
		{"A4, D5", "no Black pawn dropped on rank 8", "4k3/8/8/8/8/8/8/4K3[p] b - - 0 1", nil, "P@a8", rules.ReasonBadDrop, ""},
		{"A4, D5", "a piece may go on the first rank", "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", nil, "N@a1", 0, "N@a1"},
		{"A4, D4/D5", "pawns on ranks 2 to 7", "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", nil, "P@a7", 0, "P@a7"},
		{"pawn_drop_ranks", "a narrower set of pawn ranks", "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", func(o *Options) { o.PawnDropRanks = 0b0011110 }, "P@a7", rules.ReasonBadDrop, ""},
		{"pawn_drop_ranks", "Black's ranks count from its side", "4k3/8/8/8/8/8/8/4K3[p] b - - 0 1", func(o *Options) { o.PawnDropRanks = 0b0000010 }, "P@a7", 0, "P@a7"},
		{"FIDE 3.9, D6", "a drop must answer a check", "4k3/8/8/8/1b6/8/8/4K3[N] w - - 0 1", nil, "N@a1", rules.ReasonLeavesKingInCheck, ""},
		{"FIDE 3.9, D6", "an interposing drop answers it", "4k3/8/8/8/1b6/8/8/4K3[N] w - - 0 1", nil, "N@c3", 0, "N@c3"},
		{"A5", "a move leaving the king in check is illegal", "4k3/8/8/8/1b6/8/8/4K2R w K - 0 1", nil, "Rh2", rules.ReasonLeavesKingInCheck, ""},
		{"A5", "the king is never captured", "4k3/8/8/8/8/8/4r3/4K3 b - - 0 1", nil, "Rxe1", rules.ReasonCapturesKing, ""},
		{"A6", "no promotion: the pawn stays a pawn", "4k3/P7/8/8/8/8/8/4K3[] w - - 0 1", nil, "a7a8", 0, "a8"},
		{"A6", "no promotion piece", "4k3/P7/8/8/8/8/8/4K3[] w - - 0 1", nil, "a8=Q", rules.ReasonBadPromotion, ""},
		{"A6", "a capture onto the last rank", "1n2k3/P7/8/8/8/8/8/4K3[] w - - 0 1", nil, "axb8", 0, "axb8"},
		{"A6, R6.2(a)", "lifting the pawn is the opponent's move", "P3k3/8/8/8/8/8/8/4K3[] b - - 0 1", nil, "-a8", 0, "-a8"},
		{"A6, R6.2(b)", "capturing it with another piece", "Pr2k3/8/8/8/8/8/8/4K3[] b - - 0 1", nil, "Rxa8", 0, "Rxa8"},
		{"A6, R6.7", "any other move while the removal is due", "Pr2k3/8/8/8/8/8/8/4K3[] b - - 0 1", nil, "Kd7", rules.ReasonMustRemovePawn, ""},
		{"A6, R6.7", "a drop while the removal is due", "P3k3/8/8/8/8/8/8/4K3[n] b - - 0 1", nil, "N@c6", rules.ReasonMustRemovePawn, ""},
		{"A6, R6.3", "in check the obligation waits", "5nk1/6P1/8/8/8/8/8/4K1R1[] w - - 0 1", nil, "gxf8", 0, "gxf8+"},
		{"A6, R6.3", "the lift is no answer to a check", "5Pk1/8/8/8/8/8/8/4K1R1[] b - - 0 1", nil, "-f8", rules.ReasonLeavesKingInCheck, ""},
		{"A6, R6.3", "a king capture that evades the check removes it", "5Pk1/8/8/8/8/8/8/4K1R1[] b - - 0 1", nil, "Kxf8", 0, "Kxf8"},
		{"A6, R6.5", "a lift that exposes the king waits", "R2Pk3/8/8/8/8/8/8/4K3[] b - - 0 1", nil, "-d8", rules.ReasonPinned, ""},
		{"A6, R6.5", "meanwhile other moves are allowed", "R2Pk3/8/8/8/8/8/8/4K3[] b - - 0 1", nil, "Kf7", 0, "Kf7"},
		{"A7", "a dropped pawn on rank 2 double-steps", "4k3/8/8/8/8/8/4P3/4K3[] w - - 0 1", nil, "e4", 0, "e4"},
		{"A8", "no castling right for a rook on h1 without one", "4k3/8/8/8/8/8/8/4K2R[] w - - 0 1", nil, "O-O", rules.ReasonCastleRightsGone, ""},
	}
	for _, tc := range tests {
		t.Run(tc.article+": "+tc.name, func(t *testing.T) {
			opts := TeamDrop.Options()
			if tc.opts != nil {
				tc.opts(&opts)
			}
			p, err := NewPositionOptions(TeamDrop, opts, tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			m, err := p.ParseMove(tc.move)
			if tc.reason == rules.ReasonUnknown {
				if err != nil {
					t.Fatalf("%s in %s: %v, want legal", tc.move, tc.fen, err)
				}
				if got := p.SAN(m); got != tc.san {
					t.Errorf("SAN %q, want %q", got, tc.san)
				}
				return
			}
			var ie *rules.IllegalMoveError
			if !errors.As(err, &ie) {
				t.Fatalf("%s in %s: %v, want illegal (%s)", tc.move, tc.fen, err, tc.reason)
			}
			if ie.Reason != tc.reason {
				t.Errorf("%s in %s: reason %q, want %q", tc.move, tc.fen, ie.Reason, tc.reason)
			}
		})
	}
}

// TestTeamDropSequences covers the rules that need more than one move.
func TestTeamDropSequences(t *testing.T) {
	t.Run("A7: a dropped pawn's double step allows en passant", func(t *testing.T) {
		p := playAll(t, mustPos(t, TeamDrop, "4k3/8/8/8/3p4/8/8/4K3[P] w - - 0 1"), "P@e2", "Kd8", "e4")
		if p.EnPassant() != sq("e3") || !uciList(p)["d4e3"] {
			t.Fatalf("no en passant after a dropped pawn's double step: %s", p.FEN())
		}
		p = playAll(t, p, "dxe3")
		if !p.At(sq("e4")).IsEmpty() {
			t.Errorf("the pawn taken en passant is still there: %s", p.FEN())
		}
	})
	t.Run("A7: a dropped pawn on rank 3 steps once", func(t *testing.T) {
		p := playAll(t, mustPos(t, TeamDrop, "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1"), "P@e3", "Kd8")
		if uciList(p)["e3e5"] {
			t.Error("a pawn dropped on rank 3 stepped two squares")
		}
	})
	t.Run("A8: a rook dropped on its corner never castles", func(t *testing.T) {
		// The original h1 rook is taken, the bishop leaves, a rook is dropped
		// on h1; the king never moved.
		p := playAll(t, mustPos(t, TeamDrop, "b3k3/8/8/8/8/8/8/4K2R[RR] b K - 0 1"), "Bxh1", "R@a3", "Bd5", "R@h1", "Kd7")
		if p.At(sq("e1")).Kind != rules.King || p.At(sq("h1")).Kind != rules.Rook {
			t.Fatalf("set-up: %s", p.FEN())
		}
		if p.CastlingRook(rules.White, false) != rules.NoSquare || uciList(p)["e1g1"] {
			t.Fatalf("castling with a dropped rook: %s", p.FEN())
		}
	})
	t.Run("A6: the obligation waits through a check and comes back", func(t *testing.T) {
		p := playAll(t, mustPos(t, TeamDrop, "5nk1/6P1/8/8/8/8/8/4K1R1[] w - - 0 1"), "gxf8")
		if !p.InCheck() {
			t.Fatal("gxf8 should discover check")
		}
		got := uciList(p)
		if got["-f8"] || !got["g8h7"] {
			t.Fatalf("in check (R6.3): %v", got)
		}
		p = playAll(t, p, "Kh7", "Kd2")
		got = uciList(p)
		if len(got) != 1 || !got["-f8"] {
			t.Fatalf("out of check, the removal is mandatory again: %v", got)
		}
	})
	t.Run("A6: White removes a Black pawn from rank 1", func(t *testing.T) {
		p := playAll(t, mustPos(t, TeamDrop, "4k3/8/8/8/8/8/p7/4K3[] b - - 0 1"), "a1", "-a1")
		if !p.At(sq("a1")).IsEmpty() || p.Turn() != rules.Black {
			t.Fatalf("after the removal: %s", p.FEN())
		}
	})
}

// TestLift covers the confiscation primitive (A4): the side to move lifts
// an opponent's piece, with or without using its turn.
func TestLift(t *testing.T) {
	// White dropped a knight illegally on f6 (check); Black confiscates it.
	p, err := mustPos(t, TeamDrop, "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1").PlayIllegalMove(rules.Move{From: rules.NoSquare, To: sq("f6"), Drop: rules.Knight, Flags: rules.FlagDrop})
	if err != nil {
		t.Fatal(err)
	}
	q, pce, err := p.Lift(sq("f6"), true)
	if err != nil || pce != (rules.Piece{Color: rules.White, Kind: rules.Knight}) {
		t.Fatalf("Lift: %v, %v", pce, err)
	}
	if q.FEN() != "4k3/8/8/8/8/8/8/4K3[] w - - 0 2" {
		t.Errorf("after a confiscation that uses the turn: %s", q.FEN())
	}
	q, _, err = p.Lift(sq("f6"), false)
	if err != nil || q.FEN() != "4k3/8/8/8/8/8/8/4K3[] b - - 0 1" {
		t.Errorf("after a confiscation that keeps the turn: %s, %v", q.FEN(), err)
	}
	for _, s := range []string{"e8", "e1", "a3"} {
		if _, _, err := p.Lift(sq(s), true); !errors.Is(err, ErrLift) {
			t.Errorf("Lift(%s): %v, want ErrLift", s, err)
		}
	}
	// A rook lifted from its corner takes the castling right with it.
	r := mustPos(t, TeamDrop, "4k3/8/8/8/8/8/8/R3K2R[] b KQ - 0 1")
	q, _, _ = r.Lift(sq("h1"), true)
	if q.CastlingRook(rules.White, false) != rules.NoSquare || q.CastlingRook(rules.White, true) != sq("a1") {
		t.Errorf("castling rights after lifting h1: %s", q.FEN())
	}
}

// TestMateDefinitions covers R9.5: a check that a drop could block is mate
// under current_reserve when the pocket has nothing to block with, and not
// under any_possible_drop; and D3 can turn a block into a mate.
func TestMateDefinitions(t *testing.T) {
	tests := []struct {
		name             string
		fen              string
		current, anyDrop bool // mate under current_reserve, any_possible_drop
	}{
		{"a drop could block, the pocket is empty", "Q6k/6pp/8/8/8/8/8/K7[] b - - 0 1", true, false},
		{"a knight in hand blocks", "Q6k/6pp/8/8/8/8/8/K7[n] b - - 0 1", false, false},
		{"the only block would give check (D3)", "5Q1k/4K1pp/8/8/8/8/8/8[n] b - - 0 1", true, false},
		{"a rook in hand blocks without check", "5Q1k/4K1pp/8/8/8/8/8/8[r] b - - 0 1", false, false},
		{"no square to block", "6Qk/6pp/5N2/8/8/8/8/K7[qrbnp] b - - 0 1", true, true},
		{"not in check", "7k/6pp/8/8/8/8/8/K7[] b - - 0 1", false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPos(t, TeamDrop, tc.fen)
			if got := p.Status() == rules.Checkmate; got != tc.current {
				t.Errorf("current_reserve mate = %v, want %v", got, tc.current)
			}
			if got := p.CheckmateAnyDrop(); got != tc.anyDrop {
				t.Errorf("any_possible_drop mate = %v, want %v", got, tc.anyDrop)
			}
		})
	}
}

// BenchmarkPerftTeamDrop: perft 3 of a team-drop middle game with full
// pockets (D3 and D4 filter many drop squares).
func BenchmarkPerftTeamDrop(b *testing.B) {
	p := mustPos(b, TeamDrop, "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[QRBNPqrbnp] b KQkq - 0 1")
	var nodes uint64
	for b.Loop() {
		nodes += p.Perft(3)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds()/1e6, "Mnodes/s")
}
