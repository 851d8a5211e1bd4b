package board

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// The ended phase: the players signalled a result on the board (kings in
// the centre, a magic piece). Nothing on the board is a move any more;
// only a new set-up (a new game, or the board turned round to set it up)
// or an arbiter's command starts following again.

// end ends the game on the board at time at with result signalled by
// gesture: the moves made before it stand (FIDE 2018 6.2.1.1 by analogy:
// a result agreed after a move was made), presses not judged are dropped.
func (t *Tracker) end(at time.Time, result, gesture string, evs []game.Event) []game.Event {
	evs = t.to(ended, at, evs)
	t.lever.presses = t.lever.presses[:0]
	evs = t.completeUpTo(at, len(t.line.moves), t.clk.last, evs)
	return append(evs, game.ResultGesture{Stamp: game.Stamp{At: at}, Result: result, Gesture: gesture})
}

// End ends the game with a result that came from elsewhere (entered by
// the arbiter, a flag, a claim): as after a result signalled on the board,
// nothing on the board is a move any more and only a new set-up starts
// following again, however short the game was (the start position set up
// after two plies is the next game, not a takeback). Moves made and not
// completed stay so; presses not judged are dropped. Reinstate resumes
// the game.
func (t *Tracker) End(at time.Time) []game.Event {
	if t.state.phase == ended {
		return nil
	}
	evs := t.advance(at, nil)
	if t.state.phase == ended {
		return evs
	}
	t.lever.presses = t.lever.presses[:0]
	return t.to(ended, at, evs)
}

// signal reads a result signalled with the board (a magic piece) as a
// result gesture.
func (t *Tracker) signal(at time.Time, s game.ResultSignal) []game.Event {
	if t.state.phase == ended {
		return nil
	}
	return t.end(at, s.Result, s.Gesture, t.advance(at, nil))
}

// judgeEnded judges the board after a result: only a new set-up (or the
// orientation it is set up in) matters.
func (t *Tracker) judgeEnded(at time.Time, evs []game.Event) []game.Event {
	if ev, ok := t.trySetup(at, evs); ok {
		return ev
	}
	if t.opts.AutoOrientation && t.opts.Setup != nil {
		if _, _, ok := t.opts.Setup(rotate(t.board.sensed)); ok {
			t.board.rotated = !t.board.rotated
			t.board.sensed = rotate(t.board.sensed)
			evs = append(evs, game.OrientationChanged{Stamp: game.Stamp{At: at}, Rotated: t.board.rotated})
			ev, _ := t.trySetup(at, evs)
			return ev
		}
	}
	return evs
}
