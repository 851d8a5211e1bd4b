package chess

import (
	"errors"
	"testing"
)

func TestFENRoundTrip(t *testing.T) {
	tests := []struct {
		v        Variant
		in, want string // want "" means in itself
	}{
		{Standard, Standard.StartFEN(), ""},
		{Standard, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", ""},
		{Standard, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"},
		{Standard, "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3", ""},
		{Standard, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"},
		{Standard, "4k3/8/8/8/8/8/8/4K3", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"},
		{Chess960, "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"},
		{Chess960, "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1", ""},
		{Chess960, "4k3/8/8/8/8/8/8/RR2K3 w A - 0 1", "4k3/8/8/8/8/8/8/RR2K3 w Q - 0 1"},
		{Crazyhouse, "2k5/8/8/8/8/8/8/4K3/Qn w - - 0 1", "2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1"},
		{Crazyhouse, "4k3/1Q~6/8/8/4b3/8/Kpp5/8[] b - - 0 1", ""},
		{Crazyhouse, "2k5/8/8/8/8/8/8/4K3[pQPqRB] w - - 0 1", "2k5/8/8/8/8/8/8/4K3[QRBPqp] w - - 0 1"},
		{TeamDrop, "P3k3/8/8/8/8/8/8/4K3[N] b - - 0 1", ""},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			p := mustPos(t, tc.v, tc.in)
			want := tc.want
			if want == "" {
				want = tc.in
			}
			if got := p.FEN(); got != want {
				t.Errorf("FEN() = %q, want %q", got, want)
			}
		})
	}
}

// Shredder, X-FEN and KQkq fields name the same rights.
func TestCastlingFieldForms(t *testing.T) {
	a := mustPos(t, Chess960, "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
	b := mustPos(t, Chess960, "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9")
	if a.RepetitionKey() != b.RepetitionKey() || a.CastlingRook(0, false) != sq("h1") || a.CastlingRook(1, true) != sq("f8") {
		t.Errorf("Shredder and X-FEN rights differ: %s vs %s", a.FEN(), b.FEN())
	}
}

func TestFENErrors(t *testing.T) {
	tests := []struct {
		v     Variant
		fen   string
		field string
	}{
		{Standard, "", "placement"},
		{Standard, "8/8/8 w - - 0 1", "placement"},
		{Standard, "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement"},
		{Standard, "rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement"},
		{Standard, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "placement"},
		{Standard, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQQBNR w kq - 0 1", "placement"},
		{Standard, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1", "placement"},
		{Standard, "~nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement"},
		{Standard, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side"},
		{Standard, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqZ - 0 1", "castling"},
		{Standard, "rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "castling"},
		{Standard, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1", "placement"},
		{Standard, "4k3/8/8/8/8/8/4K3/R6R w K - 0 1", "castling"},
		{Standard, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e5 0 1", "en passant"},
		{Standard, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1", "en passant"},
		{Standard, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", "halfmove"},
		{Standard, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove"},
		{Standard, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 y", "fullmove"},
		{Standard, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", "position"},
		{Standard, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Q] w KQkq - 0 1", "pocket"},
		{Crazyhouse, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[K] w KQkq - 0 1", "pocket"},
		{Crazyhouse, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Q w KQkq - 0 1", "pocket"},
	}
	for _, tc := range tests {
		t.Run(tc.fen, func(t *testing.T) {
			p, err := NewPosition(tc.v, tc.fen)
			var fe *FENError
			if p != nil || !errors.As(err, &fe) || !errors.Is(err, ErrFEN) {
				t.Fatalf("NewPosition = %v, %v; want *FENError", p, err)
			}
			if fe.Field != tc.field {
				t.Errorf("field %q (%v), want %q", fe.Field, err, tc.field)
			}
		})
	}
}

// A physical board can show a position after an illegal move stood: the
// side not to move in check, pawns on the last rank. Parsing and move
// generation must cope.
func TestOddPositions(t *testing.T) {
	for _, fen := range []string{
		"4k3/8/8/8/8/8/8/4RK2 w - - 0 1",  // Black in check, White to move
		"P3k3/8/8/8/8/8/8/p3K3 w - - 0 1", // unpromoted pawns on the last ranks
		"4k3/8/8/8/8/8/8/p3K2P b - - 0 1", // pawns on their own first rank
		"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
	} {
		p := mustPos(t, Standard, fen)
		ms := p.LegalMoves(nil)
		for _, m := range ms {
			if p.At(m.To).Kind == 6 {
				t.Errorf("%s: move %s takes the king", fen, p.UCI(m))
			}
			if _, err := p.Play(m); err != nil {
				t.Errorf("%s: %s: %v", fen, p.UCI(m), err)
			}
			_ = p.SAN(m)
		}
		_ = p.Status()
		_ = p.RepetitionKey()
		if len(ms) == 0 {
			t.Errorf("%s: no legal moves", fen)
		}
	}
}
