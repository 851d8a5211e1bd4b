package session

import (
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/adjudicator"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/teamdrop"
)

// teamCommand applies an arbiter command to a team-drop game. The match's
// part is done here, the rest by the adjudicator:
//
//	acknowledge, reject  alert_id of a match alert   logged (the arbiter saw it)
//	apply_penalty        alert_id of a match alert   illegal_move: the technical error is confirmed (A10, Reg. §11);
//	                                                 technical_error at the threshold, checkmate, threefold_claimable,
//	                                                 match_end: its result is confirmed (the partner board follows)
//	apply_penalty        penalty technical_error side   a technical error the arbiter saw
//	apply_penalty        penalty loss side              a loss on this board (the match ends)
//	set_result           result [termination]          the match's result from this board: "agreement" (a draw of
//	                                                 both teams), "threefold repetition", "resignation", else the
//	                                                 arbiter's decision; "*" withdraws it
//	reinstate            ply                           the board goes back; the partner's pockets follow
//
// Everything else (clock settings, claims, draw offers, the adjudicator's
// own alerts) is the adjudicator's.
func (s *Session) teamCommand(c adjudicator.Command, at time.Time) (Step, error) {
	l := s.team
	tm := l.tm
	var st Step
	bad := func(field, msg string, err error) (Step, error) {
		return Step{}, &adjudicator.CommandError{Cmd: c.Cmd, Field: field, Msg: msg, Err: err}
	}
	ta, isMatch := tm.alerts[c.AlertID]
	if c.AlertID != "" && isMatch && ta.board != l.b {
		return bad("alert_id", fmt.Sprintf("alert %s is about the partner board's game", c.AlertID), adjudicator.ErrUnknownAlert)
	}
	switch {
	case (c.Cmd == "acknowledge" || c.Cmd == "reject") && isMatch:
		st.Out = append(st.Out, s.actionAlert(at, c, ta.f.Where().Ply, fmt.Sprintf("Arbiter %sd alert %s.", c.Cmd, c.AlertID)))
		return st, nil
	case c.Cmd == "apply_penalty" && isMatch:
		return s.teamApplyProposal(c, ta, at)
	case c.Cmd == "apply_penalty" && c.AlertID == "" && (c.Penalty == "technical_error" || c.Penalty == "loss"):
		return s.teamPenalty(c, at)
	case c.Cmd == "set_result":
		switch c.Result {
		case "1-0", "0-1", adjudicator.Draw, "*":
		default:
			return bad("result", `want "1-0", "0-1", "1/2-1/2" or "*"`, adjudicator.ErrBadCommand)
		}
		term := c.Termination
		if term == "" {
			term = "arbiter decision"
		}
		s.teamResult(c.Result, term, at, &st)
		st.Out = append(st.Out, s.actionAlert(at, c, len(s.rec.Moves), "Arbiter set the result "+c.Result+"."))
		return st, nil
	case c.Cmd == "reinstate":
		if c.Ply == nil || *c.Ply < 0 || *c.Ply > len(s.rec.Moves) {
			return bad("ply", fmt.Sprintf("want 0 to %d", len(s.rec.Moves)), adjudicator.ErrBadCommand)
		}
	}
	outs, err := s.adj.Command(c, at)
	if err != nil {
		return Step{}, err
	}
	s.verdicts(outs, &st)
	return st, nil
}

// teamApplyProposal applies what match alert ta proposes (a technical
// error, a result), once.
func (s *Session) teamApplyProposal(c adjudicator.Command, ta teamAlert, at time.Time) (Step, error) {
	l := s.team
	tm := l.tm
	bad := func(msg string) (Step, error) {
		return Step{}, &adjudicator.CommandError{Cmd: c.Cmd, Field: "alert_id", Msg: msg, Err: adjudicator.ErrNotApplicable}
	}
	if tm.applied[c.AlertID] {
		return bad("the proposal of alert " + c.AlertID + " is already applied")
	}
	var u teamdrop.Update
	var err error
	switch f := ta.f.(type) {
	case *teamdrop.IllegalMove:
		u, err = tm.m.ConfirmTE(f.Side, f.Violation == teamdrop.KingLeftInCheck, at)
	case *teamdrop.TechnicalError:
		if f.Proposal == "" {
			return bad("the alert proposes no result")
		}
		u, err = tm.m.SetResult(l.b, f.Proposal, "technical errors", at)
	case *teamdrop.Checkmate:
		if !f.Ends {
			return bad("the match did not end on this mate")
		}
		u, err = tm.m.SetResult(l.b, winFor(f.Winner.Color), teamdrop.TermCheckmate, at)
	case *teamdrop.Threefold:
		u, err = tm.m.ConfirmThreefold(l.b, at)
	case *teamdrop.MatchEnd:
		u, err = tm.m.SetResult(l.b, f.Results[l.b], f.Termination, at)
	default:
		return bad("the alert proposes nothing to apply")
	}
	if err != nil {
		return bad(err.Error())
	}
	tm.applied[c.AlertID] = true
	var st Step
	st.Out = append(st.Out, s.actionAlert(at, c, ta.f.Where().Ply, "Arbiter applied the proposal of alert "+c.AlertID+"."))
	tm.apply(u, l.b, &st, at)
	return st, nil
}

// teamPenalty applies a technical error or a loss the arbiter gives a
// side of this board without an alert.
func (s *Session) teamPenalty(c adjudicator.Command, at time.Time) (Step, error) {
	l := s.team
	side, ok := parseColor(c.Side)
	if !ok {
		return Step{}, &adjudicator.CommandError{Cmd: c.Cmd, Field: "side", Msg: `want "white" or "black"`, Err: adjudicator.ErrBadCommand}
	}
	var u teamdrop.Update
	var err error
	if c.Penalty == "technical_error" {
		u, err = l.tm.m.ConfirmTE(teamdrop.Side{Board: l.b, Color: side}, false, at)
	} else {
		u, err = l.tm.m.SetResult(l.b, winFor(side.Other()), "arbiter penalty", at)
	}
	if err != nil {
		return Step{}, &adjudicator.CommandError{Cmd: c.Cmd, Field: "penalty", Msg: err.Error(), Err: adjudicator.ErrNotApplicable}
	}
	var st Step
	st.Out = append(st.Out, s.actionAlert(at, c, len(s.rec.Moves), fmt.Sprintf("Arbiter applied %s to %s.", c.Penalty, side)))
	l.tm.apply(u, l.b, &st, at)
	return st, nil
}

// actionAlert logs an arbiter command on the game's alerts (kind
// arbiter_action), as the adjudicator does for its own.
func (s *Session) actionAlert(at time.Time, c adjudicator.Command, ply int, msg string) game.Alert {
	if c.By != "" {
		msg += " (" + c.By + ")"
	}
	tm := s.team.tm
	key := fmt.Sprintf("%s.%s.%d", s.rec.Info.Game, game.KindCommand, ply)
	seq := tm.seq[key]
	tm.seq[key] = seq + 1
	// Numbered from 100: the adjudicator numbers its own actions at the
	// same ply from 0.
	a := game.Alert{ID: fmt.Sprintf("%s.%d", key, 100+seq), Game: s.rec.Info.Game, Kind: game.KindCommand, Severity: game.Info,
		Article: c.Article, Ply: ply, Message: msg, At: game.T(at), Proposal: map[string]any{"cmd": c.Cmd}}
	if c.AlertID != "" {
		a.Proposal["alert"] = c.AlertID
	}
	return a
}

// parseColor reads "white" or "black".
func parseColor(s string) (rules.Color, bool) {
	switch s {
	case "white":
		return rules.White, true
	case "black":
		return rules.Black, true
	}
	return rules.NoColor, false
}
