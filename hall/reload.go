package hall

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/rules/adjudicator"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// This file is the hall's side of a configuration reload (SIGHUP: a new
// round, corrected pairings) and of arbiter commands on a game its board
// has moved on from. It is the organiser stream's; the rest of the hall
// calls into it at four places: Session.handle and Session.nextGame (a
// reloaded next game), boardRun.command (work routed onto a board's
// goroutine) and boardRun.apply (a finished game remembered).

// ErrNoBoard: Reconfigure names a board the hall does not have.
var ErrNoBoard = errors.New("hall: no such board")

// ErrEndedGame: a command the arbiter may not give on a game whose board
// has moved on to its next game.
var ErrEndedGame = errors.New("hall: the game has ended and its board plays its next game")

// Reconfigure gives each board (by ID) the options of its next game, as a
// reload of the configuration says, on the board's own goroutine:
//
//   - a game that has not started (no move, no result) becomes the new one
//     at once: the same record with the new players when its id is the
//     same, a fresh record when the round (the id) changed;
//   - a game in progress keeps its players; the start position set up
//     after its result begins the new game;
//   - a game over whose board already shows the start position (set up
//     before the reload) begins the new game now.
//
// Only the game changes: the board's port, variant and relay stay (a
// variant change is refused). Every board is tried; the error joins
// those that failed. Reconfigure needs Run to be running.
func (h *Hall) Reconfigure(ctx context.Context, next map[string]session.SessionOptions) error {
	ctx, done, ok := h.running(ctx)
	if !ok {
		return errStopped
	}
	defer done()
	ids := make([]string, 0, len(next))
	for id := range next {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var errs []error
	for _, id := range ids {
		i := slices.IndexFunc(h.boards, func(br *boardRun) bool { return br.b.ID == id })
		if i < 0 {
			errs = append(errs, fmt.Errorf("%w: %s", ErrNoBoard, id))
			continue
		}
		o := next[id]
		if err := h.onBoard(ctx, h.boards[i], func(br *boardRun) error { return br.reconfigure(o) }); err != nil {
			errs = append(errs, fmt.Errorf("board %s: %w", id, err))
		}
	}
	return errors.Join(errs...)
}

// onBoard runs fn on br's goroutine (through its command channel) and
// returns its error.
func (h *Hall) onBoard(ctx context.Context, br *boardRun, fn func(*boardRun) error) error {
	reply := make(chan error, 1)
	select {
	case br.cmds <- command{to: br, do: fn, reply: reply}:
	case <-ctx.Done():
		return errStopped
	}
	select {
	case err := <-reply:
		return err
	case <-ctx.Done():
		return errStopped
	}
}

// reconfigure applies a reload to the board (on its goroutine).
func (br *boardRun) reconfigure(o session.SessionOptions) error {
	st, err := br.s.Reconfigure(o, br.mono(br.h.o.Now()))
	if err != nil {
		return err
	}
	br.mu.Lock()
	br.b.Session.Info = br.s.Record().Info
	br.mu.Unlock()
	br.apply(st)
	return nil
}

// endedCommands are the arbiter commands that still make sense on a game
// whose board has moved on: nothing that would touch the board or the
// clock, nor resume the game.
var endedCommands = []string{"acknowledge", "reject", "apply_penalty", "set_result", "uphold_claim", "reject_claim"}

// commandEnded applies an arbiter command to the game g that br played
// before its current one (on br's goroutine): the ended game's record is
// saved and its payloads (result, alerts, state) published as for a
// current game. A clock setting it would cause is not sent: the clock now
// times the next game.
func (br *boardRun) commandEnded(g game.ID, c adjudicator.Command) error {
	e := br.s.Ended()
	if e == nil || e.Record().Info.Game != g {
		return fmt.Errorf("no game %s in this hall", g)
	}
	cur := br.s.Record().Info.Game
	if !slices.Contains(endedCommands, c.Cmd) || (c.Cmd == "set_result" && c.Result == "*") {
		return fmt.Errorf("%w (%s): %s cannot be given on it; the commands for an ended game are %v, set_result not \"*\"", ErrEndedGame, cur, c.Cmd, endedCommands)
	}
	st, err := e.Command(c, br.mono(br.h.o.Now()))
	if err != nil {
		return err
	}
	st.Clock = nil
	br.mu.Lock()
	snap, prev := br.snap, br.ended
	br.mu.Unlock()
	live := br.s
	br.s = e
	br.apply(st)
	br.s = live
	br.mu.Lock()
	br.snap, br.ended = snap, prev
	br.mu.Unlock()
	return nil
}

// noteFinished remembers the id of the game a board has just finished and
// moved on from (apply calls it with Step.Finished), for routing arbiter
// commands to it.
func (br *boardRun) noteFinished(finished []*gamerecord.Record) {
	if len(finished) == 0 {
		return
	}
	br.mu.Lock()
	br.ended = finished[len(finished)-1].Info.Game
	br.mu.Unlock()
}

// route returns the board whose current game is g (ended false) or that
// played g just before its current one (ended true).
func (h *Hall) route(g game.ID) (br *boardRun, ended, ok bool) {
	if br, ok := h.current(g); ok {
		return br, false, true
	}
	for _, br := range h.boards {
		br.mu.Lock()
		e := br.ended
		br.mu.Unlock()
		if e == g {
			return br, true, true
		}
	}
	return nil, false, false
}

// endedOr turns c into a command on the game g its board played before
// the current one, when ended.
func endedOr(c command, ended bool, g game.ID) command {
	if ended {
		cmd := c.cmd
		c.do = func(br *boardRun) error { return br.commandEnded(g, cmd) }
	}
	return c
}

// BoardRecord returns a copy of the record of board id's current game
// (ok false when the hall has no such board or its game has not started).
// Safe for concurrent use.
func (h *Hall) BoardRecord(id string) (gamerecord.Record, bool) {
	for _, br := range h.boards {
		if br.b.ID != id {
			continue
		}
		br.mu.Lock()
		defer br.mu.Unlock()
		if br.snap == nil {
			return gamerecord.Record{}, false
		}
		return *br.snap, true
	}
	return gamerecord.Record{}, false
}

// current returns the board whose current game is g: the game it is
// following now (after NextGame, a later round's), or its configured game
// before it started.
func (h *Hall) current(g game.ID) (*boardRun, bool) {
	for _, br := range h.boards {
		br.mu.Lock()
		cur := br.b.Session.Info.Game
		if br.snap != nil {
			cur = br.snap.Info.Game
		}
		br.mu.Unlock()
		if cur == g {
			return br, true
		}
	}
	return nil, false
}
