package announce

import (
	"errors"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi"
)

// TestXiangqi: the notation and the spoken form in both languages, with
// tandem pieces, a check, a mate and the ICCS fallback; Move gives the
// spoken form; German and illegal moves are refused.
func TestXiangqi(t *testing.T) {
	tests := []struct {
		name, fen, iccs  string
		lang             Lang
		notation, spoken string
	}{
		{"central cannon vi", xiangqi.StartFEN, "h2e2", Vietnamese, "P2-5", "Pháo 2 bình 5"},
		{"central cannon en", xiangqi.StartFEN, "h2e2", English, "C2.5", "Cannon 2 traverses to 5"},
		{"horse en", xiangqi.StartFEN, "b0c2", English, "H8+7", "Horse 8 advances to 7"},
		{"chariot steps en", xiangqi.StartFEN, "a0a2", English, "R9+2", "Chariot 9 advances 2"},
		{"front chariot check vi", "3k5/9/9/9/9/R8/9/R8/9/5K3 w - - 0 1", "a4d4", Vietnamese, "Xt-6", "Xe trước bình 6, chiếu"},
		{"rear chariot retreats en", "3k5/9/9/9/9/R8/9/R8/9/5K3 w - - 0 1", "a2a1", English, "R--1", "Chariot rear retreats 1"},
		{"mate en", "3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1", "b0b9", English, "R8+9", "Chariot 8 advances 9, checkmate"},
		{"ICCS fallback vi", "3k5/9/9/4P4/4P4/4P4/4P4/9/9/5K3 w - - 0 1", "e6d6", Vietnamese, "e6d6", "e6 đến d6"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := xiangqi.NewPosition(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			m, err := p.ParseMove(tc.iccs)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Xiangqi(p, m, tc.lang, Options{})
			if err != nil || got.Notation != tc.notation || got.Spoken != tc.spoken {
				t.Fatalf("Xiangqi = %+v, %v; want %q / %q", got, err, tc.notation, tc.spoken)
			}
			if s, err := Move(p, m, tc.lang, Options{}); err != nil || s != tc.spoken {
				t.Errorf("Move = %q, %v", s, err)
			}
		})
	}
	p := xiangqi.StartPosition()
	m, _ := p.ParseMove("h2e2")
	if _, err := Xiangqi(p, m, German, Options{}); !errors.Is(err, ErrLang) {
		t.Errorf("German: %v", err)
	}
	var ie *rules.IllegalMoveError
	if _, err := Xiangqi(p, rules.Move{From: 4, To: 22}, English, Options{}); !errors.As(err, &ie) {
		t.Errorf("illegal move: %v", err)
	}
}
