package session

import (
	"fmt"
	"slices"
	"time"

	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// handle applies tracker events to the record and the adjudicator.
func (s *Session) handle(evs []game.Event, st *Step) {
	if s.team != nil {
		evs = s.teamShift(evs)
		defer s.teamBusy(st)()
	}
	if s.unlogged {
		for _, ev := range evs {
			if s.unlogged {
				s.unloggedCheck(ev, st)
			}
		}
		if s.unlogged {
			s.unloggedSettled()
		}
	}
	for _, ev := range evs {
		if s.Over() {
			// The game has a result: follow nothing on the board but the
			// clock; the arbiter's set_result "*" resumes it. A move
			// completed on a team-drop board goes to the match, which
			// tells the arbiter it is not recorded.
			if c, ok := ev.(game.ClockChanged); ok {
				s.clock(c, st)
			}
			if e, ok := ev.(game.MoveCompleted); ok && s.team != nil {
				s.teamAfterEnd(e, st)
			}
			if e, ok := ev.(game.SetupDetected); ok && s.hasNext() {
				s.nextGame(e, st)
			}
			continue
		}
		switch e := ev.(type) {
		case game.MoveCompleted:
			if s.team != nil {
				s.teamCompleted(e, st) // the match judges; the adjudicator keeps the clock
				continue
			}
			s.completed(e, st)
		case game.IllegalMove:
			if s.team != nil {
				s.teamIllegal(e, st) // the match's finding, not the adjudicator's
				continue
			}
		case game.Correction:
			if s.team != nil {
				s.teamTakeback(e.Ply, e.When(), e.Reason, st)
				break
			}
			s.truncate(e.Ply, e.When(), e.Reason, st)
		case game.SetupDetected:
			if s.setup(e, st) {
				continue // a new game: the fresh adjudicator has seen it
			}
		case game.ClockChanged:
			s.clock(e, st)
		case game.OrientationChanged:
			s.rec.Rotated = e.Rotated
			st.Changed = true
		case game.ResultGesture:
			s.adjudicate(ev, st)
			if !s.o.GestureNoResult && !s.Over() && s.team == nil {
				s.verdicts([]game.Verdict{game.Result{Game: s.rec.Info.Game, Result: e.Result,
					Termination: "result gesture", Provisional: true, At: game.T(e.At)}}, st)
			}
			continue
		case game.MoveMade, game.TouchEvidence, game.ClockWithoutMove, game.Unexplained, game.SetupMismatch,
			game.Explained, game.DisplacedPieces, game.MoveRetracted, game.TurnStarted, game.Ambiguous,
			game.BoardMismatch, game.BoardsAgree, game.DeviceLost, game.DeviceBack:
			// The adjudicator's alone.
		}
		s.adjudicate(ev, st)
	}
}

// adjudicate hands one event to the adjudicator and applies its verdicts.
func (s *Session) adjudicate(ev game.Event, st *Step) {
	s.verdicts(s.adj.Handle(ev), st)
}

// verdicts turns the adjudicator's verdicts into record changes, payloads
// and clock commands.
func (s *Session) verdicts(vs []game.Verdict, st *Step) {
	for _, v := range vs {
		if s.team != nil && s.teamVerdict(v, st) {
			continue
		}
		switch v := v.(type) {
		case game.Alert:
			st.Out = append(st.Out, v)
		case game.ClockCommand:
			st.Clock = append(st.Clock, v)
		case game.Result:
			s.result(v, st)
		case game.Correction:
			// An arbiter command (reinstate): the tracker goes back too;
			// the adjudicator has already cut its record.
			reinstate := s.tr.Reinstate
			if s.relay != nil {
				reinstate = s.relay.r.Reinstate
			}
			if _, err := reinstate(v.When(), v.Ply); err != nil {
				st.Out = append(st.Out, s.internalAlert(v.When(), err))
			}
			s.truncate(v.Ply, v.When(), v.Reason, st)
		}
	}
}

// result records a result (or "*": the game resumes) and publishes it.
func (s *Session) result(r game.Result, st *Step) {
	at := r.At.Time
	wasOver := s.Over()
	s.rec.Result, s.rec.Termination, s.rec.Article, s.rec.Provisional = r.Result, r.Termination, r.Article, r.Provisional
	if s.rec.Result == "" {
		s.rec.Result = "*"
	}
	s.rec.UpdatedAt = at
	st.Changed = true
	st.Out = append(st.Out, s.rec.ResultPayload(at))
	if wasOver && !s.Over() {
		// The game resumes: follow the board from the record again.
		if err := s.rebuild(at); err != nil {
			st.Out = append(st.Out, s.internalAlert(at, err))
		}
	}
	if !wasOver && s.Over() {
		s.handle(s.endBoard(at), st)
	}
}

// endBoard tells the board's tracker (or the blind player's relay) that
// the game has a result: nothing on the board is a move any more, and a
// set-up begins the next game however short this one was (not a takeback
// of its moves). A team-drop match ends its boards itself.
func (s *Session) endBoard(at time.Time) []game.Event {
	switch {
	case s.team != nil:
		return nil
	case s.relay != nil:
		return s.relay.r.End(at)
	case s.tr != nil:
		return s.tr.End(at)
	}
	return nil
}

// internalAlert tells the arbiter that the daemon could not carry out
// something (never the players).
func (s *Session) internalAlert(at time.Time, err error) game.Alert {
	return game.Alert{ID: fmt.Sprintf("%s.%s.%d.%d", s.rec.Info.Game, game.KindBoardMismatch, len(s.rec.Moves), at.UnixMilli()),
		Game: s.rec.Info.Game, Kind: game.KindBoardMismatch, Severity: game.Warn, Ply: len(s.rec.Moves),
		Message: "the daemon could not follow the record: " + err.Error(), At: game.T(at)}
}

// completed appends a completed move to the record and publishes it.
func (s *Session) completed(e game.MoveCompleted, st *Step) {
	if e.Ply <= len(s.rec.Moves) {
		s.truncate(e.Ply-1, e.At, game.Takeback, st)
	}
	var clk *game.ClockPair
	if e.Clock != nil {
		clk = &game.ClockPair{WhiteMS: game.Millis(e.Clock.White), BlackMS: game.Millis(e.Clock.Black)}
		s.rec.Clock = clk
	}
	emt := e.At.Sub(s.rec.LastAt())
	if emt < 0 {
		emt = 0
	}
	fen := ""
	if e.Position != nil {
		fen = e.Position.FEN()
	}
	var note string
	if s.rec.Variant() == gamerecord.VariantXiangqi {
		if prev, err := startPosition(gamerecord.VariantXiangqi, s.rec.FEN(), s.o.RuleSet); err == nil {
			note = notation(prev, e.Move, s.o.RuleSet)
		}
	}
	s.rec.Moves = append(s.rec.Moves, gamerecord.Ply{UCI: e.UCI, SAN: e.SAN, FEN: fen, Clock: clk, EMTMS: game.Millis(emt), At: e.At, Notation: note})
	s.rec.UpdatedAt = e.At
	st.Changed = true
	st.Out = append(st.Out, s.rec.MoveEvent(len(s.rec.Moves)))
}

// truncate cuts the record to ply, raises the revision and publishes the
// correction.
func (s *Session) truncate(ply int, at time.Time, reason game.CorrectionReason, st *Step) {
	if ply < 0 {
		ply = 0
	}
	if ply > len(s.rec.Moves) {
		return
	}
	s.rec.Moves = slices.Clip(s.rec.Moves[:ply]) // copies of the record keep theirs (Record.Moves)
	s.rec.Revision++
	if s.rec.Published > ply {
		s.rec.Published = ply
	}
	s.rec.UpdatedAt = at
	st.Changed = true
	c := game.Correction{Game: s.rec.Info.Game, Ply: ply, FEN: s.rec.FEN(),
		Moves: s.rec.UCIs(), Reason: reason, At: game.T(at), Revision: s.rec.Revision}
	s.rec.LastCorrection = &c
	st.Out = append(st.Out, c)
}
