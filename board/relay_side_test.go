package board

import (
	"errors"
	"slices"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// A relay set up for a blind Black player takes a blind White player
// before the first move: White's moves are then made on the blind board,
// Black's on the sighted one, and the game is recorded as such. Once a
// move is recorded the colour stays.
func TestRelaySetBlindBeforeFirstMove(t *testing.T) {
	s := newRelayScript(t, rules.Black)
	if err := s.r.SetBlind(rules.NoColor); !errors.Is(err, ErrBadOption) {
		t.Fatalf("SetBlind(NoColor) = %v, want ErrBadOption", err)
	}
	if err := s.r.SetBlind(rules.White); err != nil {
		t.Fatal(err)
	}
	if s.r.Blind() != rules.White || s.r.Owner(rules.White) != game.BlindBoard || s.r.Owner(rules.Black) != game.SightedBoard {
		t.Fatalf("after SetBlind(White): blind %v, White's board %v, Black's board %v", s.r.Blind(), s.r.Owner(rules.White), s.r.Owner(rules.Black))
	}
	line := []string{"e2e4", "e7e5", "g1f3", "b8c6"}
	for _, m := range line {
		s.relay(m)
	}
	if got := s.record(); !slices.Equal(got, line) {
		t.Fatalf("record %v, want %v\n%s", got, line, s.dump())
	}
	for _, e := range s.evs {
		switch e := e.(type) {
		case game.TouchEvidence, game.BoardMismatch, game.ClockWithoutMove, game.IllegalMove, game.Unexplained:
			t.Errorf("unexpected %T %+v", e, e)
		}
	}
	if err := s.r.SetBlind(rules.Black); !errors.Is(err, ErrGameStarted) {
		t.Fatalf("SetBlind after %d plies = %v, want ErrGameStarted", len(line), err)
	}
	if s.r.Blind() != rules.White {
		t.Fatalf("a refused SetBlind changed the colour to %v", s.r.Blind())
	}
}
