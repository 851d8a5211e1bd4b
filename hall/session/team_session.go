package session

import (
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/board"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/adjudicator"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/teamdrop"
)

// teamRebuild makes a team-drop game's tracker and adjudicator: the
// tracker starts at the board's position in the match (pockets included)
// and the record's plies are the tracker's base; the adjudicator is told
// the recorded plies (for ply numbers and the clock) and judges nothing
// the match judges.
func (s *Session) teamRebuild(at time.Time) error {
	l := s.team
	m := l.tm.m
	s.start = m.Start(l.b)
	s.adj = adjudicator.New(adjudicator.GameInfo{ID: s.rec.Info.Game, White: s.rec.Info.White, Black: s.rec.Info.Black},
		s.o.RuleSet, adjudicator.Options{Penalties: s.o.Penalties, TimeControl: s.o.TimeControl, NoTiming: s.o.NoTiming,
			Start: m.Start(l.b), MidGame: len(s.rec.Moves) > 0, MatchJudges: true})
	for i, p := range m.Plies(l.b) {
		pos, err := chess.NewPositionOptions(chess.TeamDrop, teamdrop.Options(m.RuleSet()), p.FEN)
		if err != nil {
			return fmt.Errorf("%w: game %s ply %d: %v", ErrReplay, s.rec.Info.Game, i+1, err)
		}
		s.adj.Handle(game.MoveCompleted{Stamp: game.Stamp{At: p.At}, Ply: i + 1, Side: p.Color, Move: p.Move, SAN: p.SAN,
			UCI: p.UCI, Position: pos, MadeAt: p.At, Illegal: p.Illegal})
	}
	return s.newTeamTracker(m.Position(l.b), len(s.rec.Moves))
}

// newTeamTracker starts the tracker at pos, the record's position after
// ply base.
func (s *Session) newTeamTracker(pos rules.Position, base int) error {
	to := s.o.Tracker
	to.Start = pos
	to.Rotated = s.rec.Rotated
	to.Setup = nil // one match per pair: a set-up starts nothing
	to.Drops = true
	// The match records an illegal move at its press (it stands, A4), so
	// the tracker does not wait for the opponent's move.
	to.IllegalStands = false
	tr, err := board.New(to)
	if err != nil {
		return fmt.Errorf("hall: game %s: tracker: %w", s.rec.Info.Game, err)
	}
	switch s.rec.ClockLeft {
	case rules.White.String():
		tr.SetClockSides(rules.White)
	case rules.Black.String():
		tr.SetClockSides(rules.Black)
	}
	s.tr = tr
	s.team.base = base
	return nil
}

// restartTracker takes the tracker to the board's position in the match
// as the start of its record (after a reinstatement, or when it could not
// follow the match): what the tracker knows of the board and the clock
// stays; the board is judged against the new position.
func (s *Session) restartTracker(at time.Time, st *Step) {
	l := s.team
	pos := l.tm.m.Position(l.b)
	if s.tr == nil {
		if err := s.newTeamTracker(pos, len(s.rec.Moves)); err != nil {
			st.Out = append(st.Out, s.internalAlert(at, err))
		}
		return
	}
	evs, err := s.tr.SetPosition(at, pos)
	if err != nil {
		st.Out = append(st.Out, s.internalAlert(at, err))
		return
	}
	l.base = len(s.rec.Moves)
	// The tracker's own correction to ply 0 is the record's present ply:
	// nothing to publish.
	keep := evs[:0]
	for _, ev := range evs {
		if _, ok := ev.(game.Correction); !ok {
			keep = append(keep, ev)
		}
	}
	s.handle(keep, st)
}

// teamShift adds the tracker's base to the plies of its events.
func (s *Session) teamShift(evs []game.Event) []game.Event {
	n := s.team.base
	if n == 0 {
		return evs
	}
	for i, ev := range evs {
		switch e := ev.(type) {
		case game.MoveMade:
			e.Ply += n
			evs[i] = e
		case game.MoveCompleted:
			e.Ply += n
			evs[i] = e
		case game.IllegalMove:
			e.Ply += n
			evs[i] = e
		case game.TouchEvidence:
			e.Ply += n
			evs[i] = e
		case game.Correction:
			e.Ply += n
			evs[i] = e
		case game.MoveRetracted:
			e.Ply += n
			evs[i] = e
		case game.TurnStarted:
			e.Ply += n
			evs[i] = e
		case game.Ambiguous:
			e.Ply += n
			evs[i] = e
		case game.ClockWithoutMove, game.ClockChanged, game.Unexplained, game.Explained, game.SetupDetected, game.SetupMismatch,
			game.ResultGesture, game.DisplacedPieces, game.OrientationChanged, game.BoardMismatch, game.BoardsAgree,
			game.DeviceLost, game.DeviceBack:
			// No ply.
		}
	}
	return evs
}

// teamCompleted records a move the tracker completed: the match judges it
// (a board move, a drop, a removal) and the record takes the move as the
// match wrote it, with this board's pockets after the press.
func (s *Session) teamCompleted(e game.MoveCompleted, st *Step) {
	l := s.team
	var u teamdrop.Update
	if l.accepted != nil {
		u, l.accepted = *l.accepted, nil
	} else {
		if e.Ply <= len(s.rec.Moves) {
			s.teamTakeback(e.Ply-1, e.At, game.Takeback, st)
		}
		var err error
		if u, err = l.tm.m.Complete(l.b, e.Move, e.At); err != nil {
			st.Out = append(st.Out, s.internalAlert(e.At, err))
			s.restartTracker(e.At, st)
			return
		}
	}
	if !u.Recorded {
		l.tm.apply(u, l.b, st, e.At)
		return
	}
	s.recordPly(e, st)
	s.adjudicate(e, st)
	l.tm.apply(u, l.b, st, e.At)
}

// recordPly appends the match's last ply of this board to the record
// and publishes it.
func (s *Session) recordPly(e game.MoveCompleted, st *Step) {
	l := s.team
	plies := l.tm.m.Plies(l.b)
	p := plies[len(plies)-1]
	var clk *game.ClockPair
	if e.Clock != nil {
		clk = &game.ClockPair{WhiteMS: game.Millis(e.Clock.White), BlackMS: game.Millis(e.Clock.Black)}
		s.rec.Clock = clk
	}
	emt := max(e.At.Sub(s.rec.LastAt()), 0)
	pk := game.Pockets{White: p.Pockets[rules.White].String(), Black: p.Pockets[rules.Black].String()}
	s.rec.Moves = append(s.rec.Moves, gamerecord.Ply{UCI: p.UCI, SAN: p.SAN, FEN: p.FEN, Clock: clk, EMTMS: game.Millis(emt), At: e.At, Pockets: &pk})
	s.rec.UpdatedAt = e.At
	st.Changed = true
	st.Out = append(st.Out, s.rec.MoveEvent(len(s.rec.Moves)))
}

// teamAfterEnd hands a move completed after the game's end to the match:
// it is not recorded, and the arbiter is told.
func (s *Session) teamAfterEnd(e game.MoveCompleted, st *Step) {
	l := s.team
	u, err := l.tm.m.Complete(l.b, e.Move, e.At)
	if err != nil {
		return // a move no hand can make, after the end: nothing to record
	}
	if u.Recorded {
		// The match goes on for this board (first_result_ends_match off,
		// or an arbiter's "*" not seen here yet): record it.
		s.recordPly(e, st)
	}
	l.tm.apply(u, l.b, st, e.At)
}

// teamIllegal handles an illegal attempt the tracker reports: once
// completed by the press, the match records it as it stands (A4) and the
// tracker carries on from the position the match made of it. An attempt
// not completed is nothing yet (FIDE 7.5.1): no alert.
func (s *Session) teamIllegal(e game.IllegalMove, st *Step) {
	if !e.Completed {
		return
	}
	l := s.team
	u, err := l.tm.m.Complete(l.b, e.Attempt, e.At)
	if err != nil {
		st.Out = append(st.Out, s.internalAlert(e.At, err))
		return
	}
	if !u.Recorded {
		l.tm.apply(u, l.b, st, e.At)
		return
	}
	l.accepted = &u
	evs, err := s.tr.AcceptIllegalAs(e.At, l.tm.m.Position(l.b))
	if err != nil {
		l.accepted = nil
		st.Out = append(st.Out, s.internalAlert(e.At, err))
		s.restartTracker(e.At, st)
		return
	}
	s.handle(evs, st)
	if l.accepted != nil {
		// The tracker completed nothing: record the ply anyway.
		l.accepted = nil
		s.recordPly(game.MoveCompleted{Stamp: game.Stamp{At: e.At}, Ply: len(s.rec.Moves) + 1, Side: e.Side, Move: e.Attempt}, st)
		l.tm.apply(u, l.b, st, e.At)
	}
}

// teamTakeback takes the match's board back to ply (the board showed an
// earlier position of the record: a takeback) and the record with it.
func (s *Session) teamTakeback(ply int, at time.Time, reason game.CorrectionReason, st *Step) {
	l := s.team
	if ply < 0 || ply >= len(s.rec.Moves) {
		return
	}
	u, err := l.tm.m.Reinstate(l.b, ply, at)
	if err != nil {
		st.Out = append(st.Out, s.internalAlert(at, err))
		return
	}
	s.truncate(ply, at, reason, st)
	l.tm.apply(u, l.b, st, at)
}

// teamReinstate carries out the arbiter's reinstatement (the
// adjudicator's Correction verdict): the match's board goes back to the
// ply, the partner board's pockets follow, and the tracker starts again at
// the match's position.
func (s *Session) teamReinstate(c game.Correction, st *Step) {
	l := s.team
	at := c.When()
	u, err := l.tm.m.Reinstate(l.b, c.Ply, at)
	if err != nil {
		st.Out = append(st.Out, s.internalAlert(at, err))
		return
	}
	s.truncate(c.Ply, at, c.Reason, st)
	s.restartTracker(at, st)
	l.tm.apply(u, l.b, st, at)
}

// teamVerdict handles a verdict of the adjudicator of a team-drop game;
// it reports whether the verdict was handled (else the session's usual
// handling applies). A flag fall ends the match (A11): the match decides
// and its findings replace the adjudicator's alert when the fall changes
// nothing; a result (the arbiter's, an upheld claim) is the match's too.
func (s *Session) teamVerdict(v game.Verdict, st *Step) bool {
	l := s.team
	switch v := v.(type) {
	case game.Alert:
		if v.Kind == game.KindRecordLost {
			l.tm.partnerLost(l.b, v, st)
		}
		if v.Kind != game.KindFlagFall || v.Proposal["result"] == nil {
			return false
		}
		side := rules.White
		if v.Side == rules.Black.String() {
			side = rules.Black
		}
		u, err := l.tm.m.Flag(l.b, side, v.At.Time)
		if err != nil || (len(u.Findings) == 0 && u.Results == [2]bool{}) {
			return true // after the end: nothing happened
		}
		st.Out = append(st.Out, v)
		l.tm.apply(u, l.b, st, v.At.Time)
		return true
	case game.Result:
		s.teamResult(v.Result, v.Termination, v.At.Time, st)
		return true
	case game.Correction:
		s.teamReinstate(v, st)
		return true
	case game.ClockCommand:
	}
	return false
}

// teamResult hands a result on this board to the match: a draw agreed by
// both teams, a confirmed repetition, a resignation, or the arbiter's
// decision.
func (s *Session) teamResult(result, termination string, at time.Time, st *Step) {
	l := s.team
	m := l.tm.m
	var u teamdrop.Update
	var err error
	switch {
	case result == adjudicator.Draw && termination == teamdrop.TermAgreement:
		u, err = m.AgreeDraw(at)
	case result == adjudicator.Draw && termination == teamdrop.TermThreefold:
		u, err = m.ConfirmThreefold(l.b, at)
	case termination == teamdrop.TermResignation && (result == "1-0" || result == "0-1"):
		loser := rules.Black
		if result == "0-1" {
			loser = rules.White
		}
		u, err = m.Resign(l.b, loser, at)
	default:
		u, err = m.SetResult(l.b, result, termination, at)
	}
	if err != nil {
		st.Out = append(st.Out, s.internalAlert(at, err))
		return
	}
	l.tm.apply(u, l.b, st, at)
}

// State returns the game's GameState: the record's, and for a team-drop
// game the match as BPGN.
func (s *Session) State() game.GameState {
	st := s.rec.State()
	if s.team != nil {
		st.BPGN = s.team.tm.bpgn()
	}
	return st
}

// teamReconfigure answers a reload for a team-drop game: the same game is
// nothing to do; another one needs a restart (its match links two boards,
// which a reload does not pair again).
func (s *Session) teamReconfigure(o SessionOptions) error {
	if o.Info == s.rec.Info && o.Partner == s.o.Partner {
		return nil
	}
	return fmt.Errorf("%w: game %s: a team-drop game's players, round or partner change with a restart", ErrTeam, s.rec.Info.Game)
}

// teamBusy marks the session as handling tracker events; the function it
// returns ends that, handing the tracker the pockets that changed
// meanwhile.
func (s *Session) teamBusy(st *Step) func() {
	l := s.team
	l.busy++
	return func() {
		l.busy--
		if l.busy == 0 && l.due {
			l.due = false
			l.tm.repocket(l.b, l.b, st, l.dueAt)
		}
	}
}

// teamTick lets time pass for the match: a drop that waited
// teamdrop.PocketGrace for its piece is reported as an illegal drop.
func (s *Session) teamTick(at time.Time, st *Step) {
	l := s.team
	if u := l.tm.m.Tick(at); len(u.Findings) > 0 {
		l.tm.apply(u, l.b, st, at)
	}
}
