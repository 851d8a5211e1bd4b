package adjudicator

import (
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/clock"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// onIllegal handles an illegal move (7.5; 2001 7.4; 004 Reg. §11).
func (a *Adjudicator) onIllegal(e game.IllegalMove) []game.Verdict {
	if a.over() {
		return nil
	}
	ev := a.touches(e.Evidence)
	if !e.Completed && a.castlingStep(e.Attempt) {
		al := a.newAlert(e.At, game.KindIllegalMove, game.Info, a.rs.Articles.Illegal, e.Side, e.Ply,
			fmt.Sprintf("%s's king stands on %s with the rook not yet moved: castling king first in progress (4.7.2), or a king move that is illegal if completed.", name(e.Side), a.sq(e.Attempt.To)))
		al.Proposal = map[string]any{"castling_step": true}
		al.Evidence = a.touches(e.Evidence)
		return []game.Verdict{*al}
	}
	if !e.Completed && a.rs.Illegal.Trigger == ruleset.OnMade {
		// 2001 7.4(a): an illegal move counts once made. The tracker also
		// reports transient states (the king on g1 before the rook of a
		// castling), so a made, uncompleted illegal move is a warning with
		// the ladder step; it counts when the arbiter acknowledges it.
		return a.illegalAct(e.At, e.Side, e.Ply, game.KindIllegalMove, a.rs.Articles.Illegal,
			fmt.Sprintf("an illegal move (%s: %s), made but not completed", e.Text, e.Reason), a.touches(e.Evidence), map[string]any{}, true)
	}
	if !e.Completed {
		// 7.5.1: not yet an illegal move in the sense of 7.5; INFO only and
		// never to the player (12.6).
		al := a.newAlert(e.At, game.KindIllegalMove, game.Info, a.rs.Articles.Illegal, e.Side, e.Ply,
			fmt.Sprintf("%s made an illegal move (%s: %s) but has not pressed the clock: not yet completed (7.5.1); nothing to do unless it is completed. Do not tell the player (12.6).", name(e.Side), e.Text, e.Reason))
		al.Evidence = ev
		return []game.Verdict{*al}
	}
	kind, art := game.KindIllegalMove, a.rs.Articles.Illegal
	what := fmt.Sprintf("an illegal move (%s: %s)", e.Text, e.Reason)
	extra := map[string]any{}
	if e.Reason == rules.ReasonMissingPromotion && a.rs.Illegal.UnpromotedPawnToQueen {
		kind, art = game.KindUnpromotedPawn, a.rs.Articles.UnpromotedPawn
		what = fmt.Sprintf("a pawn move to the last rank without promotion (%s)", e.Text)
		extra["replace_with"] = "queen" // 7.5.2
	}
	what = a.xqAbandoned(e, what, extra) // RB 4.4 (xiangqi_rb4.go)
	return a.illegalAct(e.At, e.Side, e.Ply, kind, art, what, ev, extra, false)
}

// castlingStep reports whether m is the king's two-square step of a
// castling being made king first (4.7.2): a state on the way to a legal
// move, not a made illegal move.
func (a *Adjudicator) castlingStep(m rules.Move) bool {
	pos := a.position()
	if pos == nil || m.From == rules.NoSquare || m.To == rules.NoSquare || pos.At(m.From).Kind != rules.King {
		return false
	}
	g := pos.Geometry()
	df := g.File(m.To) - g.File(m.From)
	return g.Rank(m.To) == g.Rank(m.From) && (df == 2 || df == -2)
}

// onClockWithoutMove handles a press with no move on the board: an illegal
// move under 7.5.3, clock misuse otherwise; with the board still
// unexplained, 7.4/7.6 (#22 still wrong at the press).
func (a *Adjudicator) onClockWithoutMove(e game.ClockWithoutMove) []game.Verdict {
	// The reading itself came as ClockChanged already; it is not fed
	// again (it may be older than readings seen since).
	var out []game.Verdict
	if a.over() {
		return out
	}
	ply := len(a.plies)
	if a.unexplained {
		al := a.newAlert(e.At, game.KindDisplaced, game.Crit, a.rs.Articles.Displaced, e.Side, ply,
			fmt.Sprintf("%s pressed the clock with the position still wrong: reinstate the last identifiable position (after ply %d).", name(e.Side), ply))
		al.Proposal = a.reinstateProposal(ply)
		return append(out, *al)
	}
	if a.rs.Illegal.ClockWithoutMoveIsIllegal {
		return append(out, a.illegalAct(e.At, e.Side, ply+1, game.KindClockWithoutMove, a.rs.Articles.ClockWithoutMove,
			"a clock press without a move (treated as an illegal move)", nil, map[string]any{}, false)...)
	}
	al := a.newAlert(e.At, game.KindClockWithoutMove, game.Warn, a.rs.Articles.ClockWithoutMove, e.Side, ply,
		fmt.Sprintf("%s pressed the clock without making a move: clock misuse, the arbiter may penalise it; restore the clock.", name(e.Side)))
	return append(out, *al)
}

// illegalAct raises the crit alert of a counted illegal move at ply with
// the ladder step the rule set prescribes, and opens its window. A
// tentative one (made, not completed, under OnMade) is a warning that
// counts only when the arbiter acknowledges it or applies its penalty.
func (a *Adjudicator) illegalAct(at time.Time, side rules.Color, ply int, kind, art, what string, ev []game.Evidence, prop map[string]any, tentative bool) []game.Verdict {
	var out []game.Verdict
	il := a.rs.Illegal
	opp := side.Other()
	before := a.positionAt(ply - 1)
	oppCanMate := before == nil || before.CanMate(opp)
	prop["reinstate_ply"] = ply - 1
	if before != nil {
		prop["reinstate_fen"] = before.FEN()
	}
	msg := fmt.Sprintf("%s made %s at ply %d.", name(side), what, ply)
	if ply-1 >= 0 {
		msg += fmt.Sprintf(" Reinstate the position after ply %d; the touched piece must be moved if it can be (%s).", ply-1, a.touchedMustMove())
	}
	p := &pendingIllegal{side: side, ply: ply, kind: kind, abandoned: prop["abandoned_general"] == true}
	msg += a.ladderStep(p, oppCanMate, prop)
	switch il.Window {
	case ruleset.UntilOpponentMoves:
		msg += fmt.Sprintf(" Act before %s's next move (%s), or it stands.", name(opp), a.rs.Articles.IllegalWindow)
	case ruleset.UntilClaimantTouches:
		msg += fmt.Sprintf(" %s's right to claim ends when he touches a piece (%s).", name(opp), a.rs.Articles.IllegalWindow)
	}
	sev := game.Crit
	if tentative {
		sev = game.Warn
		msg += " Not completed yet: it counts when the arbiter acknowledges it."
	}
	al := a.newAlert(at, kind, sev, art, side, ply, msg)
	al.Proposal = prop
	al.Evidence = ev
	p.alertID = al.ID
	a.byAlert[al.ID] = p
	if tentative && p.counted {
		a.illegal[side&1]--
		p.counted, p.ladder = false, true
	}
	if il.Window != ruleset.WholeGame || a.rs.TechnicalErrors.LossAt > 0 {
		a.pending = append(a.pending, p)
	}
	if a.opts.Penalties == PenaltiesAuto && !tentative && il.TimeAward > 0 && prop["time_add_ms"] != nil && prop["result"] == nil {
		if cc, ok := a.addTime(at, opp, il.TimeAward, al.ID); ok {
			p.acted = true
			al.Proposal["applied"] = true
			al.Message += fmt.Sprintf(" Applied (penalties: auto): %s gets %s.", name(opp), minutes(il.TimeAward)) + a.hostNote(cc)
			return append(out, *al, cc)
		}
	}
	return append(out, *al)
}

// ladderStep counts illegal move p of its side on the rule set's ladder
// (7.5.5; 004 Reg. §11: a technical error candidate) and returns what the
// alert says about it; prop gets the penalty proposed.
func (a *Adjudicator) ladderStep(p *pendingIllegal, oppCanMate bool, prop map[string]any) string {
	il := a.rs.Illegal
	side, opp := p.side, p.side.Other()
	msg := ""
	switch {
	case a.rs.TechnicalErrors.LossAt > 0:
		// 004 Reg. §11: a technical error counts only when processed
		// through the arbiter; this is a candidate.
		prop["technical_error"] = side.String()
		msg += fmt.Sprintf(" Technical error candidate (%s): it counts only when the arbiter confirms it; %s has %d confirmed, %d lose.",
			a.rs.Articles.TechnicalError, name(side), a.te[side&1], a.rs.TechnicalErrors.LossAt)
		if il.TimeAward > 0 {
			prop["time_add_ms"] = il.TimeAward.Milliseconds()
			prop["side"] = opp.String()
		}
		msg += a.xqIllegal(side, prop) // RB 4.2, RB 5 (xiangqi.go)
	case il.ClaimWinAt > 0 && a.illegal[side&1]+1 >= il.ClaimWinAt:
		a.illegal[side&1]++
		p.counted = true
		res := winFor(opp)
		if il.DrawIfOpponentCannotMate && !oppCanMate {
			res = Draw
			msg += fmt.Sprintf(" %s may claim a draw before making his own move (he cannot checkmate); after his move the illegal move stands.", name(opp))
		} else {
			msg += fmt.Sprintf(" %s may claim a win before making his own move; after his move the illegal move stands.", name(opp))
		}
		prop["result"] = res
		prop["on_claim_by"] = opp.String()
	case il.LossAt > 0 && a.illegal[side&1]+1 >= il.LossAt:
		a.illegal[side&1]++
		p.counted = true
		n := a.illegal[side&1]
		if il.DrawIfOpponentCannotMate && !oppCanMate {
			prop["result"] = Draw
			msg += fmt.Sprintf(" This is %s's illegal move number %d: the game is lost, but %s cannot checkmate, so it is drawn (%s).", name(side), n, name(opp), a.rs.Articles.IllegalLadder)
		} else {
			prop["result"] = winFor(opp)
			msg += fmt.Sprintf(" This is %s's illegal move number %d: the game is lost (%s).", name(side), n, a.rs.Articles.IllegalLadder)
		}
	default:
		if il.LossAt > 0 || il.TimeAward > 0 {
			a.illegal[side&1]++
			p.counted = true
		}
		if il.TimeAward > 0 {
			prop["time_add_ms"] = il.TimeAward.Milliseconds()
			prop["side"] = opp.String()
			msg += fmt.Sprintf(" This is %s's illegal move number %d: %s gets %s extra (%s).", name(side), a.illegal[side&1], name(opp), minutes(il.TimeAward), a.rs.Articles.IllegalLadder)
		}
	}
	return msg
}

// reinstateProposal proposes reinstating the position after ply.
func (a *Adjudicator) reinstateProposal(ply int) map[string]any {
	prop := map[string]any{"reinstate_ply": ply}
	if p := a.positionAt(ply); p != nil {
		prop["reinstate_fen"] = p.FEN()
	}
	return prop
}

// addTime returns the clock command that gives side d more time, from the
// clock model's current expectation; ok is false without clock readings.
func (a *Adjudicator) addTime(at time.Time, side rules.Color, d time.Duration, reason string) (cc game.ClockCommand, ok bool) {
	if a.clk == nil || a.lastReading == nil {
		return cc, false
	}
	w, b := a.clk.Remaining(at)
	if side == rules.White {
		w += d
	} else {
		b += d
	}
	return a.setClock(at, w, b, a.lastReading.Running, reason), true
}

// setClock builds a clock command and tells the model to expect it. The
// wiring sends it as a SetNRun, which leaves a DGT 3000 in its
// PC-controlled mode (docs/dgt-boards.md, "The protocol in brief"): the
// model then expects no increments (clock.Model.AdjustHost).
func (a *Adjudicator) setClock(at time.Time, w, b time.Duration, running rules.Color, reason string) game.ClockCommand {
	if a.clk != nil {
		a.clk.AdjustHost(w, b, running)
	}
	return game.ClockCommand{Game: a.game.ID, White: w, Black: b, Running: running, Reason: reason, At: at}
}

// hostNote tells the arbiter what a clock setting sent with SetNRun does
// to the game's clock: the times it was set to, and that in the clock's
// PC-controlled mode no increment and no period time are added, which no
// clock command undoes (the DGT clock commands have only END, which
// restores the display, not the program). Empty without a clock model.
func (a *Adjudicator) hostNote(cc game.ClockCommand) string {
	if a.clk == nil {
		return ""
	}
	msg := fmt.Sprintf(" The clock was set with SetNRun to White %s, Black %s.", clock.FormatDuration(cc.White), clock.FormatDuration(cc.Black))
	tc := a.clk.TimeControl()
	if !tc.Timed() || (!tc.HasIncrement() && len(tc.Periods) < 2) {
		return msg
	}
	return msg + " The DGT 3000 now runs under PC control: it adds no increment, delay or period time for the rest of the game" +
		" (no command returns it to its own program). Reset the clock by hand with the time control and these times when convenient;" +
		" until then the daemon expects no increments and does not report their absence as a clock defect."
}

// minutes writes d as "2 min" or "90 s".
func minutes(d time.Duration) string {
	if d%time.Minute == 0 {
		return fmt.Sprintf("%d min", d/time.Minute)
	}
	return fmt.Sprintf("%d s", d/time.Second)
}
