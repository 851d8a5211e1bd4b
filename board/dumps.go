package board

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// A board read only by whole-board reads ([TrackerOptions.DumpsOnly]: a
// host that polls the whole board, a board whose square reports are
// lost). Without presses and without the order of the changes, the
// positions the board showed are all there is, and a read may catch a
// hand at work: a piece in the hand, a king put down on its way while
// castling, a captured piece lifted before the capture. Only positions
// that stood are moves: a read counts once the next read shows the same
// placement, and is then judged as the changes since the last one that
// counted (the shortest line of moves to it, as for a live board).

// dumpsOnly is the state of a board read only by whole-board reads.
type dumpsOnly struct {
	last rules.Placement // the last read, in the board's frame
	seen bool
}

// dumpRead takes a whole-board read of a board read only that way.
func (t *Tracker) dumpRead(at time.Time, p rules.Placement) []game.Event {
	p.Geo = t.geo
	d := &t.dumps
	if !d.seen || d.last != p {
		d.last, d.seen = p, true
		return t.advance(at, nil) // not stood yet: a hand may be at work
	}
	if p == t.board.raw {
		return t.advance(at, nil)
	}
	return t.dump(at, p, false)
}
