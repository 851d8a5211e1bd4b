package board

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Reinstate takes the record back to ply (0: the start position), as the
// arbiter decided (FIDE 2018 7.5.1, 7.6). Moves after ply are dropped; the
// board is then expected to show that position (until it does, it is
// unexplained). It returns the [game.Correction].
func (t *Tracker) Reinstate(at time.Time, ply int) ([]game.Event, error) {
	if ply < 0 || ply >= len(t.line.hist) {
		return nil, &CommandError{Command: "reinstate", Ply: ply, Err: ErrNoSuchPly}
	}
	t.line.cut(ply)
	t.trail.clear()
	t.illegal = nil
	t.lever.presses = t.lever.presses[:0]
	if t.state.phase == ended {
		t.restart() // the game goes on
	}
	t.turn.reset(t.line.top().pos.Turn())
	evs := []game.Event{game.Correction{At: game.T(at), Ply: ply, Reason: game.ArbiterEdit, Position: t.line.top().pos}}
	return t.rejudge(at, evs), nil
}

// SetPosition makes pos the position of the game from now on (the arbiter
// set up a position: after an irregularity, an adjournment, or to carry on
// from an illegal position). The record restarts at pos with ply 0.
func (t *Tracker) SetPosition(at time.Time, pos rules.Position) ([]game.Event, error) {
	if pos == nil {
		return nil, &CommandError{Command: "set_position", Err: ErrNoStart}
	}
	if pos.Geometry() != t.geo {
		return nil, &CommandError{Command: "set_position", Err: ErrBadOption}
	}
	t.reset(pos)
	evs := []game.Event{game.Correction{At: game.T(at), Ply: 0, Reason: game.ArbiterEdit, Position: pos}}
	return t.rejudge(at, evs), nil
}

// AcceptIllegal enters the illegal move standing on the board into the
// record as completed (the arbiter let it stand, or the rules do: FIDE
// 2018 A.4.2/B.4) and carries on from the position it made.
func (t *Tracker) AcceptIllegal(at time.Time) ([]game.Event, error) {
	il := t.illegal
	if il == nil || il.pos == nil {
		return nil, &CommandError{Command: "accept_illegal", Ply: len(t.line.hist), Err: ErrNothingPending}
	}
	if il.clock == nil && t.clk.last != nil {
		c := *t.clk.last
		il.clock = &c
	}
	evs := t.standIllegal(at, il, newNode(il.pos), nil)
	return t.rejudge(at, evs), nil
}

// rejudge looks at the board again after the record changed under it: an
// unexplained episode starts afresh (the board is judged against the new
// record).
func (t *Tracker) rejudge(at time.Time, evs []game.Event) []game.Event {
	if p := t.state.phase; p == unexplained || p == held {
		t.state = boardState{fromRead: t.state.fromRead, displaced: t.state.displaced}
	}
	t.board.dirty = true
	return t.evaluate(at, t.opts.MaxDepth, evs)
}
