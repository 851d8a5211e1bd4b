package adjudicator

import (
	"fmt"
	"strings"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi"
)

// The xiangqi judgement of the Vietnamese Xiangqi Law of 2004 (rule sets
// whose Variant is "xiangqi"; docs/xiangqi.md): after every completed move
// the repetition classification of Art. 22–24 (docs/xiangqi.md), the no-capture
// count of Art. 12 and the no-attackers draw of Art. 20.4 b.6. Findings are
// alerts for the arbiter; the daemon never decides alone: a
// perpetual check or chase names the side that must change, and proposes
// that side's loss only when it repeats the cycle again.

// xiangqiVariant is the rule sets' Variant of xiangqi.
const xiangqiVariant = "xiangqi"

// isXiangqi reports whether the rule set is a xiangqi one.
func (a *Adjudicator) isXiangqi() bool { return a.rs.Variant == xiangqiVariant }

// xqLine returns the position the xiangqi findings replay from and the
// moves of the record after it: the start, or the position after the
// last illegal move that stood (an illegal move does not replay; the
// cycles and counts begin again after it). ok is false when the start is
// not a xiangqi position or a recorded move does not parse.
func (a *Adjudicator) xqLine(upto int) (start *xiangqi.Position, firstPly int, moves []rules.Move, ok bool) {
	from := 0
	for i := upto - 1; i >= 0; i-- {
		if a.plies[i].illegal {
			from = i + 1
			break
		}
	}
	base := a.positionAt(from)
	start, ok = base.(*xiangqi.Position)
	if !ok {
		return nil, 0, nil, false
	}
	moves = make([]rules.Move, 0, upto-from)
	prev := base
	for i := from; i < upto; i++ {
		m, err := prev.ParseMove(a.plies[i].uci)
		if err != nil {
			return nil, 0, nil, false
		}
		moves = append(moves, m)
		prev = a.plies[i].pos
	}
	return start, from, moves, true
}

// judgeXiangqi applies Art. 20.4 b.6, Art. 22–24 and Art. 12 to the
// position after mover's completed move at ply (the end of the game on the
// board, mate or no legal move, was judged before).
func (a *Adjudicator) judgeXiangqi(at time.Time, mover rules.Color, ply int, pos rules.Position) []game.Verdict {
	var out []game.Verdict
	x := a.rs.Xiangqi
	if x.NoAttackersDraw && !hasAttackers(pos) && (ply < 2 || hasAttackers(a.positionAt(ply-1))) {
		al := a.newAlert(at, game.KindDeadPosition, game.Warn, x.Articles.NoAttackers, rules.NoColor, ply,
			"Neither side has a chariot, horse, cannon or soldier left: the arbiter may declare the game drawn without a claim (Art. 20.4 b.6, 7.2(a)).")
		al.Proposal = map[string]any{"result": Draw}
		out = append(out, *al)
	}
	start, first, moves, ok := a.xqLine(ply)
	if !ok {
		return out
	}
	out = append(out, a.xqFinalPhaseChecks(at, mover, ply)...) // Art. 10.1.2 (xiangqi_clock.go)
	out = append(out, a.xqRepetition(at, start, first, moves, ply)...)
	if a.rs.Draws.FiftyMoveClaim {
		out = append(out, a.xqNoCaptureReached(at, start, moves, ply, pos.Turn())...)
	}
	return out
}

// hasAttackers reports whether either side still has a chariot, horse,
// cannon or soldier (Art. 20.4 b.6).
func hasAttackers(pos rules.Position) bool {
	if pos == nil {
		return true
	}
	pl := pos.Placement()
	for _, pc := range pl.Sq {
		switch pc.Kind {
		case rules.Rook, rules.Knight, rules.Cannon, rules.Pawn:
			return true
		}
	}
	return false
}

// xqRepetitionOptions are the classification settings of the rule set
// (their values were checked when the rule set was built; an unknown one
// falls back to the documented default).
func (a *Adjudicator) xqRepetitionOptions() xiangqi.RepetitionOptions {
	r := a.rs.Xiangqi.Repetition
	o := xiangqi.RepetitionOptions{Threshold: r.Occurrence}
	if v, err := xiangqi.ParseCheckVsChase(r.CheckVsChase); err == nil {
		o.CheckVsChase = v
	}
	if v, err := xiangqi.ParseCombinedChase(r.KingPawnCombined); err == nil {
		o.Combined = v
	}
	return o
}

// xqRepetition raises the perpetual alert of a repetition found at ply
// (docs/contract.md §3.4): the position occurred the threshold-th time or later
// and the cycle is classified.
func (a *Adjudicator) xqRepetition(at time.Time, start *xiangqi.Position, first int, moves []rules.Move, ply int) []game.Verdict {
	fs, err := xiangqi.ClassifyRepetitions(start, moves, a.xqRepetitionOptions())
	if err != nil {
		return nil
	}
	var out []game.Verdict
	for _, f := range fs {
		if f.Ply+first != ply {
			continue
		}
		out = append(out, a.perpetualAlert(at, f, first, ply))
	}
	return out
}

// perpetualAlert writes a finding for the arbiter.
func (a *Adjudicator) perpetualAlert(at time.Time, f xiangqi.Finding, first, ply int) game.Verdict {
	cycle := fmt.Sprintf("plies %d–%d", f.From+first+1, f.Ply+first)
	what := fmt.Sprintf("The position after %s %s has occurred %d times; the cycle (%s): White (Red) %s, Black %s.",
		moveNo(ply), a.plies[ply-1].san, f.Occurrence, cycle, patternText(f.Patterns[0]), patternText(f.Patterns[1]))
	sev, side, msg := game.Info, rules.NoColor, ""
	prop := map[string]any{"verdict": f.Verdict.String(), "from_ply": f.From + first, "occurrence": f.Occurrence,
		"patterns": map[string]string{"white": f.Patterns[0].String(), "black": f.Patterns[1].String()}}
	switch f.Verdict {
	case xiangqi.Allowed:
		msg = "Neither side commits a forbidden pattern: if neither changes, the game is drawn (the arbiter decides)."
	case xiangqi.MustChange:
		sev, side = game.Warn, f.Side
		msg = fmt.Sprintf("%s commits a forbidden pattern (%s) and must change; if %s makes the position occur again, %s loses (the arbiter decides).",
			name(f.Side), patternText(f.Patterns[f.Side&1]), name(f.Side), name(f.Side))
		prop["must_change"] = f.Side.String()
	case xiangqi.LossProposed:
		sev, side = game.Crit, f.Side
		msg = fmt.Sprintf("%s was told to change and repeated the cycle (%s): %s loses; confirm with set_result or apply_penalty.",
			name(f.Side), patternText(f.Patterns[f.Side&1]), name(f.Side))
		prop["result"] = f.Result
	case xiangqi.MutualDraw:
		sev = game.Warn
		msg = "Both sides commit a forbidden pattern: the game is drawn if neither changes (the arbiter decides)."
		prop["result"] = f.Result
	}
	if f.Verdict == xiangqi.MustChange || f.Verdict == xiangqi.LossProposed {
		if f.Patterns[f.Side&1] == xiangqi.PerpetualChase {
			if pos := a.positionAt(ply); pos != nil && int(f.Target) < pos.Geometry().Size() {
				prop["target"] = pos.Geometry().Name(f.Target)
			}
		}
	}
	al := a.newAlert(at, game.KindPerpetual, sev, f.Articles, side, ply, what+" "+msg)
	al.Proposal = prop
	for _, mc := range f.Moves {
		p := mc.Ply + first
		if p < 1 || p > len(a.plies) {
			continue
		}
		ev := []string{}
		if mc.Check {
			ev = append(ev, "check")
		}
		if len(mc.Chases) > 0 {
			ev = append(ev, "chase")
		}
		if len(ev) == 0 {
			ev = append(ev, "move")
		}
		after := a.plies[p-1].pos
		al.Evidence = append(al.Evidence, game.Evidence{At: game.T(a.plies[p-1].at), Square: after.Geometry().Name(mc.Move.To),
			Piece: after.At(mc.Move.To).String(), Event: strings.Join(ev, "+")})
	}
	return *al
}

// patternText names a pattern for messages.
func patternText(p xiangqi.Pattern) string {
	switch p {
	case xiangqi.PerpetualCheck:
		return "perpetual check"
	case xiangqi.PerpetualChase:
		return "perpetual chase"
	}
	return "no forbidden pattern"
}

// xqNoCaptureRule is the rule set's Art. 12 count.
func (a *Adjudicator) xqNoCaptureRule() xiangqi.NoCaptureRule {
	x := a.rs.Xiangqi
	return xiangqi.NoCaptureRule{Limit: x.NoCaptureLimit, ChecksCounted: x.ChecksCounted, CapTotal: x.ChecksCapScope == "total"}
}

// xqCount returns the no-capture count's moves in the rule set's unit.
func (a *Adjudicator) xqCount(nc xiangqi.NoCapture) int {
	if a.rs.Xiangqi.CountEachPlayer {
		return nc.Counted
	}
	return nc.Moves
}

// xqNoCaptureReached tells the arbiter, once, that the count of Art. 12
// reached the limit with the move at ply: a draw claim would now be
// upheld.
func (a *Adjudicator) xqNoCaptureReached(at time.Time, start *xiangqi.Position, moves []rules.Move, ply int, toMove rules.Color) []game.Verdict {
	r := a.xqNoCaptureRule()
	limit := r.Limit
	if a.rs.Xiangqi.CountEachPlayer {
		limit *= 2
	}
	now, err := xiangqi.CountNoCapture(start, moves, r)
	if err != nil || a.xqCount(now) < limit || len(moves) == 0 {
		return nil
	}
	before, err := xiangqi.CountNoCapture(start, moves[:len(moves)-1], r)
	if err != nil || a.xqCount(before) >= limit {
		return nil
	}
	al := a.newAlert(at, game.KindFifty, game.Info, a.rs.Xiangqi.Articles.NoCaptureClaim, rules.NoColor, ply,
		fmt.Sprintf("%d moves without a capture (checks counted up to %d): a draw claim by either player would now be upheld (Art. 12(a)).",
			a.xqCount(now), r.ChecksCounted))
	al.Proposal = map[string]any{"claim": "no_capture", "count": a.xqCount(now), "side": toMove.String()}
	return []game.Verdict{*al}
}

// xqNoCaptureClaim verifies a no-capture draw claim (claim "no_capture" or
// "fifty") by either player (Art. 12): upheld at the limit, else the
// opponent gets the false-claim bonus (12(b)).
func (r cmdRun) xqNoCaptureClaim(side rules.Color) ([]game.Verdict, error) {
	a, at := r.a, r.at
	if !a.rs.Draws.FiftyMoveClaim {
		return r.bad("claim", fmt.Sprintf("%s has no no-capture claim (RB 3)", a.rs.Name), ErrNotApplicable)
	}
	start, _, moves, ok := a.xqLine(len(a.plies))
	if !ok {
		return r.bad("claim", "the record does not replay from its start", ErrNotApplicable)
	}
	rule := a.xqNoCaptureRule()
	nc, err := xiangqi.CountNoCapture(start, moves, rule)
	if err != nil {
		return r.bad("claim", err.Error(), ErrNotApplicable)
	}
	limit := rule.Limit
	if a.rs.Xiangqi.CountEachPlayer {
		limit *= 2
	}
	n := a.xqCount(nc)
	why := fmt.Sprintf("%d moves without a capture counted (%d plies, checks counted up to %d), %d needed", n, nc.Plies, rule.ChecksCounted, limit)
	var al *game.Alert
	if n >= limit {
		al = a.newAlert(at, game.KindClaim, game.Crit, a.rs.Xiangqi.Articles.NoCaptureClaim, side, len(a.plies),
			fmt.Sprintf("%s's no-capture claim is correct: %s. Uphold it: the game is drawn (Art. 12(a)).", name(side), why))
		al.Proposal = map[string]any{"claim": "no_capture", "result": Draw}
	} else {
		bonus := a.rs.Xiangqi.WrongClaimBonus
		al = a.newAlert(at, game.KindClaim, game.Crit, a.rs.Xiangqi.Articles.WrongNoCaptureClaim, side, len(a.plies),
			fmt.Sprintf("%s's no-capture claim is premature: %s. %s gets %s and play goes on (Art. 12(b)); the count carries on (12(c)).",
				name(side), why, name(side.Other()), minutes(bonus)))
		al.Proposal = map[string]any{"claim": "no_capture", "time_add_ms": bonus.Milliseconds(), "side": side.Other().String()}
	}
	return []game.Verdict{*al}, nil
}

// xqIllegal adds to an illegal move's technical-error alert what the
// xiangqi rapid and blitz regulations add (nothing in standard play): the
// opponent's claim wins before his own move (RB 4.2), and the technical
// error gives the opponent time (RB 5). prop gets the proposals.
func (a *Adjudicator) xqIllegal(side rules.Color, prop map[string]any) string {
	if !a.isXiangqi() {
		return ""
	}
	x, opp := a.rs.Xiangqi, side.Other()
	msg := ""
	if x.ClaimantWins {
		prop["result"] = winFor(opp)
		prop["on_claim_by"] = opp.String()
		msg += fmt.Sprintf(" %s may claim it before his own move and then wins (%s); afterwards it stands.", name(opp), a.rs.Articles.IllegalWindow)
	}
	if x.TEBonus > 0 {
		prop["time_add_ms"] = x.TEBonus.Milliseconds()
		prop["side"] = opp.String()
		msg += fmt.Sprintf(" A confirmed technical error gives %s %s (%s).", name(opp), minutes(x.TEBonus), a.rs.Articles.TechnicalError)
	}
	return msg
}

// touchedMustMove cites the rule that the touched piece must be moved
// after an illegal move is put right: FIDE 4.3 and 7.5.1, or the xiangqi
// law's Art. 9.1 and 9.10.
func (a *Adjudicator) touchedMustMove() string {
	if a.isXiangqi() {
		return "9.1, 9.10"
	}
	return "4.3, 7.5.1"
}

// xqTouchArticle cites the case of the xiangqi law's touch-move article a
// touch finding of the board tracker is (its rules are named after the
// FIDE cases, FIDE Laws Art. 4): an own piece touched first
// (TM-1: 9.1), an opponent's piece (TM-2: 9.2), pieces of both sides
// (TM-3: 9.3 or 9.4 by which was touched first, 9.5 at the same moment),
// a piece adjusted outside one's turn (TM-9: 9.5(a)), a piece moved on
// after it was placed (TM-8: 9.5(b), placed is irrevocable); always with 9.11
// (the arbiter rules only when a player asks). Others keep def.
func xqTouchArticle(rule, def string) string {
	switch rule {
	case "TM-1":
		return "9.1, 9.11"
	case "TM-2":
		return "9.2, 9.11"
	case "TM-3":
		return "9.3, 9.4, 9.5, 9.11"
	case "TM-8":
		return "9.5(b), 9.11"
	case "TM-9":
		return "9.5(a), 9.11"
	}
	return def
}
