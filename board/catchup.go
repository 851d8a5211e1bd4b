package board

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Dump feeds a full board read (after connecting or reconnecting, or on
// request), in the board's own frame. It is judged at once; moves made
// while the board was not heard are caught up when a short legal sequence
// ([TrackerOptions.CatchUpDepth] plies) explains them. A read that nothing
// explains keeps the tracker catching up (deeper searches, pieces that
// came back to their squares) until the board is explained: the port may
// come back while a hand is still moving.
func (t *Tracker) Dump(at time.Time, p rules.Placement) []game.Event {
	return t.dump(at, p, true)
}

// Reread feeds a full board read that the board's own log has just
// explained up to it ([Recover] aligned the log with the record, read it
// to its end and found the read to be the position after the moves it
// completed, or after a move made and not completed yet): nothing was
// missed, so the read is judged as a live one is, as the changes since the
// board was last heard, all at at (a hand may be in the middle of a move:
// a lifted piece is a piece in the hand). [Tracker.Dump] would search it
// as the read of a board not heard for a while, deeper and for pieces that
// came back to their squares, and find a piece in the hand explained by
// several plies of moves made and taken back.
func (t *Tracker) Reread(at time.Time, p rules.Placement) []game.Event {
	return t.dump(at, p, false)
}

// dump is Dump; catchUp: the read may follow moves the tracker missed.
func (t *Tracker) dump(at time.Time, p rules.Placement, catchUp bool) []game.Event {
	evs := t.advance(at, nil)
	p.Geo = t.geo
	if p != t.board.raw {
		t.board.raw = p
		t.board.sensed = t.board.raw
		if t.board.rotated {
			t.board.sensed = rotate(t.board.raw)
		}
		t.board.lastChange = at
	}
	t.board.dirty = true
	if catchUp && t.state.phase != ended {
		t.state.fromRead = true
	}
	if t.clk.lastRun == rules.NoColor {
		t.clk.readFirst = true
	}
	depth := t.opts.CatchUpDepth
	if !catchUp {
		depth = t.opts.MaxDepth
	}
	evs = t.evaluate(at, depth, evs)
	return t.afterCatchUp(at, evs)
}

// evaluate judges the settled placement at time at, searching up to depth
// plies for moves; deeper, and for pieces that came back to their
// squares, while a full read is not explained yet.
func (t *Tracker) evaluate(at time.Time, depth int, evs []game.Event) []game.Event {
	if !t.state.fromRead {
		return t.judge(at, depth, evs)
	}
	t.srch.deep = true
	evs = t.judge(at, max(depth, t.opts.CatchUpDepth), evs)
	t.srch.deep = false
	if t.state.phase == following {
		t.state.fromRead = false // explained
	}
	return evs
}

// afterCatchUp completes the moves a full read caught up when a running
// reading heard since [Tracker.ClockBack] shows the side to move's clock
// running (the last mover pressed while the board or clock was not
// heard). Without such a reading they wait for the first one
// (clockReturned) or for the mover's press. So do the moves a full read
// caught up before the clock's first running reading (the daemon started
// behind the board: Clock calls it on that reading).
func (t *Tracker) afterCatchUp(at time.Time, evs []game.Event) []game.Event {
	if t.clk.phase == clockLost || t.clk.phase == clockReturning || t.clk.last == nil || t.clk.phase == clockHeard && (len(t.lever.presses) > 0 || t.clk.lastRun != rules.NoColor) || t.opts.Completion != ClockPress || t.state.phase == ended ||
		t.line.done >= len(t.line.moves) || t.board.dirty || t.board.sensed != t.line.top().place || t.clk.last.Running != t.line.top().pos.Turn() {
		return evs
	}
	if t.clk.phase == clockReturned {
		t.toClock(clockHeard)
	}
	rc := *t.clk.last
	t.lever.unpressed = 0
	evs = t.completeUpTo(at, len(t.line.moves), &rc, evs)
	t.pressHeard(at, rc)
	return evs
}
