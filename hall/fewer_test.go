package hall

import (
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestClockOfMovesLeftOut: the press that completes a move is not handed
// on as a clock event, whether it comes before the move (held, then
// dropped) or after it; a flip no move restates goes on before the next
// payload that is not a move, a pause at once, and the first reading of
// the game too.
func TestClockOfMovesLeftOut(t *testing.T) {
	br := &boardRun{h: &Hall{pace: newPace()}}
	g := game.ID{Event: "e", Round: 1, Board: 1}
	afterE4 := "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
	afterE5 := "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
	clk := func(w, b int64, run string) game.ClockEvent {
		return game.ClockEvent{Game: g, WhiteMS: w, BlackMS: b, Running: run}
	}
	mv := func(ply int, fen string, w, b int64) game.MoveEvent {
		return game.MoveEvent{Game: g, Ply: ply, FEN: fen, Clock: &game.ClockPair{WhiteMS: w, BlackMS: b}}
	}
	now := time.Now()
	var got []game.Payload
	step := func(out ...game.Payload) { got = append(got, br.clocksOut(out, now)...) }

	step(clk(5400000, 5400000, game.RunningWhite))                         // Black starts White's clock: out
	step(clk(5430000, 5400000, game.RunningBlack))                         // White's press, before the move: held
	step(mv(1, afterE4, 5430000, 5400000))                                 // the move: the held press dropped
	step(mv(2, afterE5, 5430000, 5428000), clk(5430000, 5428000, "white")) // Black's move, then its press: dropped
	if len(got) != 3 {
		t.Fatalf("handed on %+v, want the first reading and the two moves", got)
	}
	step(clk(5425000, 5428000, game.RunningBlack)) // a press without a move: held
	if len(got) != 3 {
		t.Fatalf("a held press went out at once: %+v", got)
	}
	al := game.Alert{Game: g, Kind: game.KindClockWithoutMove}
	step(al) // the held press goes before the alert
	if len(got) != 5 || got[3].(game.ClockEvent).Running != game.RunningBlack || got[4].(game.Alert).Kind != game.KindClockWithoutMove {
		t.Fatalf("before the alert: %+v", got[3:])
	}
	step(clk(5425000, 5420000, game.RunningNone)) // a pause: at once
	if len(got) != 6 || got[5].(game.ClockEvent).Running != game.RunningNone {
		t.Errorf("pause: %+v", got[5:])
	}
	if n := br.h.pace.clocksSaved.Load(); n != 2 {
		t.Errorf("%d left out, want 2", n)
	}
}
