package hall

import (
	"errors"
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/board"
	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/arbiter"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/clock"
	"github.com/dgtbridge/dgtbridge/rules/pgn"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// DefaultClockEvery is the default SessionOptions.ClockEvery.
const DefaultClockEvery = 10 * time.Second

// SessionOptions configure a Session.
type SessionOptions struct {
	Info Info
	// StartFEN is the start position; "" is the variant's standard start.
	StartFEN string
	// RuleSet judges the game (its Variant must match Info.Variant).
	RuleSet ruleset.RuleSet
	// TimeControl parsed from Info.TimeControl (zero: unknown).
	TimeControl clock.TimeControl
	// Penalties: alert (default) or auto (time penalties go to the clock).
	Penalties arbiter.Penalties
	// Tracker tunes the board tracker; Start, Setup, Rotated and
	// IllegalStands are filled in by the session (IllegalStands from the
	// rule set: an illegal move stands once the opponent moves when the
	// rule set's window closes then, A.4.2/B.4).
	Tracker board.Options
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
	NextGame func(finished Info) Info
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
	// NoTiming: message times are not wall-clock times (a replay of a raw
	// or base64 recording, spaced by ReplayOptions.Gap), so the clock model
	// compares readings with each other but not with the time between them
	// (arbiter.Options.NoTiming); no clock defect is inferred from the
	// synthetic spacing.
	NoTiming bool
}

// Step is what one input caused, in order: payloads to publish
// (broadcast.MoveEvent, broadcast.Correction, broadcast.ClockEvent,
// broadcast.Result, *arbiter.Alert, *arbiter.ClockCommand) and whether the
// record changed (persist it before publishing).
type Step struct {
	Out     []any
	Changed bool
	// Finished holds games that a new set-up ended (NewGameOnSetup).
	Finished []*Record
}

// Session is the pure core of one game: tracker, adjudicator and record.
// No goroutines, no wall clock; one goroutine owns it.
type Session struct {
	o       SessionOptions
	rec     *Record
	tr      *board.Tracker
	adj     *arbiter.Adjudicator
	start   rules.Position
	running rules.Color // last reading's running side
	lastClk time.Time   // last ClockEvent published
	relay   *relayState // with SessionOptions.Blind (blind.go)
	cw      clockWatch  // is the clock still heard (clockwatch.go)
}

// NewSession starts a game, or resumes rec when it is not nil: the tracker
// and adjudicator are rebuilt by replaying rec's moves (so ply numbers,
// repetition history and castling rights carry over) and the revision is
// kept. rec's StartFEN wins over o.StartFEN.
func NewSession(o SessionOptions, rec *Record, at time.Time) (*Session, error) {
	if rec == nil {
		rec = NewRecord(o.Info, o.StartFEN, at)
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
	return s, nil
}

// Record returns the game record (owned by the session; copy before
// handing it to another goroutine).
func (s *Session) Record() *Record { return s.rec }

// Tracker returns the board tracker.
func (s *Session) Tracker() *board.Tracker { return s.tr }

// Adjudicator returns the adjudicator.
func (s *Session) Adjudicator() *arbiter.Adjudicator { return s.adj }

// ErrReplay: a recorded move does not play from the record's position (a
// record edited by hand, or written by another rules version).
var ErrReplay = errors.New("hall: recorded move does not replay")

// rebuild makes a new tracker and adjudicator and replays the record into
// them: each recorded position is shown to the tracker as a full board read
// and completed, exactly as a board caught up after a reconnect would be.
func (s *Session) rebuild(at time.Time) error {
	variant := s.rec.variant()
	start, err := pgn.ChessPosition(variant, s.rec.StartFEN)
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
	to.IllegalStands = s.o.RuleSet.Illegal.Window == ruleset.UntilOpponentMoves
	if s.o.Blind != nil {
		s.adj = arbiter.New(arbiter.GameInfo{ID: s.rec.Info.Game.String(), White: s.rec.Info.White, Black: s.rec.Info.Black},
			s.o.RuleSet, arbiter.Options{Penalties: s.o.Penalties, TimeControl: s.o.TimeControl, NoTiming: s.o.NoTiming, Start: start, MidGame: len(s.rec.Moves) > 0})
		return s.newRelay(to, start, at)
	}
	tr, err := board.New(to)
	if err != nil {
		return fmt.Errorf("hall: game %s: tracker: %w", s.rec.Info.Game, err)
	}
	s.tr = tr
	switch s.rec.ClockLeft {
	case rules.White.String():
		tr.SetClockSides(rules.White)
	case rules.Black.String():
		tr.SetClockSides(rules.Black)
	}
	s.adj = arbiter.New(arbiter.GameInfo{ID: s.rec.Info.Game.String(), White: s.rec.Info.White, Black: s.rec.Info.Black},
		s.o.RuleSet, arbiter.Options{Penalties: s.o.Penalties, TimeControl: s.o.TimeControl, NoTiming: s.o.NoTiming, Start: start, MidGame: len(s.rec.Moves) > 0})
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
	return nil
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
func (s *Session) over() bool { return s.rec.Result != "" && s.rec.Result != "*" }

// Message feeds one DGT message that arrived at at.
func (s *Session) Message(at time.Time, m dgt.Message) Step {
	if s.relay != nil {
		return s.MessageFrom(board.SightedBoard, at, m)
	}
	var st Step
	if ct, ok := m.(dgt.ClockTimes); ok && !s.watchClock(at, ct, &st) {
		return st
	}
	evs := board.FeedMessage(s.tr, at, m)
	if ct, ok := m.(dgt.ClockTimes); ok && s.rec.ClockLeft == "" {
		s.learnClockSides(ct, evs, &st)
	}
	s.handle(evs, &st)
	return st
}

// learnClockSides keeps the tracker's mapping of clock sides to colours
// (decided on the first running reading of the game) in the record, so a
// resumed game maps them the same way even when moves were made while the
// daemon was down (the tracker would otherwise guess from the side to move).
func (s *Session) learnClockSides(ct dgt.ClockTimes, evs []board.Event, st *Step) {
	raw := ct.RunningSide()
	if raw == dgt.NoSide {
		return
	}
	for _, ev := range evs {
		c, ok := board.Value(ev).(board.ClockChanged)
		if !ok || c.Clock.Running == rules.NoColor {
			continue
		}
		left := c.Clock.Running
		if raw == dgt.RightSide {
			left = left.Other()
		}
		s.rec.ClockLeft = left.String()
		st.Changed = true
		return
	}
}

// Tick lets time pass (settle windows, holds, stable windows).
func (s *Session) Tick(at time.Time) Step {
	var st Step
	if s.relay != nil {
		s.relayStep(s.relay.r.Tick(at), &st)
		return st
	}
	s.handle(s.tr.Tick(at), &st)
	s.clockSilence(at, &st)
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
	return st
}

// Device reports the loss (lost true) or return of the board or clock.
func (s *Session) Device(at time.Time, dev arbiter.Device, lost bool, detail string) Step {
	var st Step
	if dev == arbiter.DeviceBoard && s.relay == nil {
		s.boardDevice(at, lost, &st)
	}
	var ev board.Event = arbiter.DeviceBack{Stamp: board.Stamp{At: at}, Device: dev}
	if lost {
		ev = arbiter.DeviceLost{Stamp: board.Stamp{At: at}, Device: dev, Detail: detail}
	}
	s.adjudicate(ev, &st)
	return st
}

// Command applies an arbiter command. A bad command changes nothing and
// returns the adjudicator's *arbiter.CommandError.
func (s *Session) Command(c arbiter.Command, at time.Time) (Step, error) {
	var st Step
	outs, err := s.adj.Command(c, at)
	if err != nil {
		return st, err
	}
	s.outputs(outs, at, &st)
	return st, nil
}

// handle applies tracker events to the record and the adjudicator.
func (s *Session) handle(evs []board.Event, st *Step) {
	for _, ev := range evs {
		ev = board.Value(ev)
		if s.over() {
			// The game has a result: follow nothing on the board but the
			// clock; the arbiter's set_result "*" resumes it.
			if c, ok := ev.(board.ClockChanged); ok {
				s.clock(c, st)
			}
			if e, ok := ev.(board.SetupDetected); ok && s.o.NextGame != nil {
				s.nextGame(e, st)
			}
			continue
		}
		switch e := ev.(type) {
		case board.MoveCompleted:
			s.completed(e, st)
		case board.Correction:
			s.truncate(e.Ply, e.At, e.Reason.String(), st)
		case board.SetupDetected:
			if s.setup(e, st) {
				continue // a new game: the fresh adjudicator has seen it
			}
		case board.ClockChanged:
			s.clock(e, st)
		case board.OrientationChanged:
			s.rec.Rotated = e.Rotated
			st.Changed = true
		case board.ResultGesture:
			s.adjudicate(ev, st)
			if !s.o.GestureNoResult && !s.over() {
				s.outputs([]arbiter.Output{&arbiter.Result{Game: s.rec.Info.Game.String(), Result: e.Result,
					Termination: "result gesture", Provisional: true, At: e.At}}, e.At, st)
			}
			continue
		}
		s.adjudicate(ev, st)
	}
}

func (s *Session) adjudicate(ev board.Event, st *Step) {
	s.outputs(s.adj.Handle(ev), ev.When(), st)
}

// outputs turns adjudicator outputs into record changes and payloads.
func (s *Session) outputs(outs []arbiter.Output, at time.Time, st *Step) {
	for _, o := range outs {
		switch o := o.(type) {
		case *arbiter.Alert:
			st.Out = append(st.Out, o)
		case *arbiter.ClockCommand:
			st.Out = append(st.Out, o)
		case *arbiter.Result:
			wasOver := s.over()
			s.rec.Result, s.rec.Termination, s.rec.Article, s.rec.Provisional = o.Result, o.Termination, o.Article, o.Provisional
			if s.rec.Result == "" {
				s.rec.Result = "*"
			}
			s.rec.UpdatedAt = o.At
			st.Changed = true
			st.Out = append(st.Out, s.rec.ResultPayload(o.At))
			if wasOver && !s.over() {
				// The game resumes: follow the board from the record again.
				if err := s.rebuild(o.At); err != nil {
					st.Out = append(st.Out, s.internalAlert(o.At, err))
				}
			}
		case *arbiter.Correction:
			// An arbiter command (reinstate): the tracker goes back too.
			reinstate := s.tr.Reinstate
			if s.relay != nil {
				reinstate = s.relay.r.Reinstate
			}
			evs, err := reinstate(o.At, o.Ply)
			if err != nil {
				st.Out = append(st.Out, s.internalAlert(o.At, err))
			}
			_ = evs // the adjudicator has already cut its record
			s.truncate(o.Ply, o.At, o.Reason, st)
		}
	}
}

// internalAlert tells the arbiter that the daemon could not carry out
// something (never the players).
func (s *Session) internalAlert(at time.Time, err error) *arbiter.Alert {
	return &arbiter.Alert{ID: fmt.Sprintf("%s.%s.%d.%d", s.rec.Info.Game, KindBoardMismatch, len(s.rec.Moves), at.UnixMilli()),
		Game: s.rec.Info.Game.String(), Kind: KindBoardMismatch, Severity: arbiter.Warn, Ply: len(s.rec.Moves),
		Message: "the daemon could not follow the record: " + err.Error(), At: at}
}

func (s *Session) completed(e board.MoveCompleted, st *Step) {
	if e.Ply <= len(s.rec.Moves) {
		s.truncate(e.Ply-1, e.At, board.Takeback.String(), st)
	}
	var clk *broadcast.ClockPair
	if e.Clock != nil {
		clk = &broadcast.ClockPair{WhiteMS: broadcast.Millis(e.Clock.White), BlackMS: broadcast.Millis(e.Clock.Black)}
		s.rec.Clock = clk
	}
	emt := e.At.Sub(s.rec.lastAt())
	if emt < 0 {
		emt = 0
	}
	fen := ""
	if e.Position != nil {
		fen = e.Position.FEN()
	}
	s.rec.Moves = append(s.rec.Moves, Ply{UCI: e.UCI, SAN: e.SAN, FEN: fen, Clock: clk, EMTMS: broadcast.Millis(emt), At: e.At})
	s.rec.UpdatedAt = e.At
	st.Changed = true
	st.Out = append(st.Out, s.rec.MoveEvent(len(s.rec.Moves)))
}

// truncate cuts the record to ply and raises the revision.
func (s *Session) truncate(ply int, at time.Time, reason string, st *Step) {
	if ply < 0 {
		ply = 0
	}
	if ply > len(s.rec.Moves) {
		return
	}
	s.rec.Moves = s.rec.Moves[:ply]
	s.rec.Revision++
	if s.rec.Published > ply {
		s.rec.Published = ply
	}
	s.rec.UpdatedAt = at
	st.Changed = true
	c := broadcast.Correction{Game: s.rec.Info.Game, Ply: ply, FEN: s.rec.FEN(),
		Moves: s.rec.UCIs(), Reason: reason, At: broadcast.T(at), Revision: s.rec.Revision}
	s.rec.LastCorrection = &c
	st.Out = append(st.Out, c)
}

// setup handles a start position set up on the board; it reports whether a
// new game began (with a new adjudicator).
func (s *Session) setup(e board.SetupDetected, st *Step) bool {
	fen := ""
	if e.Position != nil && e.Position.FEN() != s.start.FEN() {
		fen = e.Position.FEN()
	}
	if len(s.rec.Moves) == 0 {
		if fen != s.rec.StartFEN {
			s.rec.StartFEN = fen
			st.Changed = true
		}
		if p, err := pgn.ChessPosition(s.rec.variant(), fen); err == nil {
			s.start = p
		}
		return false
	}
	if !s.o.NewGameOnSetup {
		s.truncate(0, e.At, "setup", st)
		return false
	}
	st.Finished = append(st.Finished, s.rec)
	s.rec = NewRecord(s.o.Info, fen, e.At)
	st.Changed = true
	s.adj = arbiter.New(arbiter.GameInfo{ID: s.rec.Info.Game.String(), White: s.rec.Info.White, Black: s.rec.Info.Black},
		s.o.RuleSet, arbiter.Options{Penalties: s.o.Penalties, TimeControl: s.o.TimeControl, NoTiming: s.o.NoTiming})
	s.adj.Handle(e)
	return true
}

// clock keeps the last reading and publishes a ClockEvent when the running
// side changes or ClockEvery has passed.
func (s *Session) clock(e board.ClockChanged, st *Step) {
	c := e.Clock
	s.rec.Clock = &broadcast.ClockPair{WhiteMS: broadcast.Millis(c.White), BlackMS: broadcast.Millis(c.Black)}
	if c.Running == s.running && s.o.ClockEvery > 0 && e.At.Sub(s.lastClk) < s.o.ClockEvery {
		return
	}
	s.running = c.Running
	s.lastClk = e.At
	run := broadcast.RunningNone
	switch c.Running {
	case rules.White:
		run = broadcast.RunningWhite
	case rules.Black:
		run = broadcast.RunningBlack
	}
	st.Out = append(st.Out, broadcast.ClockEvent{Game: s.rec.Info.Game, WhiteMS: broadcast.Millis(c.White),
		BlackMS: broadcast.Millis(c.Black), Running: run, At: broadcast.T(e.At)})
}

// DefaultTrackerOptions are the tracker options of a hall board: the
// tracker's own defaults, plus automatic orientation (a board turned around
// is read turned around) and the kings-in-the-centre result gesture, the
// DGT conventions every board in a hall is set up for.
func DefaultTrackerOptions() board.Options {
	return board.Options{AutoOrientation: true, KingsCentre: true}
}
