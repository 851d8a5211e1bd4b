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

// TestPolledSecondLookFromTheFirstPress: the start of a 2,000-board load
// test's game (board 1968, line 61) whose tracker stayed one press behind
// for the whole game and never completed its last ply: its clock read
// stopped before the first move, White's e2-e3 in one answer, his press
// record alone in the next, then the first running reading, and each
// later move with its press in one answer, the lever often before the
// scan of the piece's last square. Every move must be completed on the
// answers that show it and its press (or on the second look), the last
// one too, with no press read as one without a move. (Before c1f85e0 the
// board package dropped that first press record and completed each move
// at the next player's press: the game's last ply never.)
func TestPolledSecondLookFromTheFirstPress(t *testing.T) {
	p := newPolledScript(t)
	piece := func(c rules.Color, k rules.Kind) rules.Piece { return rules.Piece{Color: c, Kind: k} }
	hms := func(m, s int) time.Duration {
		return time.Hour + time.Duration(m)*time.Minute + time.Duration(s)*time.Second
	}
	lift := func(sq string) game.Sensed { return game.SquareChange{Square: p.sq(sq)} }
	put := func(sq string, c rules.Color, k rules.Kind) game.Sensed {
		return game.SquareChange{Square: p.sq(sq), Piece: piece(c, k)}
	}
	press := func(d game.Display, m, s int) game.Sensed { return game.LeverPress{Display: d, Time: hms(m, s)} }
	answered := func(ms int, s ...game.Sensed) {
		p.feed(ms, s...)
		p.evs = append(p.evs, p.tr.Answered(p.at(ms), p.at(ms-15))...)
	}
	L, R := game.LeftDisplay, game.RightDisplay
	p.face(0, hms(30, 30), hms(30, 30), game.NoDisplay)
	for ms := 800; ms < 8000; ms += 800 {
		answered(ms)
	}
	answered(8000, lift("e2"), put("e3", rules.White, rules.Pawn))
	answered(8800, press(L, 30, 59))
	p.face(9130, hms(30, 59), hms(30, 29), R)
	answered(9420)
	answered(10190, lift("g7"), press(R, 30, 59), put("g5", rules.Black, rules.Pawn))
	answered(11000)
	answered(11750, lift("b1"))
	p.face(11780, hms(30, 57), hms(30, 59), L)
	answered(12600, press(L, 31, 27), put("a3", rules.White, rules.Knight))
	answered(13400)
	answered(14200, lift("g5"), press(R, 31, 27), put("g4", rules.Black, rules.Pawn))
	for ms := 15000; ms < 30000; ms += 800 {
		answered(ms)
	}
	if done, want := p.completed(""), []string{"white e2e3", "black g7g5", "white b1a3", "black g5g4"}; strings.Join(done, ", ") != strings.Join(want, ", ") {
		t.Errorf("completed %q, want %q", done, want)
	}
}
