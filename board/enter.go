package board

import (
	"errors"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// ErrEnded: a move was entered after a result was signalled on the board
// (only a set-up starts again).
var ErrEnded = errors.New("board: the game has ended on the board")

// Enter enters move m into the record, made and completed at once, where
// no board read it: an operator or arbiter typed it (docs/contract.md §3.1,
// <p>.input.<g>.move), for a board that is broken, silent or absent. m
// must be legal in the record's position (after the completed moves);
// an illegal one is an *rules.IllegalMoveError and changes nothing (the
// caller reports it as the [game.IllegalMove] it is). clk is the clock
// the operator read (nil: none).
//
// Moves made on the board but not completed are retracted first, unless
// the first of them is m, which is then completed. The sensors are left
// as they are: a connected board that does not show the move is judged
// against the new record at its next report, and a takeback never
// reaches back past an entered move, so a board that comes back showing
// an older position is unexplained (for the arbiter) rather than read as
// the players taking the entered moves back.
func (t *Tracker) Enter(at time.Time, m rules.Move, clk *game.ClockReading) ([]game.Event, error) {
	if t.state.phase == ended {
		return nil, &CommandError{Command: "enter", Ply: t.line.done + 1, Err: ErrEnded}
	}
	base := t.line.done
	pos := t.line.node(base).pos
	if err := pos.Check(m); err != nil {
		return nil, err
	}
	next, err := pos.Play(m)
	if err != nil {
		return nil, err
	}
	var evs []game.Event
	if len(t.line.moves) > base && t.line.moves[base] != m {
		evs = append(evs, game.MoveRetracted{Stamp: game.Stamp{At: at}, Ply: base, Position: pos})
		t.line.cut(base)
	}
	t.trail.clear()
	t.illegal = nil
	t.lever.presses = t.lever.presses[:0]
	ply := base + 1
	if len(t.line.moves) == base {
		t.line.push(newNode(next), m, at, false)
		evs = append(evs, game.MoveMade{Stamp: game.Stamp{At: at}, Ply: ply, Side: pos.Turn(), Move: m,
			SAN: pos.SAN(m), UCI: pos.UCI(m), Position: next})
	}
	evs = t.completeUpTo(at, ply, clk, evs)
	t.line.entered = ply
	t.turn.reset(t.line.top().pos.Turn())
	return evs, nil
}
