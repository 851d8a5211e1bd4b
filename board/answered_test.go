package board

import (
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestPolledSecondLookAskedAfterTheScan: White plays e2-e4, the hand
// resting on e3 when the board scans it and pressing the lever before the
// scan of e4. The press's answer (read at 1.0 s) shows e2-e3; the board's
// next poll is sent at 1.1 s and answered at once, before the scan that
// follows the press, but the line, held up, reads that answer only at
// 1.45 s, 450 ms after the press's. That answer is no second look: the
// board looked before its scan had reported e4, so e2-e3 must not be
// completed on it; the answer to the poll sent at 1.9 s shows e2-e4.
// (Judged on when the answer was read, the press completed e2-e3.)
func TestPolledSecondLookAskedAfterTheScan(t *testing.T) {
	p := newPolledScript(t)
	pawn := func(c rules.Color) rules.Piece { return rules.Piece{Color: c, Kind: rules.Pawn} }
	const base = 90*time.Minute + 30*time.Second
	answered := func(ms, asked int, s ...game.Sensed) {
		p.feed(ms, s...)
		p.evs = append(p.evs, p.tr.Answered(p.at(ms), p.at(asked))...)
	}
	answered(200, 190)
	answered(1000, 990, game.SquareChange{Square: p.sq("e2")}, game.SquareChange{Square: p.sq("e3"), Piece: pawn(rules.White)},
		game.LeverPress{Display: game.LeftDisplay, Time: base + 29*time.Second})
	answered(1450, 1100)
	if done := p.completed(""); len(done) > 0 {
		t.Fatalf("completed %q on an answer the board made before its scan that followed the press", done)
	}
	answered(1910, 1900, game.SquareChange{Square: p.sq("e3")}, game.SquareChange{Square: p.sq("e4"), Piece: pawn(rules.White)})
	answered(2700, 2690, game.SquareChange{Square: p.sq("e7")}, game.SquareChange{Square: p.sq("e5"), Piece: pawn(rules.Black)},
		game.LeverPress{Display: game.RightDisplay, Time: base + 28*time.Second})
	answered(3500, 3490)
	p.tick(6000)
	if done, want := p.completed(""), []string{"white e2e4", "black e7e5"}; strings.Join(done, ", ") != strings.Join(want, ", ") {
		t.Errorf("completed %q, want %q", done, want)
	}
}
