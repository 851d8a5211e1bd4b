package adjudicator

import (
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/clock"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// onClock feeds a clock reading to the clock model and judges what it
// implies.
func (a *Adjudicator) onClock(r game.ClockReading, at time.Time) []game.Verdict {
	cr := clock.Reading{White: r.White, Black: r.Black, Running: r.Running, WhiteFlag: r.WhiteFlag, BlackFlag: r.BlackFlag}
	prev := a.lastReading
	a.lastReading = &cr
	if a.clk == nil {
		return nil
	}
	var out []game.Verdict
	for _, ce := range a.clk.Observe(cr, at) {
		out = append(out, a.clockEvent(ce)...)
	}
	if prev != nil && prev.Running != rules.NoColor && cr.Running == rules.NoColor && cr.Time(prev.Running) > 0 && !a.over() {
		out = append(out, *a.stopped(at, prev.Running, cr))
	}
	out = append(out, a.xqMoveControls(cr, at)...) // Art. 10.1.2 (xiangqi_clock.go)
	out = append(out, a.xqLate(cr, at)...)         // Art. 10.2.1(a)
	return append(out, a.scoresheet(cr, at)...)
}

// stopped: the clock was stopped (6.11.2, 9.5.1, A.4.3): the arbiter gets
// the context of a possible claim. It cannot tell who pressed the button.
func (a *Adjudicator) stopped(at time.Time, was rules.Color, r clock.Reading) *game.Alert {
	ply := len(a.plies)
	msg := fmt.Sprintf("The clock was stopped while %s's time was running (%s – %s).", name(was), clock.FormatDuration(r.White), clock.FormatDuration(r.Black))
	prop := map[string]any{"white_ms": r.White.Milliseconds(), "black_ms": r.Black.Milliseconds()}
	if pos := a.position(); pos != nil {
		n := a.counts[pos.RepetitionKey()]
		msg += fmt.Sprintf(" %s to move", name(pos.Turn()))
		if pos.InCheck() {
			msg += ", in check"
		}
		msg += fmt.Sprintf("; the position has occurred %d time(s); %d plies without a pawn move or capture.", n, pos.HalfmoveClock())
		prop["repetitions"] = n
		prop["halfmove_clock"] = pos.HalfmoveClock()
		for _, c := range [2]rules.Color{rules.White, rules.Black} {
			prop[c.String()+"_can_mate"] = pos.CanMate(c)
		}
	}
	for _, p := range a.pending {
		msg += fmt.Sprintf(" Illegal move at ply %d still open (%s).", p.ply, p.alertID)
	}
	if r.WhiteFlag || r.BlackFlag {
		msg += fmt.Sprintf(" Flags: white %v, black %v (%s).", r.WhiteFlag, r.BlackFlag, a.rs.Articles.TimeWinClaim)
	}
	al := a.newAlert(at, game.KindClockStopped, game.Crit, a.rs.Articles.ClockStopped, was, ply, msg)
	al.Proposal = prop
	al.Evidence = []game.Evidence{{At: game.T(at), Event: "clock"}}
	return al
}

// clockEvent turns a clock-model event into alerts.
func (a *Adjudicator) clockEvent(ce clock.Event) []game.Verdict {
	switch e := ce.(type) {
	case clock.FlagFall:
		return a.onFlag(e)
	case clock.BothFlags:
		return a.onBothFlags(e)
	case clock.Inconsistency:
		return a.onInconsistency(e)
	case clock.PeriodChange:
		// Normal play: the next period of the time control began.
	}
	return nil
}

// onFlag applies 6.9 (2001 6.10, B6): a flag fall is a loss unless the
// opponent cannot mate (then the alert's kind is insufficient_material and
// it proposes a draw); after the end of the game it is only information.
func (a *Adjudicator) onFlag(e clock.FlagFall) []game.Verdict {
	ply := len(a.plies)
	ev := []game.Evidence{{At: game.T(e.Estimated), Event: "flag"}}
	arts := a.rs.Articles
	if a.over() {
		if out, ok := a.xqMateThenFlag(e); ok {
			return out // Art. 10.2.4 (xiangqi_clock.go)
		}
		return []game.Verdict{*a.newAlert(e.At, game.KindFlagFall, game.Info, arts.Flag, e.Side, ply,
			fmt.Sprintf("%s's flag fell after the game had ended (%s): no effect.", name(e.Side), a.result.Result))}
	}
	if e.PeriodTimeMissing {
		al := a.newAlert(e.At, game.KindClockSetting, game.Crit, arts.ClockSetting, e.Side, ply,
			fmt.Sprintf("%s's flag fell after completing %d moves, but the clock never added the next period's time: check the setting and the move counter before ruling on time (6.4, 6.10.2).", name(e.Side), e.MovesDone))
		al.Evidence = ev
		return []game.Verdict{*al}
	}
	opp := e.Side.Other()
	pos := a.position()
	oppCanMate := pos == nil || pos.CanMate(opp)
	kind, result, article := game.KindFlagFall, winFor(opp), arts.Flag
	msg := fmt.Sprintf("%s's flag fell at %s", name(e.Side), wireTime(e.Estimated))
	if e.MovesRequired > 0 {
		msg += fmt.Sprintf(" with %d of the %d moves of the period completed (6.4)", e.MovesDone, e.MovesRequired)
	}
	if a.rs.Flags.NoMateDraw && !oppCanMate {
		kind, result, article = game.KindInsufficient, Draw, arts.FlagNoMate
		msg += fmt.Sprintf(", but %s cannot checkmate by any series of legal moves: draw.", name(opp))
	} else {
		msg += fmt.Sprintf(": %s wins on time.", name(opp))
	}
	sev := game.Crit
	if !a.rs.Flags.ArbiterCalls {
		sev = game.Info
		msg += fmt.Sprintf(" Logged as evidence for a claim only: the arbiter must not signal flag falls (%s); a win needs %s's claim with his own flag up.", arts.Flag, name(opp))
	} else if a.rs.GameType != ruleset.Standard {
		msg += " The arbiter calls the flag (A.4.5)."
	}
	al := a.newAlert(e.At, kind, sev, article, e.Side, ply, msg)
	al.Proposal = map[string]any{"result": result}
	al.Evidence = ev
	return []game.Verdict{*al}
}

// onBothFlags applies the both-flags rule of the set (III.3.1; 2001 6.12,
// 10.3, B8; otherwise the arbiter decides from the flag times).
func (a *Adjudicator) onBothFlags(e clock.BothFlags) []game.Verdict {
	ply := len(a.plies)
	ev := []game.Evidence{{At: game.T(e.WhiteAt), Event: "flag", Piece: "K"}, {At: game.T(e.BlackAt), Event: "flag", Piece: "k"}}
	if a.over() {
		return []game.Verdict{*a.newAlert(e.At, game.KindBothFlags, game.Info, a.rs.Articles.BothFlags, rules.NoColor, ply, "Both flags are down after the game had ended: no effect.")}
	}
	order := "the order cannot be established from the clock"
	if e.First != rules.NoColor {
		order = fmt.Sprintf("%s's fell first (%s, the other at %s)", name(e.First), wireTime(pick(e, e.First)), wireTime(pick(e, e.First.Other())))
	}
	msg := "Both flags are down; " + order + ". "
	prop := map[string]any{}
	rule := a.rs.Flags.BothFlags
	if rule == ruleset.BothFlagsQuickplay && (!a.rs.QuickplayFinish || a.opts.TimeControl.HasIncrement() || !a.opts.TimeControl.Timed()) {
		rule = ruleset.BothFlagsArbiter // III.2, III.2.2: only announced, only without increment
	}
	switch rule {
	case ruleset.BothFlagsDraw:
		msg += "The game is drawn."
		prop["result"] = Draw
	case ruleset.BothFlagsQuickplay:
		switch {
		case e.First != rules.NoColor:
			msg += fmt.Sprintf("The first flag decides: %s lost on time unless the arbiter rules otherwise.", name(e.First))
			prop["result"] = winFor(e.First.Other())
		case e.LastPeriod:
			msg += "In the period in which all remaining moves must be completed: the game is drawn."
			prop["result"] = Draw
		default:
			msg += "Not in the last period: the game continues."
			prop["continue"] = true
		}
	default:
		msg += "No rule decides this: the arbiter decides from the flag times."
		if e.First != rules.NoColor {
			prop["first"] = e.First.String()
		}
	}
	al := a.newAlert(e.At, game.KindBothFlags, game.Crit, a.rs.Articles.BothFlags, e.First, ply, msg)
	if len(prop) > 0 {
		al.Proposal = prop
	}
	al.Evidence = ev
	return []game.Verdict{*al}
}

func pick(e clock.BothFlags, c rules.Color) time.Time {
	if c == rules.White {
		return e.WhiteAt
	}
	return e.BlackAt
}

// onInconsistency reports clock defects (6.10.1), setting or move-counter
// errors (6.10.2, 7.1, 8.6) and moves completed with the clock stopped.
func (a *Adjudicator) onInconsistency(e clock.Inconsistency) []game.Verdict {
	ply := len(a.plies)
	arts := a.rs.Articles
	var al *game.Alert
	switch e.Kind {
	case clock.TimeJump, clock.TimeFrozen, clock.ClockReset:
		al = a.newAlert(e.At, game.KindClockDefect, game.Crit, arts.ClockDefect, e.Side, ply,
			"Possible clock defect: "+e.Detail+". The arbiter sets the times on a replacement clock.")
		if e.Kind != clock.ClockReset {
			w, b := a.clk.Remaining(e.At)
			if e.Side == rules.White {
				w = e.Expected
			} else if e.Side == rules.Black {
				b = e.Expected
			}
			al.Proposal = map[string]any{"white_ms": w.Milliseconds(), "black_ms": b.Milliseconds()}
		}
	case clock.MoveWithClockStopped:
		al = a.newAlert(e.At, game.KindClockMisuse, game.Warn, arts.ClockSetting, e.Side, ply, e.Detail+".")
	case clock.SettingMismatch:
		sev := game.Crit
		if a.pastSetupCutoff() {
			sev = game.Warn
		}
		al = a.newAlert(e.At, game.KindClockSetting, sev, arts.ClockSetting, e.Side, ply, "Clock setting differs from the time control: "+e.Detail+".")
		al.Proposal = map[string]any{e.Side.String() + "_ms": e.Expected.Milliseconds()}
	default: // TimeAdded, PeriodTimeMissing
		sev := game.Warn
		al = a.newAlert(e.At, game.KindClockSetting, sev, arts.ClockSetting, e.Side, ply, e.Detail+".")
		al.Proposal = map[string]any{e.Side.String() + "_ms": e.Expected.Milliseconds()}
	}
	al.Evidence = []game.Evidence{{At: game.T(e.At), Event: "clock"}}
	return []game.Verdict{*al}
}

// pastSetupCutoff reports whether each player has completed the moves after
// which set-up and clock-setting claims are barred (A.4.1; 2001 B4).
func (a *Adjudicator) pastSetupCutoff() bool {
	n := a.rs.SetupClaimCutoffMoves
	return n > 0 && a.rs.Supervision == ruleset.Limited && a.rs.GameType != ruleset.Standard && len(a.plies) >= 2*n
}

// scoresheet raises the INFO of 8.4 once per player and period: less than
// five minutes left without an increment of 30 s or more.
func (a *Adjudicator) scoresheet(r clock.Reading, at time.Time) []game.Verdict {
	sc := a.rs.Scoresheet
	if sc.Below <= 0 || !a.opts.TimeControl.Timed() || a.over() {
		return nil
	}
	var out []game.Verdict
	for _, c := range [2]rules.Color{rules.White, rules.Black} {
		p := a.clk.Period(c)
		if a.opts.TimeControl.Period(p).Increment >= sc.IncrementBelow || r.Time(c) >= sc.Below || r.Time(c) <= 0 {
			continue
		}
		if a.once(fmt.Sprintf("scoresheet-%s-%d 0", c, p)) {
			out = append(out, *a.newAlert(at, game.KindScoresheet, game.Info, a.rs.Articles.Scoresheet, c, len(a.plies),
				fmt.Sprintf("%s has less than %s left in this period: no need to record moves until it ends (8.4).", name(c), minutes(sc.Below))))
		}
	}
	return out
}

// wireTime writes t for messages as the payloads write times (RFC 3339
// with milliseconds, UTC).
func wireTime(t time.Time) string { return t.UTC().Format(game.TimeLayout) }
