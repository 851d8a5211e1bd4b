package board

import (
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// tmInput is what the touch-move analysis of one made move looks at.
type tmInput struct {
	at      time.Time
	ply     int
	x       *node // the position the move was made in (expanded)
	m       rules.Move
	touches []game.Touch
	touched []touched
}

// moves reports whether legal move k moves the piece on sq (castling moves
// king and rook).
func movesPiece(k rules.Move, sq rules.Square) bool {
	return k.From == sq || (k.IsCastle() && k.To == sq)
}

// captures reports whether move k takes the piece on sq in geometry g.
func captures(g rules.Geometry, k rules.Move, sq rules.Square) bool {
	if k.IsCastle() || !k.IsCapture() {
		return false
	}
	if k.Flags&rules.FlagEnPassant != 0 {
		return g.Square(g.File(k.To), g.Rank(k.From)) == sq
	}
	return k.To == sq
}

// touchMove checks the made move against the turn's touches (FIDE 2018
// Art 4, specs/fide-laws.md §4.7 TM-1…TM-7, TM-9, TM-11) and returns the
// evidence, at most one finding per rule.
func (t *Tracker) touchMove(in tmInput, evs []game.Event) []game.Event {
	x := in.x
	g := t.geo
	side := x.pos.Turn()
	var own, opp []touched
	for _, tc := range in.touched {
		if !tc.backAt.IsZero() && tc.backAt.Sub(tc.at) < t.opts.Flicker {
			continue // one scan: sensor noise or a brush, not a touch
		}
		if tc.piece.Color == side {
			own = append(own, tc)
		} else {
			opp = append(opp, tc)
		}
	}
	if len(own) == 0 && len(opp) == 0 {
		return evs
	}
	canMove := func(sq rules.Square) bool {
		for _, k := range x.kids {
			if movesPiece(k.m, sq) {
				return true
			}
		}
		return false
	}
	canCapture := func(sq rules.Square) bool {
		for _, k := range x.kids {
			if captures(g, k.m, sq) {
				return true
			}
		}
		return false
	}
	ev := func(rule, art string, c game.Certainty, msg string, sqs ...rules.Square) game.TouchEvidence {
		return game.TouchEvidence{
			Stamp: game.Stamp{At: in.at}, Ply: in.ply, Side: side, Rule: rule, Article: art,
			Certainty: c, Message: msg, Touched: sqs, Made: in.m,
			Evidence: append([]game.Touch(nil), in.touches...),
		}
	}
	name := g.Name
	m := in.m

	// Promotion: a piece put on the promotion square, then another (TM-7).
	if m.Promo != rules.NoKind {
		for _, tc := range in.touches {
			if !tc.Lift && tc.Square == m.To && tc.Piece.Color == side && tc.Piece.Kind != rules.Pawn && tc.Piece.Kind != m.Promo {
				evs = append(evs, ev("TM-7", "4.4.4", game.Likely,
					fmt.Sprintf("%s was put on %s, then the pawn promoted to a %s", tc.Piece.Kind, name(m.To), m.Promo), m.To))
				break
			}
		}
	}

	// King and rook (TM-4, TM-5, TM-6, TM-11).
	ki, ri := -1, -1
	for i, tc := range own {
		if tc.piece.Kind == rules.King && ki < 0 {
			ki = i
		}
		if tc.piece.Kind == rules.Rook && ri < 0 {
			ri = i
		}
	}
	castleWith := func(rook rules.Square) (rules.Move, bool) {
		for _, k := range x.kids {
			if k.m.IsCastle() && k.m.To == rook {
				return k.m, true
			}
		}
		return rules.NoMove, false
	}
	if m.IsCastle() {
		if ki >= 0 && ri >= 0 && own[ri].sq == m.To && ri < ki && own[ki].at.Sub(own[ri].at) > t.opts.ScanPeriod {
			c := game.Likely
			if x.pos.Variant() == "chess960" {
				c = game.Possible // Guideline II does not adapt 4.4.2 to 960
			}
			evs = append(evs, ev("TM-5", "4.4.2", c,
				fmt.Sprintf("the rook on %s was lifted before the king, then castled", name(m.To)), own[ri].sq, own[ki].sq))
		}
		// Chess960 castling where one piece lands on the other's square
		// needs both off the board at once, even with one hand.
		after := applyPlacement(&x.place, side, m)
		swap := after.Sq[m.From].Kind == rules.Rook || after.Sq[m.To].Kind == rules.King
		if ki >= 0 && ri >= 0 && !swap && twoHands(in.touches, own[ki].sq, own[ri].sq, t.opts.TwoHandWindow, t.opts.ScanPeriod) {
			evs = append(evs, ev("TM-11", "4.1", game.Possible,
				"king and rook were off the board together and put down together: possibly two hands", own[ki].sq, own[ri].sq))
		}
		return evs
	}
	if ki >= 0 && ri > ki {
		rook := own[ri].sq
		king := own[ki].sq
		if cm, ok := castleWith(rook); ok {
			return append(evs, ev("TM-4", "4.4.1", game.Likely,
				fmt.Sprintf("king %s and rook %s were lifted, castling %s was legal, %s was made", name(king), name(rook), x.pos.SAN(cm), x.pos.SAN(m)), king, rook))
		}
		if canMove(king) && m.From != king {
			return append(evs, ev("TM-6", "4.4.3", game.Likely,
				fmt.Sprintf("king %s then rook %s were lifted, castling was illegal, so a king move was due; %s was made", name(king), name(rook), x.pos.SAN(m)), king, rook))
		}
		return evs
	}
	if ki >= 0 && x.pos.Variant() == "chess" {
		king := own[ki].sq
		for _, tc := range in.touches {
			if tc.Lift || tc.Piece != own[ki].piece || g.Rank(tc.Square) != g.Rank(king) {
				continue
			}
			f := g.File(tc.Square)
			if (f != 2 && f != g.Files-2) || g.File(king) != 4 {
				continue
			}
			for _, k := range x.kids {
				if k.m.IsCastle() && k.m.From == king && (g.File(k.m.To) > g.File(king)) == (f > g.File(king)) {
					return append(evs, ev("TM-6", "4.7.2", game.Likely,
						fmt.Sprintf("the king was put on %s (castling %s was legal), then %s was made", name(tc.Square), x.pos.SAN(k.m), x.pos.SAN(m)), king))
				}
			}
		}
	}

	// First pieces touched (TM-1, TM-2, TM-3): an opponent's piece touched
	// first is TM-2, an own piece when the opponent's were touched too
	// TM-3, an own piece otherwise TM-1.
	adjusted := func(tc touched) bool {
		return !tc.backAt.IsZero() && tc.backAt.Sub(tc.at) <= t.opts.AdjustWindow
	}
	report := func(tc touched, what string) []game.Event {
		rule, art := "TM-1", "4.3.1"
		switch {
		case tc.piece.Color != side:
			rule, art = "TM-2", "4.3.2"
		case len(opp) > 0:
			rule, art = "TM-3", "4.3.3"
		}
		c, note := game.Likely, ""
		if adjusted(tc) {
			c, note = game.Possible, "; it was put back at once, which may have been an announced adjustment (4.2.1)"
		}
		return append(evs, ev(rule, art, c, what+note, tc.sq))
	}
	if len(own) > 0 && len(opp) > 0 {
		o, p := own[0], opp[0]
		for _, k := range x.kids {
			if k.m.From == o.sq && captures(g, k.m, p.sq) {
				if m.From == o.sq && captures(g, m, p.sq) {
					return evs
				}
				return report(o, fmt.Sprintf("%s %s and %s %s were touched first; %s was legal, %s was made",
					o.piece.Kind, name(o.sq), p.piece.Kind, name(p.sq), x.pos.SAN(k.m), x.pos.SAN(m)))
			}
		}
	}
	// The first touched piece that can be moved (own) or captured (opponent);
	// on equal times the own piece counts as touched first.
	all := mergeTouched(own, opp)
	for _, tc := range all {
		if tc.piece.Color == side {
			if !canMove(tc.sq) {
				continue
			}
			if movesPiece(m, tc.sq) {
				return evs
			}
			return report(tc, fmt.Sprintf("%s %s was touched first and could move; %s was made", tc.piece.Kind, name(tc.sq), x.pos.SAN(m)))
		}
		if !canCapture(tc.sq) {
			if !tc.backAt.IsZero() {
				evs = append(evs, ev("TM-9", "4.2.1", game.Possible,
					fmt.Sprintf("%s %s %s was lifted and put back while %s had the move", tc.piece.Color, tc.piece.Kind, name(tc.sq), side), tc.sq))
			}
			continue
		}
		if captures(g, m, tc.sq) {
			return evs
		}
		return report(tc, fmt.Sprintf("%s %s %s was touched first and could be captured; %s was made", tc.piece.Color, tc.piece.Kind, name(tc.sq), x.pos.SAN(m)))
	}
	return evs
}

// mergeTouched orders own and opponent touches by time, own first on ties.
func mergeTouched(own, opp []touched) []touched {
	out := make([]touched, 0, len(own)+len(opp))
	i, j := 0, 0
	for i < len(own) || j < len(opp) {
		if j >= len(opp) || (i < len(own) && !own[i].at.After(opp[j].at)) {
			out = append(out, own[i])
			i++
		} else {
			out = append(out, opp[j])
			j++
		}
	}
	return out
}

// twoHands reports whether the pieces lifted from a and b were both off
// the board at once and were put down within window of each other.
func twoHands(ts []game.Touch, a, b rules.Square, window, scan time.Duration) bool {
	var liftA, liftB, putA, putB time.Time
	var pa, pb rules.Piece
	for _, tc := range ts {
		switch {
		case tc.Lift && tc.Square == a && liftA.IsZero():
			liftA, pa = tc.At, tc.Piece
		case tc.Lift && tc.Square == b && liftB.IsZero():
			liftB, pb = tc.At, tc.Piece
		case !tc.Lift && !liftA.IsZero() && tc.Piece == pa && tc.Square != a:
			putA = tc.At
		case !tc.Lift && !liftB.IsZero() && tc.Piece == pb && tc.Square != b:
			putB = tc.At
		}
	}
	if liftA.IsZero() || liftB.IsZero() || putA.IsZero() || putB.IsZero() {
		return false
	}
	// Both off the board together, for longer than the sensors' own
	// blur (one scan): each was lifted well before the other was put down.
	lastLift, firstPut := liftA, putA
	if liftB.After(lastLift) {
		lastLift = liftB
	}
	if putB.Before(firstPut) {
		firstPut = putB
	}
	if firstPut.Sub(lastLift) <= scan {
		return false
	}
	d := putA.Sub(putB)
	if d < 0 {
		d = -d
	}
	return d <= window
}
