package board

import (
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// phase is what the tracker makes of the board. Every change of phase
// goes through [Tracker.to], which checks it against transitions and
// does what entering or leaving a phase does; each phase's behaviour is in
// a file of its own (following: judge.go; unexplained and held:
// unexplained.go; ended: ended.go). How the clock is heard is a phase of
// its own, [clockPhase] (clocklost.go).
type phase uint8

const (
	// following: the board shows the record, or moves made from it (an
	// illegal move standing on it included).
	following phase = iota
	// inHand: pieces are off the board in the middle of a move (the board
	// shows the record's position, or a legal move from it, with pieces
	// lifted and nothing else changed): a promotion piece being fetched,
	// the king held in the hand while the rook moves, a piece picked up to
	// think. Reported only once it has lasted HandHold (slow hands are no
	// fault).
	inHand
	// unexplained: nothing explains the placement yet (a hand may be in
	// the middle of a move); reported once it has lasted HoldAfter.
	unexplained
	// held: the placement was reported unexplained; the tracker holds
	// until the board is explained again (Explained).
	held
	// ended: a result was signalled on the board; only a set-up (or an
	// arbiter's command) starts following again.
	ended
)

func (p phase) String() string {
	return [...]string{"following", "in hand", "unexplained", "held", "ended"}[p]
}

// transitions lists, per phase, the phases it may change to.
var transitions = [...][]phase{
	following:   {inHand, unexplained, held, ended},
	inHand:      {following, unexplained, held, ended},
	unexplained: {following, inHand, held, ended},
	held:        {following, ended},
	ended:       {following},
}

// boardState is the phase and what the phase remembers.
type boardState struct {
	phase phase
	// since: inHand, unexplained, held: when the placement stopped being
	// explained (its last change).
	since time.Time
	// fromRead: inHand, unexplained, held: a full read began the episode (the
	// board was not heard for a while): the placement is searched deeper,
	// pieces coming back to their squares included, until it is explained
	// (catchup.go).
	fromRead bool
	// displaced: a DisplacedPieces was reported since the board was last
	// explained (one per episode).
	displaced bool
	// setup: held: the episode is a set-up of the wrong placement
	// (SetupMismatch); putting it right is no play.
	setup bool
	// pressed: held: a clock press was heard since the board was reported
	// unexplained (the players play on). lost: the record was reported lost
	// (lost.go).
	pressed, lost bool
}

// to moves the tracker to phase p at time at and returns evs with the
// events the change causes: leaving held for following says Explained.
// An episode that is not explained (inHand, unexplained, held) keeps the
// time it began.
// Moving to the phase the tracker is in changes nothing. A change that
// transitions does not list is a bug of the tracker.
func (t *Tracker) to(p phase, at time.Time, evs []game.Event) []game.Event {
	from := t.state.phase
	if p == from {
		return evs
	}
	allowed := false
	for _, q := range transitions[from] {
		allowed = allowed || q == p
	}
	if !allowed {
		panic(fmt.Sprintf("board: tracker phase %s cannot change to %s", from, p))
	}
	switch p {
	case following:
		if from == held {
			evs = append(evs, game.Explained{Stamp: game.Stamp{At: at}, Found: t.state.lost, Ply: t.line.done})
		}
		t.state = boardState{}
	case inHand, unexplained, held:
		if from == following {
			t.state.since = t.board.lastChange
		}
	case ended:
		t.state = boardState{phase: ended}
	}
	t.state.phase = p
	return evs
}

// restart forgets the phase: a new record (a set-up, the arbiter's
// command) is followed afresh, whatever the board showed before.
func (t *Tracker) restart() { t.state = boardState{} }
