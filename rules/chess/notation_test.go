package chess

import (
	"errors"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
)

const (
	castleFEN   = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
	promoFEN    = "8/P6k/8/8/8/8/8/4K3 w - - 0 1"
	epFEN       = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"
	twoRooksFEN = "6k1/8/8/8/8/8/4K3/R6R w - - 0 1"
	zhFEN       = "4k3/8/8/8/8/8/8/4K3[Np] w - - 0 1"
)

func TestSAN(t *testing.T) {
	tests := []struct {
		name string
		v    Variant
		fen  string
		uci  string
		want string
	}{
		{"knight", Standard, Standard.StartFEN(), "g1f3", "Nf3"},
		{"pawn push", Standard, Standard.StartFEN(), "e2e4", "e4"},
		{"pawn capture", Standard, "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", "e4d5", "exd5"},
		{"en passant", Standard, epFEN, "e5d6", "exd6"},
		{"file disambiguation", Standard, twoRooksFEN, "a1d1", "Rad1"},
		{"rank disambiguation", Standard, "7k/8/8/R7/8/8/4K3/R7 w - - 0 1", "a1a3", "R1a3"},
		{"full disambiguation", Standard, "8/7k/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "a1b2", "Qa1b2"},
		{"pinned piece not counted", Standard, "k3r3/8/8/8/8/8/4N3/1N2K3 w - - 0 1", "b1c3", "Nc3"},
		{"check", Standard, "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "h1h8", "Rh8+"},
		{"mate", Standard, "6k1/5ppp/8/8/8/8/8/R3K3 w Q - 0 1", "a1a8", "Ra8#"},
		{"promotion", Standard, promoFEN, "a7a8q", "a8=Q"},
		{"underpromotion", Standard, promoFEN, "a7a8n", "a8=N"},
		{"O-O", Standard, castleFEN, "e1g1", "O-O"},
		{"O-O-O", Standard, castleFEN, "e1c1", "O-O-O"},
		{"960 O-O king on g1", Chess960, "4k3/8/8/8/8/8/8/6KR w H - 0 1", "g1h1", "O-O"},
		{"piece drop", Crazyhouse, zhFEN, "N@f3", "N@f3"},
		{"drop check", Crazyhouse, zhFEN, "N@d6", "N@d6+"},
		{"pawn drop", Crazyhouse, "4k3/8/8/8/8/8/8/4K3[Np] b - - 0 1", "P@e4", "P@e4"},
		{"capture of promoted piece", Crazyhouse, "4k3/1Q~6/8/8/4b3/8/Kpp5/8/ b - -", "e4b7", "Bxb7"},
		{"team drop: no promotion", TeamDrop, "4k3/P7/8/8/8/8/8/4K3[] w - - 0 1", "a7a8", "a8"},
		{"team drop: removal", TeamDrop, "P3k3/8/8/8/8/8/8/4K3[] b - - 0 1", "-a8", "-a8"},
		{"team drop: removal, older x@ form", TeamDrop, "P3k3/8/8/8/8/8/8/4K3[] b - - 0 1", "x@a8", "-a8"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPos(t, tc.v, tc.fen)
			m := mustParse(t, p, tc.uci)
			if got := p.SAN(m); got != tc.want {
				t.Errorf("SAN = %q, want %q", got, tc.want)
			}
			if back := mustParse(t, p, tc.want); back != m {
				t.Errorf("ParseMove(%q) = %+v, want %+v", tc.want, back, m)
			}
		})
	}
}

func TestUCI(t *testing.T) {
	tests := []struct {
		name string
		v    Variant
		fen  string
		move rules.Move
		want string
	}{
		{"standard castling is e1g1", Standard, castleFEN, rules.Move{From: 4, To: 7, Flags: rules.FlagCastle}, "e1g1"},
		{"standard long castling is e1c1", Standard, castleFEN, rules.Move{From: 4, To: 0, Flags: rules.FlagCastle}, "e1c1"},
		{"960 castling is king takes rook", Chess960, castleFEN, rules.Move{From: 4, To: 7, Flags: rules.FlagCastle}, "e1h1"},
		{"promotion", Standard, promoFEN, rules.Move{From: 48, To: 56, Promo: rules.Queen}, "a7a8q"},
		{"drop", Crazyhouse, zhFEN, rules.Move{From: rules.NoSquare, To: 21, Drop: rules.Knight, Flags: rules.FlagDrop}, "N@f3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPos(t, tc.v, tc.fen)
			if got := p.UCI(tc.move); got != tc.want {
				t.Errorf("UCI = %q, want %q", got, tc.want)
			}
			if err := p.Check(tc.move); err != nil {
				t.Errorf("Check: %v", err)
			}
		})
	}
}

func TestParseMoveForms(t *testing.T) {
	tests := []struct {
		v     Variant
		fen   string
		texts []string
		want  string // UCI
	}{
		{Standard, Standard.StartFEN(), []string{"Nf3", "g1f3", "Ng1-f3", "Ng1f3", "Nf3!?", "Ngf3", "N1f3", "Nf3+"}, "g1f3"},
		{Standard, Standard.StartFEN(), []string{"e4", "e2e4", "e2-e4", "Pe4", " e4 "}, "e2e4"},
		{Standard, castleFEN, []string{"O-O", "0-0", "e1g1", "e1h1", "O-O+"}, "e1g1"},
		{Standard, castleFEN, []string{"O-O-O", "0-0-0", "e1c1", "e1a1"}, "e1c1"},
		{Chess960, castleFEN, []string{"O-O", "e1h1", "e1g1"}, "e1h1"},
		{Standard, promoFEN, []string{"a8=Q", "a8Q", "a8q", "a7a8q", "a8=Q!", "a8(Q)"}, "a7a8q"},
		{Standard, epFEN, []string{"exd6", "exd6e.p.", "exd6 e.p.", "ed6", "e5d6", "e5xd6"}, "e5d6"},
		{Crazyhouse, zhFEN, []string{"N@f3", "n@f3", "N@f3!"}, "N@f3"},
		{Crazyhouse, "4k3/8/8/8/8/8/8/4K3[Np] b - - 0 1", []string{"P@e4", "@e4", "p@e4"}, "P@e4"},
	}
	for _, tc := range tests {
		p := mustPos(t, tc.v, tc.fen)
		for _, s := range tc.texts {
			t.Run(s, func(t *testing.T) {
				m, err := p.ParseMove(s)
				if err != nil {
					t.Fatalf("ParseMove(%q): %v", s, err)
				}
				if got := p.UCI(m); got != tc.want {
					t.Errorf("ParseMove(%q) = %s, want %s", s, got, tc.want)
				}
				if err := p.Check(m); err != nil {
					t.Errorf("parsed move is not legal: %v", err)
				}
			})
		}
	}
}

func TestParseMoveErrors(t *testing.T) {
	tests := []struct {
		name     string
		fen      string
		text     string
		notation bool         // want *NotationError
		reason   rules.Reason // else want *rules.IllegalMoveError with this reason
	}{
		{"garbage", Standard.StartFEN(), "Zz9", true, 0},
		{"empty", Standard.StartFEN(), "", true, 0},
		{"promotion suffix only", Standard.StartFEN(), "((B", true, 0},
		{"promotion sign only", Standard.StartFEN(), "=Q", true, 0},
		{"ambiguous", twoRooksFEN, "Rd1", true, 0},
		{"knight cannot reach", Standard.StartFEN(), "Nf6", false, rules.ReasonBadGeometry},
		{"own piece", Standard.StartFEN(), "Ke2", false, rules.ReasonOwnPieceOnTarget},
		{"blocked bishop", Standard.StartFEN(), "Bc4", false, rules.ReasonBlocked},
		{"no piece", Standard.StartFEN(), "e3e4", false, rules.ReasonNoPiece},
		{"castling blocked", Standard.StartFEN(), "O-O", false, rules.ReasonCastleBlocked},
		{"castling rights gone", "4k3/8/8/8/8/8/8/R3K2R w Q - 0 1", "O-O", false, rules.ReasonCastleRightsGone},
		{"castling rights gone e1g1", "4k3/8/8/8/8/8/8/R3K2R w Q - 0 1", "e1g1", false, rules.ReasonCastleRightsGone},
		{"missing promotion", promoFEN, "a8", false, rules.ReasonMissingPromotion},
		{"drop in chess", Standard.StartFEN(), "N@e4", false, rules.ReasonBadDrop},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPos(t, Standard, tc.fen)
			_, err := p.ParseMove(tc.text)
			if err == nil {
				t.Fatalf("ParseMove(%q) succeeded", tc.text)
			}
			var ne *NotationError
			var ie *rules.IllegalMoveError
			switch {
			case tc.notation:
				if !errors.As(err, &ne) || !errors.Is(err, ErrNotation) {
					t.Errorf("got %T %v, want *NotationError", err, err)
				}
			case !errors.As(err, &ie):
				t.Errorf("got %T %v, want *rules.IllegalMoveError", err, err)
			case ie.Reason != tc.reason || ie.Text != tc.text || !errors.Is(err, rules.ErrIllegalMove):
				t.Errorf("got reason %v text %q, want %v %q", ie.Reason, ie.Text, tc.reason, tc.text)
			}
		})
	}
}
