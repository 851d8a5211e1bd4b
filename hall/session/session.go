package session

import (
	"errors"
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/board"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/adjudicator"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/clock"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// DefaultClockEvery is the default SessionOptions.ClockEvery.
const DefaultClockEvery = 10 * time.Second

// SessionOptions configure a Session.
type SessionOptions struct {
	Info gamerecord.Info
	// StartFEN is the start position; "" is the variant's standard start.
	StartFEN string
	// RuleSet judges the game (its Variant must match Info.Variant).
	RuleSet ruleset.RuleSet
	// TimeControl parsed from Info.TimeControl (zero: unknown).
	TimeControl clock.TimeControl
	// Penalties: alert (default) or auto (time penalties go to the clock).
	Penalties adjudicator.Penalties
	// Tracker tunes the board tracker; Start, Setup, Rotated and
	// IllegalStands are filled in by the session (IllegalStands from the
	// rule set: a completed illegal move stands once its window closes,
	// when the opponent moves (A.4.2/B.4) or touches a piece (2001), and
	// the record follows the board from it).
	Tracker board.TrackerOptions
	// ClockEvery: a ClockEvent is published when the running side changes,
	// and otherwise at most this often while a clock runs (default
	// DefaultClockEvery; every reading of a DGT 3000 would be one a second
	// per board). Negative: every reading.
	ClockEvery time.Duration
	// NewGameOnSetup: a start position set up after moves ends the game
	// and starts a new one (replay); the ended record is returned in
	// Step.Finished. Otherwise (the daemon, where a board is one game of
	// one round) a set-up during a game without a result is a takeback to
	// the start (a Correction), and after a result it is ignored (players
	// set the pieces up for the next round).
	NewGameOnSetup bool
	// NextGame, when set, makes a start position set up after the game
	// has a result the board's next game, with the Info it returns for
	// the finished game's (e.g. NextRound: the same board of the next
	// round); nextgame.go. Nil: after a result the board is not followed
	// until the arbiter resumes the game (one game per board and run).
	NextGame func(finished gamerecord.Info) gamerecord.Info
	// GestureNoResult: a result gesture (kings in the centre, a magic
	// piece) only raises the adjudicator's alert. By default it also
	// records a provisional result (Result.Provisional, termination
	// "result gesture") that the arbiter confirms or replaces with
	// set_result: the players did signal the end of the game, and the PGN
	// should say so, but the arbiter decides.
	GestureNoResult bool
	// Blind: the game is relayed for a blind player on a second board
	// (FIDE Laws Appendix D; blind.go). Nil: one board.
	Blind *Blind
	// ClockSilence: a clock that was running and sends no reading for this
	// long, while its board is connected, is reported lost (kind
	// clock_disconnected; clockwatch.go); so is a board reporting "no clock
	// connected". Default DefaultClockSilence; negative: only the board's
	// report counts. Not watched for relayed games (Blind).
	ClockSilence time.Duration
	// Partner: a team-drop game's partner board (004 "Cờ đặt"): the two
	// games are one match, started together with NewTeamSessions (team.go).
	// Zero for every other game.
	Partner game.ID
	// NoTiming: message times are not wall-clock times (a replay of a raw
	// or base64 recording, spaced by ReplayOptions.Gap), so the clock model
	// compares readings with each other but not with the time between them
	// (arbiter.Options.NoTiming); no clock defect is inferred from the
	// synthetic spacing.
	NoTiming bool
	// NoBoard: the game has no board (protocol manual): its moves are
	// only entered (Session.Enter, input.go), and the tracker's board
	// shows the record after every entry and command.
	NoBoard bool
}

// Step is what one input caused: the payloads to publish, in order, the
// clock commands to send, and whether the record changed (persist it
// before publishing).
type Step struct {
	Out     []game.Payload
	Clock   []game.ClockCommand
	Changed bool
	// Finished holds games that a new set-up ended (NewGameOnSetup).
	Finished []*gamerecord.Record
}

// Session is the pure core of one game: tracker, adjudicator and record.
// No goroutines, no wall clock; one goroutine owns it.
type Session struct {
	o       SessionOptions
	rec     *gamerecord.Record
	tr      *board.Tracker
	adj     *adjudicator.Adjudicator
	start   rules.Position
	running rules.Color     // last reading's running side
	lastClk time.Time       // last ClockEvent published
	relay   *relayState     // with SessionOptions.Blind (blind.go)
	cw      clockWatch      // is the clock still heard (clockwatch.go)
	next    *SessionOptions // the next game a reload gave (reload.go)
	ended   *Session        // the game before this one, for arbiter commands (reload.go)
	team    *teamLink       // a team-drop game's match (team.go)
	// unlogged: the board was heard again without a log to rebuild from
	// (Unlogged); cleared once the board shows the record's position.
	unlogged bool
}

// NewSession starts a game, or resumes rec when it is not nil: the tracker
// and adjudicator are rebuilt by replaying rec's moves (so ply numbers,
// repetition history and castling rights carry over) and the revision is
// kept. rec's StartFEN wins over o.StartFEN.
func NewSession(o SessionOptions, rec *gamerecord.Record, at time.Time) (*Session, error) {
	if o.Partner != (game.ID{}) {
		return nil, fmt.Errorf("%w: game %s has a partner board: start both with NewTeamSessions", ErrTeam, o.Info.Game)
	}
	if rec == nil {
		rec = gamerecord.NewRecord(o.Info, o.StartFEN, at)
	}
	if o.ClockEvery == 0 {
		o.ClockEvery = DefaultClockEvery
	}
	if o.ClockSilence == 0 {
		o.ClockSilence = DefaultClockSilence
	}
	s := &Session{o: o, rec: rec, running: rules.NoColor}
	if err := s.rebuild(at); err != nil {
		return nil, err
	}
	if s.Over() {
		s.endBoard(at) // a finished game restored: the board is set up for the next
	}
	return s, nil
}

// Record returns the game record (owned by the session; copy before
// handing it to another goroutine).
func (s *Session) Record() *gamerecord.Record { return s.rec }

// Tracker returns the board tracker.
func (s *Session) Tracker() *board.Tracker { return s.tr }

// ErrReplay: a recorded move does not play from the record's position (a
// record edited by hand, or written by another rules version).
var ErrReplay = errors.New("hall: recorded move does not replay")

// rebuild makes a new tracker and adjudicator and replays the record into
// them: each recorded position is shown to the tracker as a full board read
// and completed, exactly as a board caught up after a reconnect would be.
func (s *Session) rebuild(at time.Time) error {
	if s.team != nil {
		return s.teamRebuild(at)
	}
	variant := s.rec.Variant()
	start, err := startPosition(variant, s.rec.StartFEN, s.o.RuleSet)
	if err != nil {
		return fmt.Errorf("hall: game %s: start position: %w", s.rec.Info.Game, err)
	}
	s.start = start
	to := s.o.Tracker
	to.Start = start
	to.Rotated = s.rec.Rotated
	if to.Setup == nil && (variant == "chess" || variant == "chess960") {
		v := chess.Standard
		if variant == "chess960" {
			v = chess.Chess960
		}
		to.Setup = board.ChessSetup(v)
	}
	if variant == gamerecord.VariantXiangqi {
		// Generals never leave the palace: no kings-in-the-centre gesture.
		to.KingsCentre = false
		if to.Setup == nil {
			to.Setup = xiangqiSetup(s.o.RuleSet)
		}
	}
	to.IllegalStands = s.o.RuleSet.IllegalMovesStand()
	if s.o.Blind != nil {
		s.adj = adjudicator.New(adjudicator.GameInfo{ID: s.rec.Info.Game, White: s.rec.Info.White, Black: s.rec.Info.Black},
			s.o.RuleSet, adjudicator.Options{Penalties: s.o.Penalties, TimeControl: s.o.TimeControl, NoTiming: s.o.NoTiming, Start: start, Expected: s.prescribed(), MidGame: len(s.rec.Moves) > 0, ClockHost: s.rec.ClockHost})
		return s.newRelay(to, start, at)
	}
	tr, err := board.New(to)
	if err != nil {
		return fmt.Errorf("hall: game %s: tracker: %w", s.rec.Info.Game, err)
	}
	old := s.tr
	s.tr = tr
	switch s.rec.ClockLeft {
	case rules.White.String():
		tr.SetClockSides(rules.White)
	case rules.Black.String():
		tr.SetClockSides(rules.Black)
	}
	s.adj = adjudicator.New(adjudicator.GameInfo{ID: s.rec.Info.Game, White: s.rec.Info.White, Black: s.rec.Info.Black},
		s.o.RuleSet, adjudicator.Options{Penalties: s.o.Penalties, TimeControl: s.o.TimeControl, NoTiming: s.o.NoTiming, Start: start, Expected: s.prescribed(), MidGame: len(s.rec.Moves) > 0, ClockHost: s.rec.ClockHost})
	pos := start
	t := at
	for i, m := range s.rec.Moves {
		mv, err := pos.ParseMove(m.UCI)
		if err == nil {
			pos, err = pos.Play(mv)
		}
		if err != nil {
			return fmt.Errorf("%w: game %s ply %d %s: %v", ErrReplay, s.rec.Info.Game, i+1, m.UCI, err)
		}
		pl := pos.Placement()
		if s.rec.Rotated {
			pl = rotatePlacement(pl)
		}
		evs := tr.Dump(t, pl)
		evs = append(evs, tr.Finish(t)...)
		for _, ev := range evs {
			s.adj.Handle(ev)
		}
		if tr.Completed() != i+1 {
			return fmt.Errorf("%w: game %s ply %d %s: the tracker did not take it", ErrReplay, s.rec.Info.Game, i+1, m.UCI)
		}
	}
	// The same clock as before the rebuild (moves recovered from the
	// board's log, a correction): what the tracker had learnt of it.
	tr.CarryClock(old)
	if len(s.rec.Moves) > 0 {
		// A game taken up again (the daemon restarted): the presses made
		// since the record was written were not heard, as for a board
		// that was away (clockwatch.go, boardDevice). The first running
		// reading is the new reference, and the moves the board's first
		// full read catches up are completed with it, not each by a later
		// press (one ply late for the rest of the game, the last move
		// never).
		for _, ev := range append(tr.ClockLost(at), tr.ClockBack(at)...) {
			s.adj.Handle(ev)
		}
	}
	return nil
}

// prescribed returns the start position the game is to be played from,
// as configured (SessionOptions.StartFEN, or the variant's standard start;
// nil for a Chess960 game without its drawn position): a set-up that
// differs is a setup_mismatch for the arbiter.
func (s *Session) prescribed() rules.Position {
	v := s.rec.Variant()
	if s.o.StartFEN == "" && v == "chess960" {
		return nil
	}
	p, err := startPosition(v, s.o.StartFEN, s.o.RuleSet)
	if err != nil {
		return nil
	}
	return p
}

func rotatePlacement(p rules.Placement) rules.Placement {
	q := rules.NewPlacement(p.Geo)
	n := p.Geo.Size()
	for i := 0; i < n; i++ {
		q.Sq[n-1-i] = p.Sq[i]
	}
	return q
}

// over reports whether the record has a result (final or provisional):
// the board is then no longer followed until the arbiter sets "*".
func (s *Session) Over() bool { return s.rec.Result != "" && s.rec.Result != "*" }

// Tick lets time pass (settle windows, holds, stable windows).
func (s *Session) Tick(at time.Time) Step { return s.tick(at, time.Time{}, false) }

// Answered says that the game's polled board (a DGT board on a bus line)
// answered at at a poll sent at asked, and that its answer has been fed
// whole, possibly empty; then it lets time pass as Tick does. A press
// waiting for a later look at the board is judged on it
// (board.Tracker.Answered).
func (s *Session) Answered(at, asked time.Time) Step { return s.tick(at, asked, true) }

func (s *Session) tick(at, asked time.Time, answer bool) Step {
	var st Step
	if s.relay != nil {
		s.relayStep(s.relay.r.Tick(at), &st)
		return st
	}
	if answer {
		s.handle(s.tr.Answered(at, asked), &st)
	} else {
		s.handle(s.tr.Tick(at), &st)
	}
	s.clockSilence(at, &st)
	if s.team != nil {
		s.teamTick(at, &st)
	}
	return st
}

// Finish ends the input (end of a recording): moves made but not completed
// are completed.
func (s *Session) Finish(at time.Time) Step {
	var st Step
	if s.relay != nil {
		s.relayStep(s.relay.r.Finish(at), &st)
		return st
	}
	s.handle(s.tr.Finish(at), &st)
	if s.team != nil {
		s.teamTick(at, &st)
	}
	return st
}

// Device reports the loss (lost true) or return of the board or clock.
func (s *Session) Device(at time.Time, dev game.Device, lost bool, detail string) Step {
	var st Step
	if dev == game.DeviceBoard && s.relay == nil {
		s.boardDevice(at, lost, &st)
	}
	var ev game.Event = game.DeviceBack{Stamp: game.Stamp{At: at}, Device: dev}
	if lost {
		ev = game.DeviceLost{Stamp: game.Stamp{At: at}, Device: dev, Detail: detail}
	}
	s.adjudicate(ev, &st)
	return st
}

// Command applies an arbiter command. A bad command changes nothing and
// returns the adjudicator's *arbiter.CommandError.
func (s *Session) Command(c adjudicator.Command, at time.Time) (Step, error) {
	if s.team != nil {
		return s.teamCommand(c, at)
	}
	var st Step
	outs, err := s.adj.Command(c, at)
	if err != nil {
		return st, err
	}
	s.verdicts(outs, &st)
	s.showRecord(at, &st)
	return st, nil
}

// setup handles a start position set up on the board; it reports whether a
// new game began (with a new adjudicator).
func (s *Session) setup(e game.SetupDetected, st *Step) bool {
	fen := ""
	if e.Position != nil && e.Position.FEN() != s.start.FEN() {
		fen = e.Position.FEN()
	}
	if len(s.rec.Moves) == 0 {
		if fen != s.rec.StartFEN {
			s.rec.StartFEN = fen
			st.Changed = true
		}
		if p, err := startPosition(s.rec.Variant(), fen, s.o.RuleSet); err == nil {
			s.start = p
		}
		return false
	}
	if !s.o.NewGameOnSetup {
		s.truncate(0, e.At, game.SetupReset, st)
		return false
	}
	st.Finished = append(st.Finished, s.rec)
	s.rec = gamerecord.NewRecord(s.o.Info, fen, e.At)
	st.Changed = true
	s.adj = adjudicator.New(adjudicator.GameInfo{ID: s.rec.Info.Game, White: s.rec.Info.White, Black: s.rec.Info.Black},
		s.o.RuleSet, adjudicator.Options{Penalties: s.o.Penalties, TimeControl: s.o.TimeControl, NoTiming: s.o.NoTiming})
	s.adj.Handle(e)
	return true
}

// clock keeps the last reading and publishes a ClockEvent when the running
// side changes or ClockEvery has passed.
func (s *Session) clock(e game.ClockChanged, st *Step) {
	c := e.Clock
	s.rec.Clock = &game.ClockPair{WhiteMS: game.Millis(c.White), BlackMS: game.Millis(c.Black)}
	if c.Running == s.running && s.o.ClockEvery > 0 && e.At.Sub(s.lastClk) < s.o.ClockEvery {
		return
	}
	s.running = c.Running
	s.lastClk = e.At
	run := game.RunningNone
	switch c.Running {
	case rules.White:
		run = game.RunningWhite
	case rules.Black:
		run = game.RunningBlack
	}
	st.Out = append(st.Out, game.ClockEvent{Game: s.rec.Info.Game, WhiteMS: game.Millis(c.White),
		BlackMS: game.Millis(c.Black), Running: run, At: game.T(e.At)})
}

// DefaultTrackerOptions are the tracker options of a hall board: the
// tracker's own defaults, plus automatic orientation (a board turned around
// is read turned around) and the kings-in-the-centre result gesture, the
// DGT conventions every board in a hall is set up for.
func DefaultTrackerOptions() board.TrackerOptions {
	return board.TrackerOptions{AutoOrientation: true, KingsCentre: true, Reread: true}
}

// Empty reports whether the step has nothing to do.
func (st Step) Empty() bool {
	return len(st.Out) == 0 && len(st.Clock) == 0 && !st.Changed && len(st.Finished) == 0
}
