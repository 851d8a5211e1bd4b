package adjudicator

import (
	"fmt"
	"slices"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/clock"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// xqMoveControls judges the move controls of Art. 10.1.2 (the rule set's
// move_controls, none by default) at a clock reading: a player whose own
// time used has reached a control's minutes with fewer of his moves
// completed than it requires loses (7.1(d)); the arbiter gets the loss
// proposed once per player and control (crit where the arbiter calls
// flags, info for a claim otherwise), never a result. The time used is
// read from the clock: the time control's base, plus one increment per
// completed move, less the time left; so it is judged for time controls of
// one period only, and time the arbiter added to a clock counts as not
// used (the control then comes later, never earlier).
func (a *Adjudicator) xqMoveControls(r clock.Reading, at time.Time) []game.Verdict {
	mcs := a.rs.Xiangqi.MoveControls
	tc := a.opts.TimeControl
	if !a.isXiangqi() || len(mcs) == 0 || len(tc.Periods) != 1 || a.over() {
		return nil
	}
	var out []game.Verdict
	for _, side := range [2]rules.Color{rules.White, rules.Black} {
		n := 0
		for _, p := range a.plies {
			if p.side == side {
				n++
			}
		}
		used := tc.Base() + time.Duration(n)*tc.Increment() - r.Time(side)
		for i, mc := range mcs {
			key := fmt.Sprintf("move_control.%s.%d", side, i)
			if used < time.Duration(mc.Minutes)*time.Minute || n >= mc.Moves || a.notified[key] {
				continue
			}
			a.notified[key] = true
			out = append(out, a.moveControlAlert(at, side, n, used, mc.Minutes, mc.Moves))
			break
		}
	}
	return out
}

// moveControlAlert: side has used used of its time (the control's minutes)
// with n of the moves moves required.
func (a *Adjudicator) moveControlAlert(at time.Time, side rules.Color, n int, used time.Duration, minutes, moves int) game.Verdict {
	opp := side.Other()
	msg := fmt.Sprintf("%s has used %s of his time with %d of the %d moves the move control requires in the first %d minutes (%s): %s loses, %s wins.",
		name(side), clock.FormatDuration(used), n, moves, minutes, a.rs.Xiangqi.Articles.MoveControl, name(side), name(opp))
	sev := game.Crit
	if !a.rs.Flags.ArbiterCalls {
		sev = game.Info
		msg += fmt.Sprintf(" Logged for %s's claim.", name(opp))
	}
	al := a.newAlert(at, game.KindMoveControl, sev, a.rs.Xiangqi.Articles.MoveControl, side, len(a.plies), msg)
	al.Proposal = map[string]any{"result": winFor(opp), "moves": n, "required": moves, "minutes": minutes}
	al.Evidence = []game.Evidence{{At: game.T(at), Event: "clock"}}
	return *al
}

// xqMateThenFlag applies Art. 10.2.4 when a flag falls after the game
// ended on the board: a checkmate (or a move leaving the opponent no legal
// move) is completed as soon as it is placed, but a mater whose flag falls
// before he presses the clock loses on time, says the law's text; the note
// says practice has awarded the mate (mate_before_press_wins, default
// false: the text). ok is false when the flag is not the mater's after
// his mate (the caller's "no effect" then applies).
func (a *Adjudicator) xqMateThenFlag(e clock.FlagFall) (out []game.Verdict, ok bool) {
	if !a.isXiangqi() || a.result == nil || len(a.plies) == 0 {
		return nil, false
	}
	last := a.plies[len(a.plies)-1]
	if t := a.result.Termination; t != "checkmate" && t != "no legal move" || last.side != e.Side || e.Estimated.Before(last.at) {
		return nil, false
	}
	ply, opp := len(a.plies), e.Side.Other()
	art := a.rs.Articles.Flag + ", 10.2.4"
	ev := []game.Evidence{{At: game.T(last.at), Event: "move"}, {At: game.T(e.Estimated), Event: "flag"}}
	if a.rs.Xiangqi.MateBeforePressWins {
		al := a.newAlert(e.At, game.KindFlagFall, game.Info, art, e.Side, ply,
			fmt.Sprintf("%s's flag fell at %s, after his mate was placed but before he pressed the clock: the mate stands (mate_before_press_wins, the practice of the note to Art. 10.2.4).",
				name(e.Side), wireTime(e.Estimated)))
		al.Evidence = ev
		return []game.Verdict{*al}, true
	}
	sev := game.Crit
	if !a.rs.Flags.ArbiterCalls {
		sev = game.Info
	}
	al := a.newAlert(e.At, game.KindFlagFall, sev, art, e.Side, ply,
		fmt.Sprintf("%s's flag fell at %s, after his mate was placed but before he pressed the clock: by Art. 10.2.4 he loses on time, %s wins; "+
			"the provisional %s is wrong under this rule set (the note to 10.2.4 says practice has awarded the mate: mate_before_press_wins).",
			name(e.Side), wireTime(e.Estimated), name(opp), a.result.Termination))
	al.Proposal = map[string]any{"result": winFor(opp)}
	al.Evidence = ev
	return []game.Verdict{*al}, true
}

// xqFinalPhaseChecks applies the final phase's check limit of Art. 10.1.2
// ("in this period checks may not exceed four times") after mover's
// completed move at ply. The final phase follows the rule set's last move
// control (move_controls; none: no final phase); dgtbridge counts it in
// the mover's own moves: his moves after the last control's, in blocks of
// ten (the phase's "10 moves every 5 minutes"), each block allowing
// final_phase_max_checks checks [AMBIGUOUS: per block, per player, the
// documented default]. The check that goes over the limit is a warn
// alert for the arbiter (the law names no sanction), once per block.
func (a *Adjudicator) xqFinalPhaseChecks(at time.Time, mover rules.Color, ply int) []game.Verdict {
	x := a.rs.Xiangqi
	if len(x.MoveControls) == 0 || x.FinalPhaseMaxChecks <= 0 || ply < 1 || !a.plies[ply-1].pos.InCheck() {
		return nil
	}
	last := x.MoveControls[len(x.MoveControls)-1].Moves
	var own []int // the mover's plies, in order
	for i, p := range a.plies[:ply] {
		if p.side == mover {
			own = append(own, i)
		}
	}
	n := len(own)
	if n <= last {
		return nil
	}
	block := (n - last - 1) / 10
	checks := 0
	for _, i := range own[last+10*block:] {
		if a.plies[i].pos.InCheck() {
			checks++
		}
	}
	if checks != x.FinalPhaseMaxChecks+1 {
		return nil
	}
	first := last + 10*block + 1
	al := a.newAlert(at, game.KindCheckLimit, game.Warn, x.Articles.FinalPhaseChecks, mover, ply,
		fmt.Sprintf("%s gives his check number %d in his moves %d–%d of the final phase: at most %d checks in this period (Art. %s; read per player and 10-move block). The law names no sanction: the arbiter decides.",
			name(mover), checks, first, first+9, x.FinalPhaseMaxChecks, x.Articles.FinalPhaseChecks))
	al.Proposal = map[string]any{"checks": checks, "max": x.FinalPhaseMaxChecks, "from_move": first, "to_move": first + 9}
	return []game.Verdict{*al}
}

// lateArticle: the xiangqi law's late arrival.
const lateArticle = "10.2.1(a), 7.1(e)"

// xqLate applies Art. 10.2.1(a) and 7.1(e) at a clock reading: the arbiter
// starts the clock at the start time whether or not the players are there,
// and a player later than the limit the regulations set (15, 30 or 60
// minutes: late_default_minutes, RuleSet.DefaultTime) loses. The daemon
// cannot see who sits at the board: when a player's clock has run that
// long without his first move, the arbiter is asked (warn, the loss
// proposed if he has not come), once per player.
func (a *Adjudicator) xqLate(r clock.Reading, at time.Time) []game.Verdict {
	limit := a.rs.DefaultTime
	tc := a.opts.TimeControl
	if !a.isXiangqi() || limit <= 0 || !tc.Timed() || a.over() {
		return nil
	}
	var out []game.Verdict
	for _, side := range [2]rules.Color{rules.White, rules.Black} {
		key := "late." + side.String()
		used := tc.Base() - r.Time(side)
		if used < limit || a.notified[key] || slices.ContainsFunc(a.plies, func(p plyRec) bool { return p.side == side }) {
			continue
		}
		a.notified[key] = true
		opp := side.Other()
		al := a.newAlert(at, game.KindLateArrival, game.Warn, lateArticle, side, len(a.plies),
			fmt.Sprintf("%s's clock has run %s without his first move: if he has not arrived, he is later than the %s the regulations allow and loses (%s); if he is at the board, nothing.",
				name(side), clock.FormatDuration(used), clock.FormatDuration(limit), lateArticle))
		al.Proposal = map[string]any{"result": winFor(opp), "late_ms": used.Milliseconds(), "limit_ms": limit.Milliseconds()}
		al.Evidence = []game.Evidence{{At: game.T(at), Event: "clock"}}
		out = append(out, *al)
	}
	return out
}
