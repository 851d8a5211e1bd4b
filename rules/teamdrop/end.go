package teamdrop

import (
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// EndEvent is an end of the game on one board: a mate, a flag, a
// resignation, an agreed or repetition draw.
type EndEvent struct {
	Board       Board
	Result      string // on Board
	Termination string
	Article     string
	At          time.Time
	Provisional bool
}

// Terminations the match writes.
const (
	TermCheckmate    = "checkmate"
	TermTime         = "time forfeit"
	TermResignation  = "resignation"
	TermAgreement    = "agreement"
	TermThreefold    = "threefold repetition"
	TermPartnerBoard = "partner_board" // docs/contract.md §3.3
)

// endTime returns when the game on board b ended, if it did.
func (m *Match) endTime(b Board) (time.Time, bool) {
	r := m.st.results[b]
	if r.Result == "*" {
		return time.Time{}, false
	}
	return r.At, true
}

// Flag records that c's flag fell on board b at time at: a loss whatever
// the material (R9.3), which ends the match (A11), provisionally until the
// arbiter confirms.
func (m *Match) Flag(b Board, c rules.Color, at time.Time) (Update, error) {
	return m.endEntry(entry{kind: entryEnd, board: b, at: at, end: EndEvent{Board: b, Result: winFor(c.Other()), Termination: TermTime,
		Article: m.rs.TeamDrop.Articles.MatchEnd, At: at, Provisional: true}}, Event{Kind: EventFlag, Board: b, At: at, Color: c})
}

// Resign records that c resigned on board b (R9.4: allowed, FIDE 5.1.2);
// it ends the match.
func (m *Match) Resign(b Board, c rules.Color, at time.Time) (Update, error) {
	return m.endEntry(entry{kind: entryEnd, board: b, at: at, end: EndEvent{Board: b, Result: winFor(c.Other()), Termination: TermResignation,
		Article: "FIDE 5.1.2 (R9.4)", At: at}}, Event{Kind: EventResign, Board: b, At: at, Color: c})
}

// AgreeDraw records a draw agreed by both teams, all four players (A11,
// R9.9); an error wrapping ErrBadCommand when draw_modes excludes it.
func (m *Match) AgreeDraw(at time.Time) (Update, error) {
	if !m.rs.TeamDrop.TeamAgreementDraw {
		return Update{}, fmt.Errorf("%w: draw_modes does not allow a draw by agreement", ErrBadCommand)
	}
	return m.endEntry(entry{kind: entryEnd, board: A, at: at, end: EndEvent{Board: A, Result: Draw, Termination: TermAgreement,
		Article: m.rs.TeamDrop.Articles.Agreement, At: at}}, Event{Kind: EventAgreement, At: at})
}

// ConfirmThreefold records the arbiter's confirmation that the position on
// board b occurred three times (A11): the match is drawn. An error wrapping
// ErrBadCommand when draw_modes excludes it or the position has not
// occurred three times.
func (m *Match) ConfirmThreefold(b Board, at time.Time) (Update, error) {
	if !m.rs.Draws.ThreefoldClaim {
		return Update{}, fmt.Errorf("%w: draw_modes does not allow a draw by repetition", ErrBadCommand)
	}
	bs := &m.st.b[b]
	if n := bs.reps[m.repKey(bs.pos)]; n < 3 {
		return Update{}, fmt.Errorf("%w: the position on board %s occurred %d time(s), not 3", ErrBadCommand, b, n)
	}
	return m.endEntry(entry{kind: entryEnd, board: b, at: at, end: EndEvent{Board: b, Result: Draw, Termination: TermThreefold,
		Article: m.rs.TeamDrop.Articles.Threefold, At: at}}, Event{Kind: EventThreefold, Board: b, At: at})
}

// SetResult records the arbiter's decision on board b (a technical-error
// loss, a confirmed mate, a ruling on simultaneous ends): it is final and
// the partner board gets the team's result (first_result_ends_match). The
// time of the end stays that of an earlier end, if there is one. "*"
// withdraws the results: the match goes on.
func (m *Match) SetResult(b Board, result, termination string, at time.Time) (Update, error) {
	switch result {
	case "1-0", "0-1", Draw, "*":
	default:
		return Update{}, fmt.Errorf("%w: result %q", ErrBadCommand, result)
	}
	if b > B {
		return Update{}, fmt.Errorf("%w: board %d", ErrBadCommand, b)
	}
	e := entry{kind: entrySetResult, board: b, at: at, end: EndEvent{Board: b, Result: result, Termination: termination, At: at}}
	var u Update
	m.decide(&u, e.end)
	m.log = append(m.log, e)
	m.events = append(m.events, Event{Kind: EventResult, Board: b, At: at, Result: result, Termination: termination})
	return u, nil
}

func (m *Match) endEntry(e entry, ev Event) (Update, error) {
	if e.board > B || ev.Color > rules.Black {
		return Update{}, fmt.Errorf("%w: board %d, colour %d", ErrBadCommand, e.board, ev.Color)
	}
	var u Update
	m.terminal(&u, e.end, false)
	m.log = append(m.log, e)
	m.events = append(m.events, ev)
	return u, nil
}

// decide applies the arbiter's result.
func (m *Match) decide(u *Update, e EndEvent) {
	st := &m.st
	if e.Result == "*" {
		st.results = [2]Result{{Result: "*"}, {Result: "*"}}
		st.ends, st.end, st.decided = nil, -1, false
		u.Results = [2]bool{true, true}
		return
	}
	at := e.At
	if t, over := m.endTime(e.Board); over && t.Before(at) {
		at = t
	}
	st.decided = true
	st.results[e.Board] = Result{Result: e.Result, Termination: e.Termination, Article: e.Article, At: at}
	u.Results[e.Board] = true
	if m.rs.TeamDrop.FirstResultEndsMatch {
		p := e.Board.Partner()
		st.results[p] = Result{Result: flip(e.Result), Termination: TermPartnerBoard, Article: m.rs.TeamDrop.Articles.PartnerBoard, At: at}
		u.Results[p] = true
	}
}

// terminal records an end on one board. The first end decides the match
// (A11); an end within the tolerance of it, or earlier than it but
// reported later, goes to the arbiter and the earlier stands provisionally
// (R9.7); a later one is after the end and changes nothing.
func (m *Match) terminal(u *Update, e EndEvent, replay bool) {
	st := &m.st
	td := m.rs.TeamDrop
	report := func(f Finding) {
		if !replay {
			u.add(f)
		}
	}
	if !td.FirstResultEndsMatch {
		if st.results[e.Board].Result != "*" {
			return
		}
		st.results[e.Board] = Result{Result: e.Result, Termination: e.Termination, Article: e.Article, Provisional: e.Provisional, At: e.At}
		u.Results[e.Board] = true
		var res [2]string
		for i := range res {
			res[i] = st.results[i].Result
		}
		report(&MatchEnd{At: m.where(e.Board, e.At, e.Article), Termination: e.Termination, Results: res, Provisional: e.Provisional})
		return
	}
	if st.decided {
		return // the arbiter has ruled
	}
	if st.end < 0 {
		st.ends = append(st.ends, e)
		st.end = len(st.ends) - 1
		m.setEnd(u, e, e.Provisional)
		report(&MatchEnd{At: m.where(e.Board, e.At, e.Article), Termination: e.Termination,
			Results: [2]string{st.results[A].Result, st.results[B].Result}, Provisional: e.Provisional})
		return
	}
	cur := st.ends[st.end]
	d := e.At.Sub(cur.At)
	if d > td.SimultaneousEnd {
		return // after the end
	}
	st.ends = append(st.ends, e)
	late := d < -td.SimultaneousEnd
	first, second := cur, e
	if e.At.Before(cur.At) {
		first, second = e, cur
		st.end = len(st.ends) - 1
	}
	m.setEnd(u, first, true)
	report(&SimultaneousEnd{At: m.where(e.Board, e.At, td.Articles.Simultaneous), First: first, Second: second, Late: late})
}

// setEnd makes e the match's end: its board's result and the partner
// board's (the team's result seen from there).
func (m *Match) setEnd(u *Update, e EndEvent, provisional bool) {
	st := &m.st
	p := e.Board.Partner()
	st.results[e.Board] = Result{Result: e.Result, Termination: e.Termination, Article: e.Article, Provisional: provisional, At: e.At}
	st.results[p] = Result{Result: flip(e.Result), Termination: TermPartnerBoard, Article: m.rs.TeamDrop.Articles.PartnerBoard,
		Provisional: provisional, At: e.At}
	u.Results = [2]bool{true, true}
}
