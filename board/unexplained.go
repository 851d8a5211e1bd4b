package board

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// The inHand, unexplained and held phases: nothing explains the
// placement. A hand in the middle of a move looks the same for a moment,
// so the tracker waits [TrackerOptions.HoldAfter] before it reports
// [game.Unexplained] (held), and holds until the board is explained again
// ([game.Explained]). Pieces lifted off a position the game may be in (the
// record's, or a legal move from it) are a move in progress (inHand):
// reported only after [TrackerOptions.HandHold].

// unexplain notes that nothing explains the placement (from its last
// change on): pieces in the hand, or something else. Pieces lifted off a
// position of the game after both players pressed since the record last
// grew are no move in progress (each presser's hand was done): the record
// has fallen behind the board, and it is reported as unexplained after
// HoldAfter, not HandHold.
func (t *Tracker) unexplain(at time.Time, evs []game.Event) []game.Event {
	switch t.state.phase {
	case following, unexplained, inHand:
		if t.piecesInHand() && t.heal.presses < 2 {
			return t.to(inHand, at, evs)
		}
		return t.to(unexplained, at, evs)
	}
	return evs
}

// holdAfter reports an unexplained placement that has lasted HoldAfter
// (HandHold for pieces in the hand).
func (t *Tracker) holdAfter(at time.Time, evs []game.Event) []game.Event {
	hold := t.opts.HoldAfter
	switch t.state.phase {
	case inHand:
		hold = t.opts.HandHold
	case unexplained:
	default:
		return evs
	}
	due := t.state.since.Add(hold)
	if at.Before(due) {
		return evs
	}
	if t.state.phase == unexplained {
		if out, ok := t.healNow(due, evs); ok {
			return out // a line from an earlier ply explains it
		}
	}
	evs = append(evs, game.Unexplained{
		Stamp:     game.Stamp{At: due},
		Since:     t.state.since,
		Squares:   t.board.sensed.Diff(&t.line.top().place, nil),
		Placement: t.board.sensed,
	})
	return t.to(held, due, evs)
}

// inAir reports whether the placement is unexplained and has not lasted
// HoldAfter by at: pieces may be in the air, presses wait.
func (t *Tracker) inAir(at time.Time) bool {
	switch t.state.phase {
	case inHand, unexplained, held:
		return at.Before(t.state.since.Add(t.opts.HoldAfter))
	}
	return false
}

// piecesInHand reports whether the sensed placement is a position the
// game may be in with pieces lifted off it and nothing else changed: the
// record's last position, a position of the trail of fast moves, or a
// legal move from the last of them.
func (t *Tracker) piecesInHand() bool {
	p := &t.board.sensed
	off := func(q *rules.Placement) bool { return *p != *q && liftedOnly(p, q) }
	tip := t.line.top()
	if off(&tip.place) {
		return true
	}
	for _, n := range t.trail.nodes {
		if off(&n.place) {
			return true
		}
	}
	if n := len(t.trail.nodes); n > 0 {
		tip = t.trail.nodes[n-1]
	}
	tip.expand(&t.srch.scratch)
	for i := range tip.kids {
		if kp := tip.kidPlace(i); off(&kp) {
			return true
		}
	}
	return false
}

// resolved is called when the board is explained again: it ends a hold
// and clears an illegal move taken back (a completed one is reinstated,
// FIDE 2018 7.5.1).
func (t *Tracker) resolved(at time.Time, evs []game.Event) []game.Event {
	if t.state.setup {
		t.turn.reset(t.line.top().pos.Turn()) // setting the pieces right is no play
	}
	evs = t.to(following, at, evs)
	t.state.displaced = false
	if il := t.illegal; il != nil {
		t.illegal = nil
		if il.completed {
			evs = append(evs, game.Correction{At: game.T(at), Ply: t.line.done, Reason: game.Reinstatement, Position: t.line.node(t.line.done).pos})
		}
	}
	return evs
}

// illegalExplains ends an unexplained episode because an illegal move
// explains the placement: without Explained (the illegal move is
// reported), keeping the episode's DisplacedPieces.
func (t *Tracker) illegalExplains() {
	if t.state.phase == unexplained || t.state.phase == held {
		t.state = boardState{displaced: t.state.displaced}
	}
}
