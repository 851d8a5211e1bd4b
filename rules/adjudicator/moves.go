package adjudicator

import (
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// onMoveMade closes illegal-move windows that end at the opponent's move
// (A.4.2, B.4; 2001 C3) and, for UntilClaimantTouches, at any move by the
// claimant.
func (a *Adjudicator) onMoveMade(at time.Time, side rules.Color, ply int) []game.Verdict {
	var out []game.Verdict
	keep := a.pending[:0]
	for _, p := range a.pending {
		if side == p.side && ply == p.ply && p.ladder && !p.counted {
			continue // a tentative illegal move replaced by a legal one before completion
		}
		if side == p.side.Other() && (a.rs.Illegal.Window == ruleset.UntilOpponentMoves || a.rs.Illegal.Window == ruleset.UntilClaimantTouches) {
			out = append(out, a.stands(at, p)...)
			continue
		}
		keep = append(keep, p)
	}
	a.pending = keep
	return out
}

// stands closes the window of p: the illegal move stands (A.4.2; 2001 C3,
// B5(b)). Unless the arbiter acted, it no longer counts towards the ladder
// (count_unpenalised_illegal_moves).
func (a *Adjudicator) stands(at time.Time, p *pendingIllegal) []game.Verdict {
	if p.acted || (p.ladder && !p.counted) {
		return nil
	}
	if p.counted && !a.rs.Illegal.CountUnpenalised {
		a.illegal[p.side&1]--
	}
	if p.abandoned {
		return a.xqAbandonedStands(at, p) // RB 4.4 (xiangqi_rb4.go)
	}
	art := a.rs.Articles.IllegalWindow
	if art == "" {
		art = a.rs.Articles.Illegal
	}
	al := a.newAlert(at, p.kind, game.Info, art, p.side, p.ply,
		fmt.Sprintf("%s's illegal move at ply %d stands: %s moved before the arbiter or a claim acted (alert %s).", name(p.side), p.ply, name(p.side.Other()), p.alertID))
	al.Proposal = map[string]any{"stands": true, "alert": p.alertID}
	return []game.Verdict{*al}
}

// onMoveCompleted records a completed move and judges the new position.
func (a *Adjudicator) onMoveCompleted(e game.MoveCompleted) []game.Verdict {
	var out []game.Verdict
	if e.Ply >= 1 && e.Ply <= len(a.plies) {
		a.truncate(e.Ply - 1)
	}
	if e.Position == nil {
		return nil
	}
	rec := plyRec{side: e.Side, uci: e.UCI, san: e.SAN, pos: e.Position, key: e.Position.RepetitionKey(), at: e.At, illegal: e.Illegal}
	a.plies = append(a.plies, rec)
	ply := len(a.plies)
	a.counts[rec.key]++
	if a.clk != nil {
		for _, ce := range a.clk.MoveCompleted(e.Side, e.At) {
			out = append(out, a.clockEvent(ce)...)
		}
	}
	if a.over() || a.opts.MatchJudges {
		return out
	}
	if e.Illegal {
		a.illegalStood = ply
	} else if a.illegalStood > 0 && ply == a.illegalStood+1 {
		out = append(out, a.illegalPosition(e.At, ply)...)
		a.illegalStood = 0
	}
	out = append(out, a.judge(e.At, e.Side, ply, e.Position)...)
	return out
}

// truncate cuts the record back to ply completed moves and rebuilds the
// repetition table (7.5.1: truncate the history on reinstatement).
func (a *Adjudicator) truncate(ply int) {
	if ply < 0 {
		ply = 0
	}
	if ply >= len(a.plies) {
		return
	}
	a.plies = a.plies[:ply]
	a.counts = map[rules.RepetitionKey]int{}
	if a.start != nil {
		a.counts[a.start.RepetitionKey()] = 1
	}
	for _, p := range a.plies {
		a.counts[p.key]++
	}
	keep := a.pending[:0]
	for _, p := range a.pending {
		if p.ply <= ply {
			keep = append(keep, p)
		}
	}
	a.pending = keep
	for k := range a.notified {
		var kind string
		var n int
		if _, err := fmt.Sscanf(k, "%s %d", &kind, &n); err == nil && n > ply {
			delete(a.notified, k)
		}
	}
}

// judge applies the end-of-game and draw rules to pos, reached by mover's
// completed move at ply.
func (a *Adjudicator) judge(at time.Time, mover rules.Color, ply int, pos rules.Position) []game.Verdict {
	var out []game.Verdict
	arts := a.rs.Articles
	draws := a.rs.Draws
	end := func(kind, result, termination, article, msg string) {
		al := a.newAlert(at, kind, game.Crit, article, mover, ply, msg+" Provisional until the arbiter confirms.")
		al.Proposal = map[string]any{"result": result}
		out = append(out, a.setResult(at, result, termination, article, true), *al)
	}
	switch pos.Status() {
	case rules.Checkmate:
		end(game.KindCheckmate, winFor(mover), "checkmate", arts.Checkmate,
			fmt.Sprintf("%s %s checkmates: %s wins.", moveNo(ply), a.plies[ply-1].san, name(mover)))
		return out
	case rules.NoLegalMoveLoss:
		end(game.KindStalemate, winFor(mover), "no legal move", arts.Stalemate,
			fmt.Sprintf("%s %s: %s has no legal move and loses (%s): %s wins.", moveNo(ply), a.plies[ply-1].san, name(pos.Turn()), arts.Stalemate, name(mover)))
		return out
	case rules.Stalemate:
		if draws.Stalemate {
			end(game.KindStalemate, Draw, "stalemate", arts.Stalemate,
				fmt.Sprintf("%s %s: %s is stalemated, the game is drawn.", moveNo(ply), a.plies[ply-1].san, name(pos.Turn())))
			return out
		}
		al := a.newAlert(at, game.KindStalemate, game.Crit, arts.Stalemate, mover, ply,
			fmt.Sprintf("%s has no legal move and is not in check; stalemate is not a draw under %s: the arbiter decides.", name(pos.Turn()), a.rs.Name))
		return append(out, *al)
	}
	if a.isXiangqi() {
		// Art. 22–24 instead of threefold and fivefold, Art. 12 instead of
		// the 50 and 75 moves (xiangqi.go).
		return append(out, a.judgeXiangqi(at, mover, ply, pos)...)
	}
	n := a.counts[pos.RepetitionKey()]
	hm := pos.HalfmoveClock()
	if draws.DeadPosition && !pos.CanMate(rules.White) && !pos.CanMate(rules.Black) {
		end(game.KindDeadPosition, Draw, "dead position", arts.DeadPosition,
			"Neither player can checkmate by any series of legal moves: dead position, the game is drawn.")
		return out
	}
	if n >= 5 {
		if draws.FivefoldAuto {
			end(game.KindFivefold, Draw, "fivefold repetition", arts.Fivefold,
				fmt.Sprintf("The position after %s %s has appeared %d times: the game is drawn.", moveNo(ply), a.plies[ply-1].san, n))
			return out
		}
		if a.once(fmt.Sprintf("fivefold %d", ply)) {
			out = append(out, *a.newAlert(at, game.KindFivefold, game.Info, arts.Threefold, mover, ply,
				fmt.Sprintf("The position has appeared %d times; %s has no automatic draw, a claim is needed.", n, a.rs.Name)))
		}
	}
	if hm >= 150 {
		if draws.SeventyFiveAuto {
			end(game.KindSeventyFive, Draw, "75-move rule", arts.SeventyFive,
				fmt.Sprintf("75 moves by each player without a pawn move or capture (%d plies): the game is drawn.", hm))
			return out
		}
		if hm == 150 {
			out = append(out, *a.newAlert(at, game.KindSeventyFive, game.Info, arts.FiftyMove, mover, ply,
				fmt.Sprintf("75 moves by each player without a pawn move or capture; %s has no automatic draw, a claim is needed.", a.rs.Name)))
		}
	}
	out = append(out, a.claimable(at, ply, pos, n, hm)...)
	return out
}

// claimable raises the INFO alerts for draws the player to move may claim
// (9.2, 9.3): never to the players (12.6).
func (a *Adjudicator) claimable(at time.Time, ply int, pos rules.Position, n, hm int) []game.Verdict {
	var out []game.Verdict
	side := pos.Turn()
	lapse := fmt.Sprintf("until %s touches a piece (9.4)", name(side))
	if a.rs.Claims.LapseOn == ruleset.LapseOnMove {
		lapse = fmt.Sprintf("until %s makes a move (%s)", name(side), a.rs.Articles.Threefold)
	}
	if a.rs.Draws.ThreefoldClaim {
		if n >= 3 {
			al := a.newAlert(at, game.KindThreefold, game.Info, a.rs.Articles.Threefold, side, ply,
				fmt.Sprintf("The position after %s %s has appeared %d times (plies %s): %s may claim a draw %s.",
					moveNo(ply), a.plies[ply-1].san, n, a.pliesOf(pos.RepetitionKey()), name(side), lapse))
			al.Proposal = map[string]any{"claim": "threefold", "side": side.String(), "plies": a.plyList(pos.RepetitionKey())}
			out = append(out, *al)
		} else if m, ok := a.repeatingMove(pos); ok {
			al := a.newAlert(at, game.KindThreefold, game.Info, a.rs.Articles.Threefold, side, ply,
				fmt.Sprintf("%s %s would make a position appear for the third time: %s may claim a draw by writing it and declaring it to the arbiter (9.2.1.1), %s.",
					moveNo(ply+1), pos.SAN(m), name(side), lapse))
			al.Proposal = map[string]any{"claim": "threefold", "side": side.String(), "move": pos.UCI(m)}
			out = append(out, *al)
		}
	}
	if a.rs.Draws.FiftyMoveClaim {
		switch {
		case hm == 100:
			al := a.newAlert(at, game.KindFifty, game.Info, a.rs.Articles.FiftyMove, side, ply,
				fmt.Sprintf("The last 50 moves by each player were completed without a pawn move or capture: %s may claim a draw (9.3.2) %s.", name(side), lapse))
			al.Proposal = map[string]any{"claim": "fifty", "side": side.String()}
			out = append(out, *al)
		case hm == 99:
			if m, ok := a.quietMove(pos); ok {
				al := a.newAlert(at, game.KindFifty, game.Info, a.rs.Articles.FiftyMove, side, ply,
					fmt.Sprintf("A move without a pawn move or capture (e.g. %s) completes 50 moves each: %s may claim a draw by writing it and declaring it (9.3.1), %s.", pos.SAN(m), name(side), lapse))
				al.Proposal = map[string]any{"claim": "fifty", "side": side.String(), "move": pos.UCI(m)}
				out = append(out, *al)
			}
		}
	}
	return out
}

// repeatingMove finds a legal move after which a position would appear for
// the third time (9.2.1.1).
func (a *Adjudicator) repeatingMove(pos rules.Position) (rules.Move, bool) {
	var buf [256]rules.Move
	for _, m := range pos.LegalMoves(buf[:0]) {
		next, err := pos.Play(m)
		if err != nil {
			continue
		}
		if a.counts[next.RepetitionKey()] >= 2 {
			return m, true
		}
	}
	return rules.NoMove, false
}

// quietMove finds a legal move that is neither a capture nor a pawn move.
func (a *Adjudicator) quietMove(pos rules.Position) (rules.Move, bool) {
	var buf [256]rules.Move
	for _, m := range pos.LegalMoves(buf[:0]) {
		if m.IsCapture() || m.IsDrop() || pos.At(m.From).Kind == rules.Pawn {
			continue
		}
		return m, true
	}
	return rules.NoMove, false
}

// plyList returns the plies (0 = start) after which key occurred.
func (a *Adjudicator) plyList(key rules.RepetitionKey) []int {
	var l []int
	if a.start != nil && a.start.RepetitionKey() == key {
		l = append(l, 0)
	}
	for i, p := range a.plies {
		if p.key == key {
			l = append(l, i+1)
		}
	}
	return l
}

// pliesOf writes plyList as "4, 8, 12".
func (a *Adjudicator) pliesOf(key rules.RepetitionKey) string {
	s := ""
	for i, p := range a.plyList(key) {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprint(p)
	}
	return s
}

// illegalPosition applies A.4.4: an illegal move stood, the next move is
// completed, and a pawn still stands unpromoted on its last rank.
func (a *Adjudicator) illegalPosition(at time.Time, ply int) []game.Verdict {
	if a.isXiangqi() {
		return a.xqOutOfArea(at, ply) // RB 4.3 (xiangqi_rb4.go)
	}
	if !a.rs.Illegal.IllegalPositionDraw {
		return nil
	}
	pos := a.plies[ply-1].pos
	g := pos.Geometry()
	for s := rules.Square(0); int(s) < g.Size(); s++ {
		pc := pos.At(s)
		if pc.Kind != rules.Pawn {
			continue
		}
		if r := g.Rank(s); (pc.Color == rules.White && r == g.Ranks-1) || (pc.Color == rules.Black && r == 0) {
			al := a.newAlert(at, game.KindIllegalPosition, game.Crit, a.rs.Articles.IllegalPosition, rules.NoColor, ply,
				fmt.Sprintf("An unpromoted %s pawn still stands on %s after the next completed move: the arbiter declares the game drawn.", pc.Color, g.Name(s)))
			al.Proposal = map[string]any{"result": Draw}
			return []game.Verdict{*al}
		}
	}
	return nil
}
