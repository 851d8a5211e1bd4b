package adjudicator

import (
	"fmt"
	"strings"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// onTouch turns touch-move evidence into a warning (claim-driven, 4.8),
// or INFO where the arbiter rules on Art 4 only on request (2001 B5(a)).
func (a *Adjudicator) onTouch(e game.TouchEvidence) []game.Verdict {
	if a.over() {
		return nil
	}
	sev := game.Warn
	art := e.Article
	if a.rs.Articles.TouchMove != "" {
		art = a.rs.Articles.TouchMove
	}
	if a.isXiangqi() {
		art = xqTouchArticle(e.Rule, art) // Art. 9.1–9.5 by case (xiangqi.go)
	}
	msg := fmt.Sprintf("%s: %s (%s, %s evidence).", name(e.Side), e.Message, e.Rule, e.Certainty)
	if a.rs.TouchMoveOnRequestOnly {
		sev = game.Info
		msg += " The arbiter applies touch-move only when a player asks for it."
	} else {
		msg += fmt.Sprintf(" Claimable by %s until he touches a piece (4.8).", name(e.Side.Other()))
	}
	al := a.newAlert(e.At, game.KindTouchMove, sev, art, e.Side, e.Ply, msg)
	al.Evidence = a.touches(e.Evidence)
	if len(e.Touched) > 0 {
		sqs := make([]string, len(e.Touched))
		for i, s := range e.Touched {
			sqs[i] = a.sq(s)
		}
		al.Proposal = map[string]any{"touched": sqs}
		if e.Made != rules.NoMove && e.Made.From != rules.NoSquare {
			al.Proposal["made_from"] = a.sq(e.Made.From)
		}
	}
	return []game.Verdict{*al}
}

// onTurnStarted: the side having the move lifted a piece. Windows that end
// when the claimant touches a piece close (2001 B5(b)).
func (a *Adjudicator) onTurnStarted(e game.TurnStarted) []game.Verdict {
	var out []game.Verdict
	if a.offer == e.Side.Other() && !a.over() {
		a.offer = rules.NoColor
		out = append(out, *a.newAlert(e.At, game.KindDrawOffer, game.Info, "9.1.2.1", e.Side, len(a.plies),
			fmt.Sprintf("%s touched a piece (%s): %s's draw offer is rejected (9.1.2.1).", name(e.Side), a.sq(e.Square), name(e.Side.Other()))))
	}
	if a.rs.Illegal.Window != ruleset.UntilClaimantTouches {
		return out
	}
	keep := a.pending[:0]
	for _, p := range a.pending {
		if e.Side == p.side.Other() {
			out = append(out, a.stands(e.At, p)...)
			continue
		}
		keep = append(keep, p)
	}
	a.pending = keep
	return out
}

// onGesture: a DGT result gesture is a hint, never a result (5.1.2, 5.2.3).
func (a *Adjudicator) onGesture(e game.ResultGesture) []game.Verdict {
	ply := len(a.plies)
	art := a.rs.Articles.Resignation
	msg := fmt.Sprintf("The players signalled %s on the board (%s). A gesture is not a result: confirm resignation or agreement.", e.Result, strings.ReplaceAll(e.Gesture, "_", " "))
	if e.Result == Draw {
		art = a.rs.Articles.Agreement
		if min := a.rs.Draws.AgreementMinMovesEach; min > 0 && ply < 2*min {
			msg += fmt.Sprintf(" An agreed draw needs at least %d move(s) by each player (%s).", min, art)
		}
	}
	al := a.newAlert(e.At, game.KindResultGesture, game.Warn, art, rules.NoColor, ply, msg)
	al.Proposal = map[string]any{"result": e.Result}
	return []game.Verdict{*al}
}

// onDisplaced: the board shows pieces off their squares (7.4, 7.6).
func (a *Adjudicator) onDisplaced(at time.Time, squares []rules.Square, what string) []game.Verdict {
	ply := len(a.plies)
	names := make([]string, len(squares))
	ev := make([]game.Evidence, len(squares))
	for i, s := range squares {
		names[i] = a.sq(s)
		ev[i] = game.Evidence{At: game.T(at), Square: names[i], Event: "displaced"}
	}
	running := "no clock"
	if a.lastReading != nil {
		running = fmt.Sprintf("%s's clock running", name(a.lastReading.Running))
	}
	al := a.newAlert(at, game.KindDisplaced, game.Warn, a.rs.Articles.Displaced, rules.NoColor, ply,
		fmt.Sprintf("%s (%s; %s). The player who displaced them restores them in his own time.", capitalise(what), strings.Join(names, " "), running))
	al.Proposal = a.reinstateProposal(ply)
	al.Evidence = ev
	return []game.Verdict{*al}
}

// onExplained: the board matches the record again.
func (a *Adjudicator) onExplained(at time.Time) []game.Verdict {
	if !a.unexplained {
		return nil
	}
	a.unexplained = false
	return []game.Verdict{*a.newAlert(at, game.KindDisplaced, game.Info, a.rs.Articles.Displaced, rules.NoColor, len(a.plies),
		"The position on the board was restored.")}
}

// onOrientation: the e-board is wired the other way round (its a1 where
// h8 is expected). A DGT board turned 180° keeps the colours of the
// corner squares, so this is no irregularity under 2.1 (a 90° turn would
// be, 7.2.2, but the tracker cannot read such a board as chess): INFO so
// the arbiter knows why the record reads the board rotated.
func (a *Adjudicator) onOrientation(e game.OrientationChanged) []game.Verdict {
	msg := "The e-board is turned 180° (its a1 stands where h8 is expected); the record reads it rotated. Not an irregularity: the corner squares keep their colours (2.1)."
	if !e.Rotated {
		msg = "The e-board is read in its normal orientation again."
	}
	return []game.Verdict{*a.newAlert(e.At, game.KindSetupMismatch, game.Info, a.rs.Articles.Orientation, rules.NoColor, len(a.plies), msg)}
}

// onAmbiguous: the tracker had to choose between explanations.
func (a *Adjudicator) onAmbiguous(e game.Ambiguous) []game.Verdict {
	if i, ok := dropKindOnly(e); ok {
		c, o := e.Chosen[i], e.Other[i]
		msg := fmt.Sprintf("The board did not show which piece was dropped at ply %d (taken at once before a scan saw it, or a reading taken back): the record has a %s dropped, the only kind the known pocket held; it may have been another piece (a capture on the partner board not reported yet, or misread there). Check the record.", e.Ply+i, c.Drop)
		if o.Drop != c.Drop {
			msg = fmt.Sprintf("The board did not show which piece was dropped at ply %d (taken at once before a scan saw it, or a reading taken back): the record has a %s dropped, it may have been a %s or another piece. Check the record.", e.Ply+i, c.Drop, o.Drop)
		}
		return []game.Verdict{*a.newAlert(e.At, game.KindAmbiguous, game.Warn, "", rules.NoColor, e.Ply, msg)}
	}
	return []game.Verdict{*a.newAlert(e.At, game.KindAmbiguous, game.Warn, "", rules.NoColor, e.Ply,
		fmt.Sprintf("The board could be read as %d or %d moves from ply %d; the tracker chose the first. Check the record.", len(e.Chosen), len(e.Other), e.Ply))}
}

// onDevice: a board or clock disconnected or came back (6.10.1 for the
// clock: keep the last reliable times).
func (a *Adjudicator) onDevice(at time.Time, d game.Device, detail string, back bool) []game.Verdict {
	kind := game.KindBoardDisconnected
	if d == game.DeviceClock {
		kind = game.KindClockDisconnected
	}
	ply := len(a.plies)
	if back {
		if a.clk != nil {
			// Presses and time used while away were not seen.
			a.clk.Resync()
		}
		return []game.Verdict{*a.newAlert(at, kind, game.Info, "", rules.NoColor, ply, fmt.Sprintf("The %s is connected again; check the position and the clock against the record.", d))}
	}
	sev := game.Crit
	if a.over() {
		sev = game.Info
	}
	al := a.newAlert(at, kind, sev, "", rules.NoColor, ply, fmt.Sprintf("The %s is disconnected: moves and times are not being recorded.", d))
	if detail != "" {
		al.Message += " (" + detail + ")"
	}
	if d == game.DeviceClock && a.clk != nil && a.lastReading != nil {
		al.Article = a.rs.Articles.ClockDefect
		w, b := a.clk.Remaining(at)
		al.Proposal = map[string]any{"white_ms": w.Milliseconds(), "black_ms": b.Milliseconds()}
		al.Message += " Last reliable times are proposed for a replacement clock."
	}
	return []game.Verdict{*al}
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// dropKindOnly reports whether the two readings of e are the same moves
// but for the kind of one drop (a dropped piece no scan saw), and which.
func dropKindOnly(e game.Ambiguous) (int, bool) {
	if len(e.Chosen) != len(e.Other) {
		return 0, false
	}
	at := -1
	for i, m := range e.Chosen {
		o := e.Other[i]
		if m == o {
			continue
		}
		if at >= 0 || !m.IsDrop() || !o.IsDrop() || m.To != o.To {
			return 0, false
		}
		at = i
	}
	if at < 0 {
		// The same moves: the drop's kind was the pocket's only one.
		for i, m := range e.Chosen {
			if m.IsDrop() {
				return i, true
			}
		}
		return 0, false
	}
	return at, true
}
