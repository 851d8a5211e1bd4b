package board

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// A record lost. A board held unexplained (unexplained.go) may be a knocked
// piece that will be put back; but when nothing has explained it for
// [TrackerOptions.LostAfter], or the clock is pressed while it is held
// (the players play on from a position the record does not hold), the
// record is lost: the tracker reports it once ([game.Unexplained] with
// Lost, the last ply that agreed with the board), keeps looking at every
// new position (a takeback, moves from the record, a line reread from an
// earlier ply: heal.go), and says when it finds the board again
// ([game.Explained] with Found).

// pressedHeld notes a clock press (while the board is held, and for the
// rereading search: heal.go).
func (t *Tracker) pressedHeld() {
	t.heal.presses++
	if t.state.phase == held {
		t.state.pressed = true
	}
}

// lostAfter reports the record lost once the board has been held
// unexplained for LostAfter since it stopped being explained, or a press
// was heard while it was held. Pieces held in the hand over a position the
// game may be in are not a lost record until a press is heard.
func (t *Tracker) lostAfter(at time.Time, evs []game.Event) []game.Event {
	if t.state.phase != held || t.state.lost || t.state.setup {
		return evs
	}
	due := t.state.since.Add(t.opts.LostAfter)
	if at.Before(due) && !t.state.pressed || !t.state.pressed && t.piecesInHand() {
		return evs // pieces held in the hand over a position of the game are no lost record
	}
	if !at.Before(due) {
		at = due
	}
	t.state.lost = true
	return append(evs, game.Unexplained{
		Stamp:     game.Stamp{At: at},
		Since:     t.state.since,
		Squares:   t.board.sensed.Diff(&t.line.node(t.line.done).place, nil),
		Placement: t.board.sensed,
		Lost:      true,
		Agreed:    t.line.done,
	})
}
