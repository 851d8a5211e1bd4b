package board

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// The unexplained and held phases: nothing explains the placement. A hand
// in the middle of a move looks the same for a moment, so the tracker
// waits [TrackerOptions.HoldAfter] before it reports [game.Unexplained]
// (held), and holds until the board is explained again ([game.Explained]).

// unexplain notes that nothing explains the placement (from its last
// change on).
func (t *Tracker) unexplain(at time.Time, evs []game.Event) []game.Event {
	if t.state.phase == following {
		evs = t.to(unexplained, at, evs)
	}
	return evs
}

// holdAfter reports an unexplained placement that has lasted HoldAfter.
func (t *Tracker) holdAfter(at time.Time, evs []game.Event) []game.Event {
	if t.state.phase != unexplained {
		return evs
	}
	due := t.state.since.Add(t.opts.HoldAfter)
	if at.Before(due) {
		return evs
	}
	return t.to(held, due, evs)
}

// inAir reports whether the placement is unexplained and has not lasted
// HoldAfter by at: pieces may be in the air, presses wait.
func (t *Tracker) inAir(at time.Time) bool {
	p := t.state.phase
	return (p == unexplained || p == held) && at.Before(t.state.since.Add(t.opts.HoldAfter))
}

// resolved is called when the board is explained again: it ends a hold
// and clears an illegal move taken back (a completed one is reinstated,
// FIDE 2018 7.5.1).
func (t *Tracker) resolved(at time.Time, evs []game.Event) []game.Event {
	evs = t.to(following, at, evs)
	t.state.displaced = false
	if il := t.illegal; il != nil {
		t.illegal = nil
		if il.completed {
			evs = append(evs, game.Correction{At: game.T(at), Ply: t.line.done, Reason: game.Reinstatement, Position: t.line.hist[t.line.done].pos})
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
