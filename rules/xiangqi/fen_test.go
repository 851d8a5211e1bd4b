package xiangqi

import (
	"errors"
	"testing"
)

func TestFENRoundTrip(t *testing.T) {
	for _, tc := range perftCases {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPos(t, tc.fen)
			if got := p.FEN(); got != tc.fen {
				t.Errorf("FEN() = %q, want %q", got, tc.fen)
			}
		})
	}
}

func TestFENDialects(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"CPW h/e letters", "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1", StartFEN},
		{"r for Red", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1", StartFEN},
		{"placement only", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR", StartFEN},
		{"black to move, clocks", "4k4/9/9/9/9/9/9/9/9/3K5 b - - 12 40", "4k4/9/9/9/9/9/9/9/9/3K5 b - - 12 40"},
		{"move number 0", "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 0", "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := mustPos(t, tc.in).FEN(); got != tc.want {
				t.Errorf("FEN() = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestFENErrors(t *testing.T) {
	tests := []struct{ name, fen, field string }{
		{"empty", "", "placement"},
		{"nine ranks", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", "placement"},
		{"chess FEN", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement"},
		{"short rank", "rnbakabn/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", "placement"},
		{"long rank", "rnbakabnrr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", "placement"},
		{"queen", "rnbakqbnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", "placement"},
		{"no black general", "rnbaaabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", "placement"},
		{"two red generals", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w - - 0 1", "placement"},
		{"side", "4k4/9/9/9/9/9/9/9/9/3K5 x - - 0 1", "side"},
		{"castling", "4k4/9/9/9/9/9/9/9/9/3K5 w KQ - 0 1", "castling"},
		{"en passant", "4k4/9/9/9/9/9/9/9/9/3K5 w - e3 0 1", "en passant"},
		{"halfmove", "4k4/9/9/9/9/9/9/9/9/3K5 w - - x 1", "halfmove"},
		{"fullmove", "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 -3", "fullmove"},
		{"too many fields", "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 9", "position"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := NewPosition(tc.fen)
			var fe *FENError
			if p != nil || !errors.As(err, &fe) || !errors.Is(err, ErrFEN) {
				t.Fatalf("NewPosition = %v, %v; want a *FENError", p, err)
			}
			if fe.Field != tc.field {
				t.Errorf("field %q, want %q (%v)", fe.Field, tc.field, err)
			}
		})
	}
}
