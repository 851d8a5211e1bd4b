package board

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// sidesGuess is the clock's sides guessed from a polled board's face,
// taken when the board's next answers confirm it (sidesAnswered).
type sidesGuess struct {
	at   time.Time   // the face's
	left rules.Color // the colour on the left display
}

// sidesAnswered takes the sides guessed from a face of a polled board once
// two poll cycles (ScanPeriod) have passed since it with the board still
// in the record's position, no change and no press record since: the line
// polled the board's changes meanwhile (a round may take longer than its
// nominal cycle). A later face that agrees keeps the guess's time (a
// clock read every cycle would otherwise never give its sides); one that
// disagrees, a change or a press drops the guess.
func (t *Tracker) sidesAnswered(at time.Time) {
	g := t.clk.sides
	if g == nil {
		return
	}
	if !t.board.lastChange.Before(g.at) || !t.sidesKnowable() {
		t.clk.sides = nil
		return
	}
	if at.Before(g.at.Add(2 * t.scanPeriod())) {
		return
	}
	t.clk.sides = nil
	if t.clk.left == rules.NoColor && t.board.lastChange.Before(g.at) && t.sidesKnowable() {
		t.clk.left = g.left
	}
}

// sidesKnowable reports whether the running side of a clock read now is
// the record's side to move: the board shows the record's last position,
// no move made since and no press waiting.
func (t *Tracker) sidesKnowable() bool {
	return t.line.done == len(t.line.moves) && len(t.lever.presses) == 0 && t.board.sensed == t.line.top().place
}

// pressShown is a polled board's press records while its clock's sides
// are not known: the side credited with the last one (leverPress: the
// record's turn) and, for each side, the time its last record halted its
// display at (0: none yet).
type pressShown struct {
	side  rules.Color
	times [2]time.Duration
}

// sidesTimed is the sides a polled board's press records' times point to
// (sidesFromPress): left on the left display, by the sides whose press
// records agreed.
type sidesTimed struct {
	left rules.Color
	by   [2]bool
}

// sidesFromPress returns the clock's sides read from face f and the press
// records' times, once a press record of each side agreed on them
// (NoColor until then). A board seldom at rest (quick moves, a hand over
// the board while the opponent thinks) never gives sidesAnswered two
// quiet poll cycles; but after a press the presser's display stands at
// the time his record gives until his next press, so a display standing
// at that time is his. The face may be older than the last record (a bus
// board passes on the clock's time as it last heard it): it then shows
// the opponent's display standing at the opponent's last time and the
// presser's running from just above his, so a face is taken only when the
// standing display is near the presser's time alone (not the opponent's
// last time, not the running display's): both players' times alike (the
// game's first moves) tell nothing. A disagreement starts over. (The
// record's display bit is not relied on: which display it names is
// uncertain.)
func (t *Tracker) sidesFromPress(f game.ClockFace) rules.Color {
	p := &t.clk.pressed
	if p.side == rules.NoColor || p.times[0] == 0 || p.times[1] == 0 || f.Running == game.NoDisplay {
		return rules.NoColor
	}
	stands, runs, left := f.Right, f.Left, p.side.Other()
	if f.Running == game.RightDisplay {
		stands, runs, left = f.Left, f.Right, p.side
	}
	own, other := p.times[p.side&1], p.times[p.side.Other()&1]
	if !nearSecond(stands, own) || nearSecond(stands, other) || nearSecond(runs, own) {
		return rules.NoColor
	}
	if t.clk.timed.left != left {
		t.clk.timed = sidesTimed{left: left}
	}
	t.clk.timed.by[p.side&1] = true
	if t.clk.timed.by[0] && t.clk.timed.by[1] {
		return left
	}
	return rules.NoColor
}

// nearSecond reports whether two clock times are within the displays'
// resolution, a second, of each other.
func nearSecond(a, b time.Duration) bool {
	return a-b <= time.Second && b-a <= time.Second
}

// recordPresser returns the presser of a polled board's press record
// naming display d while the clock's sides are not known, side being the
// one whose press is due (the turns alternating from the game's start).
// Each player's records name the same display (which one, the halted or
// the started, is uncertain, but it is the same for all of a player's
// presses), learnt from the due pressers: once a display is known to be
// a side's, its records are that side's, so a record lost (a noisy line)
// or one too many does not turn every later press round (the game's last
// press completing nothing, the sides read from the records' times the
// wrong way round).
func (t *Tracker) recordPresser(side rules.Color, d game.Display) rules.Color {
	b := &t.clk.bits
	switch {
	case d == game.NoDisplay:
		return side
	case b[rules.White] == d:
		return rules.White
	case b[rules.Black] == d:
		return rules.Black
	case b[side&1] == game.NoDisplay:
		b[side&1] = d
		return side
	default: // side's records name the other display
		b[side.Other()&1] = d
		return side.Other()
	}
}
