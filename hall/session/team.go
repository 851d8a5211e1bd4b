package session

import (
	"errors"
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/teamdrop"
)

// A team-drop game (004 "Cờ đặt") is one board of a match of two partner
// boards: the captures of one board feed the pockets of the other, a drop
// is checked against the pocket, and the first end on either board ends
// both (rules/teamdrop). The two boards' sessions share one teamMatch,
// and one goroutine owns the three (the hall's for the pair, or a replay
// of two recordings): no lock, and the match sees the two boards' moves
// in the order they reached it.
//
// The match judges; the sessions follow. Each board's tracker judges
// moves against the match's position of its board (pockets included):
// legal drops and removals are moves the search finds, the others are
// attempts (board/teamdrop.go) handed to the match once completed, which
// records them as they stood. After every call the match's Update says
// which boards' pockets and results changed; the trackers get the new
// positions, the records the pockets, and the findings become alerts. The
// adjudicator of each board (rules/adjudicator, with MatchJudges) keeps the
// clock, flags, touch-move evidence and the arbiter's other commands.

// ErrTeam: two boards cannot be linked as a team-drop match (the wrapped
// error says why).
var ErrTeam = errors.New("hall: team-drop match")

// teamMatch is the match of two partner boards and their sessions.
type teamMatch struct {
	m *teamdrop.Match
	s [2]*Session
	// logged: how many of the match's events are in the records.
	logged int
	// pend: effects on a board that the other board's input caused,
	// until its goroutine takes them (Session.TakePartner).
	pend [2]Step
	// alerts: the findings published as alerts, by alert id (arbiter
	// commands refer to them); applied: those whose proposal the arbiter
	// applied.
	alerts  map[string]teamAlert
	applied map[string]bool
	seq     map[string]int
}

// teamAlert is a finding published as an alert, and its board.
type teamAlert struct {
	f     teamdrop.Finding
	board teamdrop.Board
}

// teamLink is a session's link to its match.
type teamLink struct {
	tm *teamMatch
	b  teamdrop.Board
	// base: the record's plies before the tracker's start (the tracker
	// starts at the match's position after a restart or a reinstatement):
	// a tracker ply plus base is a record ply.
	base int
	// accepted: the match already recorded the illegal move the tracker
	// is about to complete (AcceptIllegalAs).
	accepted *teamdrop.Update
	// busy: the session is handling tracker events (nested calls count);
	// the tracker may then be ahead of the match (moves it completed that
	// the match has not been given yet), so new pockets wait (due, dueAt)
	// until the events are handled.
	busy  int
	due   bool
	dueAt time.Time
}

// NewTeamSessions starts the sessions of two partner boards and their
// match, or resumes them from their records (either nil: a new game): the
// match is rebuilt from the events both records hold (teamdrop.Restore),
// each tracker starts at its board's position in the match. oa and ob are
// the two boards' options, in either order: board A of the match is the
// lower board number. Both must be team-drop games under the same rule
// set, each naming the other as Partner.
func NewTeamSessions(oa, ob SessionOptions, reca, recb *gamerecord.Record, at time.Time) ([2]*Session, error) {
	var none [2]*Session
	if oa.Info.Game.Board > ob.Info.Game.Board {
		oa, ob, reca, recb = ob, oa, recb, reca
	}
	opts := [2]SessionOptions{oa, ob}
	recs := [2]*gamerecord.Record{reca, recb}
	for i, o := range opts {
		p := opts[1-i].Info.Game
		switch {
		case o.RuleSet.Variant != "team-drop":
			return none, fmt.Errorf("%w: game %s: rule set %s is not a team-drop rule set", ErrTeam, o.Info.Game, o.RuleSet.Name)
		case o.Partner != p:
			return none, fmt.Errorf("%w: game %s names %s as its partner, not %s", ErrTeam, o.Info.Game, o.Partner, p)
		case o.Blind != nil:
			return none, fmt.Errorf("%w: game %s: a team-drop game cannot be relayed for a blind player", ErrTeam, o.Info.Game)
		}
	}
	if oa.RuleSet.Name != ob.RuleSet.Name {
		return none, fmt.Errorf("%w: %s plays under %s, its partner %s under %s", ErrTeam, oa.Info.Game, oa.RuleSet.Name, ob.Info.Game, ob.RuleSet.Name)
	}
	began := at
	for i := range recs {
		if recs[i] == nil {
			recs[i] = gamerecord.NewRecord(opts[i].Info, opts[i].StartFEN, at)
		}
		r := recs[i]
		if r.Team == nil {
			r.Team = &gamerecord.TeamRecord{Partner: opts[1-i].Info.Game, Board: teamdrop.Board(i).String(), Began: at}
		} else if !r.Team.Began.IsZero() && r.Team.Began.Before(began) {
			began = r.Team.Began
		}
	}
	for _, r := range recs {
		r.Team.Began = began
	}
	events, ok := gamerecord.MergeTeamEvents(recs[0].Team, recs[1].Team)
	if !ok {
		return none, fmt.Errorf("%w: the records of %s and %s hold different parts of the match (events out of sequence)", ErrTeam, oa.Info.Game, ob.Info.Game)
	}
	m, err := teamdrop.Restore(oa.RuleSet, recs[0].StartFEN, recs[1].StartFEN, began, events)
	if err != nil {
		return none, fmt.Errorf("%w: %s and %s: %w", ErrTeam, oa.Info.Game, ob.Info.Game, err)
	}
	tm := &teamMatch{m: m, logged: len(events), alerts: map[string]teamAlert{}, applied: map[string]bool{}, seq: map[string]int{}}
	for i := range recs {
		if n, want := len(recs[i].Moves), len(m.Plies(teamdrop.Board(i))); n != want {
			return none, fmt.Errorf("%w: %s: the record has %d moves, its match %d", ErrTeam, recs[i].Info.Game, n, want)
		}
		o := opts[i]
		if o.ClockEvery == 0 {
			o.ClockEvery = DefaultClockEvery
		}
		if o.ClockSilence == 0 {
			o.ClockSilence = DefaultClockSilence
		}
		s := &Session{o: o, rec: recs[i], running: rules.NoColor}
		s.team = &teamLink{tm: tm, b: teamdrop.Board(i)}
		tm.s[i] = s
		w, b := m.Pockets(teamdrop.Board(i))
		recs[i].Team.Pockets = gamerecord.GamePockets(w, b)
	}
	for _, s := range tm.s {
		if err := s.rebuild(at); err != nil {
			return none, err
		}
	}
	return tm.s, nil
}

// Partner returns the session of the partner board of a team-drop game
// (nil for every other game).
func (s *Session) Partner() *Session {
	if s.team == nil {
		return nil
	}
	return s.team.tm.s[s.team.b.Partner()]
}

// TakePartner returns what the partner board's input did to this game
// since the last call (pockets fed by a capture, the match's end, the
// arbiter's correction there): the caller handles it like any Step. Empty
// for a game that is not team-drop.
func (s *Session) TakePartner() Step {
	if s.team == nil {
		return Step{}
	}
	p := &s.team.tm.pend[s.team.b]
	st := *p
	*p = Step{}
	return st
}

// step returns where the effects on board b go while board from's input
// is handled: from's own step, or b's pending one.
func (tm *teamMatch) step(b, from teamdrop.Board, own *Step) *Step {
	if b == from {
		return own
	}
	return &tm.pend[b]
}

// logEvents puts the match's new events into the records of their boards
// (the record changes, so it is saved before anything is published).
func (tm *teamMatch) logEvents(from teamdrop.Board, own *Step) {
	evs := tm.m.Events()
	for i := tm.logged; i < len(evs); i++ {
		e := evs[i]
		b := e.Board
		if b > teamdrop.B {
			b = teamdrop.A
		}
		r := tm.s[b].rec.Team
		r.Events = append(r.Events, gamerecord.TeamEvent{Seq: i, Event: e})
		tm.step(b, from, own).Changed = true
	}
	tm.logged = len(evs)
}

// apply carries out what one call of the match changed (u), for input of
// board from whose step is own: the new events into the records, the
// findings as alerts, new pockets to the records and trackers, new
// results to the records.
func (tm *teamMatch) apply(u teamdrop.Update, from teamdrop.Board, own *Step, at time.Time) {
	tm.logEvents(from, own)
	for _, f := range u.Findings {
		b := f.Where().Board
		st := tm.step(b, from, own)
		st.Out = append(st.Out, tm.alert(f))
	}
	for i, changed := range u.Pockets {
		if changed {
			tm.repocket(teamdrop.Board(i), from, own, at)
		}
	}
	for i, s := range tm.s {
		if s.tr != nil {
			s.tr.SetLiftable(tm.m.Liftable(teamdrop.Board(i)))
		}
	}
	for i, changed := range u.Results {
		if !changed {
			continue
		}
		b := teamdrop.Board(i)
		s := tm.s[b]
		r := tm.m.Result(b)
		s.result(game.Result{Game: s.rec.Info.Game, Result: r.Result, Termination: r.Termination, Article: r.Article,
			Provisional: r.Provisional, At: game.T(at)}, tm.step(b, from, own))
	}
}

// repocket hands board b's position in the match (its pockets changed) to
// its record and tracker.
func (tm *teamMatch) repocket(b, from teamdrop.Board, own *Step, at time.Time) {
	s := tm.s[b]
	st := tm.step(b, from, own)
	w, bl := tm.m.Pockets(b)
	if p := gamerecord.GamePockets(w, bl); p != s.rec.Team.Pockets {
		s.rec.Team.Pockets = p
		if at.After(s.rec.UpdatedAt) {
			s.rec.UpdatedAt = at // a new state (its message id names the time)
		}
		st.Changed = true
	}
	if s.tr == nil || s.Over() {
		return // the game has ended: the tracker follows nothing more
	}
	if l := s.team; l.busy > 0 {
		l.due, l.dueAt = true, at
		return
	}
	pos := tm.m.Position(b)
	cur := s.tr.PositionAt(s.tr.Completed())
	if cur != nil && cur.FEN() == pos.FEN() {
		return
	}
	evs, err := s.tr.Repocket(at, pos)
	if err != nil {
		// The tracker's position is not the match's (it should never
		// happen): carry on from the match's.
		st.Out = append(st.Out, s.internalAlert(at, fmt.Errorf("board %s: the pockets could not be handed to the tracker: %w", b, err)))
		s.restartTracker(at, st)
		return
	}
	s.handle(evs, st)
}

// partnerLost tells the partner board of board b that b's record is lost
// (a record_lost crit there) or found again (its info): while it is lost,
// the captures made on b reach nobody's pocket, so the partner's drops
// are judged with pockets that may lack pieces (a drop read as another
// kind, or reported as a drop of a piece not in the pocket). The alert is
// the partner's record_lost warning, naming b's game in its proposal
// ("partner"), resolved by an info alert of the same kind when b's record
// is found.
func (tm *teamMatch) partnerLost(b teamdrop.Board, a game.Alert, own *Step) {
	p := b.Partner()
	s := tm.s[p]
	if s.Over() {
		return
	}
	g := s.rec.Info.Game
	lost := a.Severity != game.Info
	key := fmt.Sprintf("%s.%s.%d", g, game.KindRecordLost, len(s.rec.Moves))
	seq := tm.seq[key]
	tm.seq[key] = seq + 1
	out := game.Alert{ID: fmt.Sprintf("%s.%d", key, seq), Game: g, Kind: game.KindRecordLost, Severity: game.Warn, Article: a.Article,
		Ply: len(s.rec.Moves), At: a.At, Proposal: map[string]any{"partner": a.Game.String()},
		Message: fmt.Sprintf("The record of the partner board %s is lost (its ply %d is the last that agreed with its board): the pieces captured there since reach no pocket, so this board's drops are judged with pockets that may lack them. Check this board's drops until the partner board's record is found again.", a.Game, a.Ply)}
	if !lost {
		out.Severity = game.Info
		out.Message = fmt.Sprintf("The record of the partner board %s was found again: this board's pockets follow it again; check the drops made meanwhile.", a.Game)
	}
	st := tm.step(p, b, own)
	st.Out = append(st.Out, out)
}
