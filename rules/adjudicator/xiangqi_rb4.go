package adjudicator

import (
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// The xiangqi rapid and blitz regulations' illegal-move rules beyond the
// claim (RB 4.2, xqIllegal): a general, advisor or elephant that an illegal
// move took out of its area must be put back even after the claim window
// (RB 4.3), and abandoning the general loses if the opponent notices
// (RB 4.4), which the daemon reads as: the opponent's claim of it does not
// end with his next move (the rule names no window; [AMBIGUOUS], see
// docs/xiangqi.md).

// abandonsGeneral reports whether an illegal move's reason is one of
// "bỏ Tướng": it leaves the mover's general to be taken (moved into
// check, left in check, a pinned piece moved) or facing the other.
func abandonsGeneral(r rules.Reason) bool {
	switch r {
	case rules.ReasonFlyingGeneral, rules.ReasonKingIntoCheck, rules.ReasonLeavesKingInCheck, rules.ReasonPinned:
		return true
	}
	return false
}

// xqAbandoned marks an illegal move that abandons the general under a rule
// set where that loses once noticed (RB 4.4): prop gets
// "abandoned_general", and the returned text is what the alert says of the
// move.
func (a *Adjudicator) xqAbandoned(e game.IllegalMove, what string, prop map[string]any) string {
	if !a.isXiangqi() || !a.rs.Xiangqi.AbandonedGeneralLoses || !abandonsGeneral(e.Reason) {
		return what
	}
	prop["abandoned_general"] = true
	return what + fmt.Sprintf(", abandoning the general: this loses if %s notices it (%s), even after his next move", name(e.Side.Other()), a.rs.Xiangqi.Articles.AbandonedGeneral)
}

// xqAbandonedStands is the alert when the window of an illegal move that
// abandoned the general closes: it stands on the board, but the
// opponent's claim still wins (RB 4.4).
func (a *Adjudicator) xqAbandonedStands(at time.Time, p *pendingIllegal) []game.Verdict {
	opp := p.side.Other()
	al := a.newAlert(at, p.kind, game.Warn, a.rs.Xiangqi.Articles.AbandonedGeneral, p.side, p.ply,
		fmt.Sprintf("%s's illegal move at ply %d abandoned the general and stands on the board (%s moved on, alert %s), "+
			"but abandoning the general loses whenever %s notices it: if he claims it, he wins (%s).",
			name(p.side), p.ply, name(opp), p.alertID, name(opp), a.rs.Xiangqi.Articles.AbandonedGeneral))
	al.Proposal = map[string]any{"stands": true, "alert": p.alertID, "abandoned_general": true, "result": winFor(opp), "on_claim_by": opp.String()}
	return []game.Verdict{*al}
}

// xqOutOfArea is checked once the opponent has moved after an illegal move
// that stood (ply is that move): a general or advisor outside its palace,
// or an elephant across the river, must be put back (RB 4.3): a crit
// illegal_position alert per piece, naming where the stood move took it
// from when it was that move's piece.
func (a *Adjudicator) xqOutOfArea(at time.Time, ply int) []game.Verdict {
	if !a.rs.Xiangqi.CorrectPalacePieces || ply < 2 {
		return nil
	}
	pos := a.plies[ply-1].pos
	g := pos.Geometry()
	// The stood move's points (its ICCS text; it does not parse as a move).
	from, to := rules.Square(-1), rules.Square(-1)
	if u := a.plies[ply-2].uci; len(u) == 4 {
		f, err1 := g.ParseSquare(u[:2])
		t, err2 := g.ParseSquare(u[2:])
		if err1 == nil && err2 == nil {
			from, to = f, t
		}
	}
	var out []game.Verdict
	for s := rules.Square(0); int(s) < g.Size(); s++ {
		pc := pos.At(s)
		what, ok := outOfArea(g, s, pc)
		if !ok {
			continue
		}
		msg := fmt.Sprintf("%s's %s stands on %s, %s, after the illegal move at ply %d stood: it must be put back (%s); the rest of that move stands.",
			name(pc.Color), what, g.Name(s), map[bool]string{true: "outside its palace", false: "across the river"}[pc.Kind != rules.Elephant], ply-1, a.rs.Xiangqi.Articles.Palace)
		prop := map[string]any{"correct": g.Name(s)}
		if to == s && from >= 0 {
			prop["back_to"] = g.Name(from)
			msg += fmt.Sprintf(" It came from %s.", g.Name(from))
		}
		al := a.newAlert(at, game.KindIllegalPosition, game.Crit, a.rs.Xiangqi.Articles.Palace, pc.Color, ply, msg)
		al.Proposal = prop
		out = append(out, *al)
	}
	return out
}

// outOfArea reports whether pc stands outside its area on the xiangqi
// board g (the general and advisors in their palace, files d–f and the
// three ranks of their side; the elephants on their side of the river),
// and names the piece.
func outOfArea(g rules.Geometry, s rules.Square, pc rules.Piece) (string, bool) {
	f, r := g.File(s), g.Rank(s)
	if pc.Color == rules.Black {
		r = g.Ranks - 1 - r
	}
	inPalace := f >= 3 && f <= 5 && r <= 2
	switch pc.Kind {
	case rules.King:
		return "general", !inPalace
	case rules.Advisor:
		return "advisor", !inPalace
	case rules.Elephant:
		return "elephant", r > 4
	}
	return "", false
}
