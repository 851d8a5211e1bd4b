package hall

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
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
func (h *Hall) Reconfigure(ctx context.Context, next map[string]SessionOptions) error {
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
func (br *boardRun) reconfigure(o SessionOptions) error {
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

// Reconfigure hands the session the options of its board's next game;
// see [Hall.Reconfigure]. What belongs to the board rather than to a game
// (tracker options, relay, clock watching, NextGame) stays as it was.
func (s *Session) Reconfigure(o SessionOptions, at time.Time) (Step, error) {
	var st Step
	if s.team != nil {
		return st, s.teamReconfigure(o)
	}
	if variantOf(o.Info.Variant) != variantOf(s.rec.Info.Variant) {
		return st, fmt.Errorf("the variant changes from %s to %s: that needs a restart", variantOf(s.rec.Info.Variant), variantOf(o.Info.Variant))
	}
	o.Tracker, o.ClockEvery, o.ClockSilence = s.o.Tracker, s.o.ClockEvery, s.o.ClockSilence
	o.NoTiming, o.NewGameOnSetup, o.GestureNoResult = s.o.NoTiming, s.o.NewGameOnSetup, s.o.GestureNoResult
	o.NextGame, o.Blind = s.o.NextGame, s.o.Blind
	if len(s.rec.Moves) == 0 && !s.over() {
		s.o = o
		if o.StartFEN != "" && o.StartFEN != s.rec.StartFEN {
			if p, err := startPosition(s.rec.Variant(), o.StartFEN, o.RuleSet); err == nil {
				s.start = p
			}
		}
		fen := s.rec.StartFEN
		if o.StartFEN != "" {
			fen = o.StartFEN
		}
		if o.Info.Game != s.rec.Info.Game {
			rot := s.rec.Rotated
			s.rec = gamerecord.NewRecord(o.Info, fen, at)
			s.rec.Rotated = rot
		} else {
			s.rec.Info = o.Info
			s.rec.StartFEN = fen
			s.rec.UpdatedAt = at
		}
		s.adj = adjudicator.New(adjudicator.GameInfo{ID: o.Info.Game, White: o.Info.White, Black: o.Info.Black},
			o.RuleSet, adjudicator.Options{Penalties: o.Penalties, TimeControl: o.TimeControl, NoTiming: o.NoTiming, Start: s.start})
		st.Changed = true
		return st, nil
	}
	s.next = &o
	if s.over() && s.tr != nil && s.tr.Ply() == 0 && s.tr.Sensed() == s.tr.Position().Placement() {
		// The set-up came before the reload: the tracker has reset to the
		// start position the board shows.
		s.nextGame(game.SetupDetected{Stamp: game.Stamp{At: at}, Position: s.tr.Position(), N960: -1}, &st)
	}
	return st, nil
}

func variantOf(v string) string {
	if v == "" {
		return "chess"
	}
	return v
}

// hasNext reports whether a set-up after a result starts a next game.
func (s *Session) hasNext() bool { return s.next != nil || s.o.NextGame != nil }

// nextInfo returns the next game's Info: a reload's (whose options then
// become the session's), else SessionOptions.NextGame's.
func (s *Session) nextInfo() gamerecord.Info {
	if s.next != nil {
		s.o, s.next = *s.next, nil
		return s.o.Info
	}
	return s.o.NextGame(s.rec.Info)
}

// endedCopy returns the current game as a session of its own, kept when
// the board moves on so that the arbiter can still act on it: its record,
// adjudicator and options; no tracker (the board plays the next game).
func (s *Session) endedCopy() *Session {
	return &Session{o: s.o, rec: s.rec, adj: s.adj, start: s.start}
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
	e := br.s.ended
	if e == nil || e.rec.Info.Game != g {
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
