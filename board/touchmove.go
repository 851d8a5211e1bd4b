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
	if k.IsRemove() {
		return k.From == sq // a team-drop lift takes the piece off (A4, A6)
	}
	if k.IsCastle() || !k.IsCapture() {
		return false
	}
	if k.Flags&rules.FlagEnPassant != 0 {
		return g.Square(g.File(k.To), g.Rank(k.From)) == sq
	}
	return k.To == sq
}

// touchMove checks the made move against the turn's touches (FIDE 2018
// Art 4.3–4.5) and returns the
// evidence, at most one finding per rule.
func (t *Tracker) touchMove(in tmInput, evs []game.Event) []game.Event {
	c := tmCheck{tmInput: in, g: t.geo, opts: &t.opts, side: in.x.pos.Turn()}
	for _, tc := range in.touched {
		if !tc.backAt.IsZero() && tc.backAt.Sub(tc.at) < t.opts.Flicker {
			continue // one scan: sensor noise or a brush, not a touch
		}
		if tc.piece.Color == c.side {
			c.own = append(c.own, tc)
		} else {
			c.opp = append(c.opp, tc)
		}
	}
	if len(c.own) == 0 && len(c.opp) == 0 {
		return evs
	}
	evs = c.promotion(evs)
	if evs, done := c.kingAndRook(evs); done {
		return evs
	}
	return c.firstTouched(evs)
}

// tmCheck is one made move checked against the touches of its turn.
type tmCheck struct {
	tmInput
	g        rules.Geometry
	opts     *TrackerOptions
	side     rules.Color
	own, opp []touched // the mover's pieces and the opponent's, touched in order
}

// canMove reports whether a legal move moves the piece on sq.
func (c *tmCheck) canMove(sq rules.Square) bool {
	for _, k := range c.x.kids {
		if movesPiece(k.m, sq) {
			return true
		}
	}
	return false
}

// canCapture reports whether a legal move captures the piece on sq.
func (c *tmCheck) canCapture(sq rules.Square) bool {
	for _, k := range c.x.kids {
		if captures(c.g, k.m, sq) {
			return true
		}
	}
	return false
}

// castleWith returns the legal castling with the rook on rook.
func (c *tmCheck) castleWith(rook rules.Square) (rules.Move, bool) {
	for _, k := range c.x.kids {
		if k.m.IsCastle() && k.m.To == rook {
			return k.m, true
		}
	}
	return rules.NoMove, false
}

// ev builds a finding.
func (c *tmCheck) ev(rule, art string, cert game.Certainty, msg string, sqs ...rules.Square) game.TouchEvidence {
	return game.TouchEvidence{
		Stamp: game.Stamp{At: c.at}, Ply: c.ply, Side: c.side, Rule: rule, Article: art,
		Certainty: cert, Message: msg, Touched: sqs, Made: c.m,
		Evidence: append([]game.Touch(nil), c.touches...),
	}
}

// promotion: a piece put on the promotion square, then another (TM-7).
func (c *tmCheck) promotion(evs []game.Event) []game.Event {
	m := c.m
	if m.Promo == rules.NoKind {
		return evs
	}
	for _, tc := range c.touches {
		if !tc.Lift && tc.Square == m.To && tc.Piece.Color == c.side && tc.Piece.Kind != rules.Pawn && tc.Piece.Kind != m.Promo {
			return append(evs, c.ev("TM-7", "4.4.4", game.Likely,
				fmt.Sprintf("%s was put on %s, then the pawn promoted to a %s", tc.Piece.Kind, c.g.Name(m.To), m.Promo), m.To))
		}
	}
	return evs
}

// kingAndRook: the king and a rook touched (TM-4, TM-5, TM-6, TM-11).
// done says no other finding applies.
func (c *tmCheck) kingAndRook(evs []game.Event) (out []game.Event, done bool) {
	ki, ri := -1, -1
	for i, tc := range c.own {
		if tc.piece.Kind == rules.King && ki < 0 {
			ki = i
		}
		if tc.piece.Kind == rules.Rook && ri < 0 {
			ri = i
		}
	}
	switch {
	case c.m.IsCastle():
		return c.castled(ki, ri, evs), true
	case ki >= 0 && ri > ki:
		return c.kingThenRook(ki, ri, evs), true
	case ki >= 0 && c.x.pos.Variant() == "chess":
		return c.kingStep(ki, evs)
	}
	return evs, false
}

// castled: the move castled; the rook first (TM-5), or both pieces in
// the air together as with two hands (TM-11).
func (c *tmCheck) castled(ki, ri int, evs []game.Event) []game.Event {
	m, own := c.m, c.own
	if ki >= 0 && ri >= 0 && own[ri].sq == m.To && ri < ki && own[ki].at.Sub(own[ri].at) > c.opts.ScanPeriod {
		cert := game.Likely
		if c.x.pos.Variant() == "chess960" {
			cert = game.Possible // Guideline II does not adapt 4.4.2 to 960
		}
		evs = append(evs, c.ev("TM-5", "4.4.2", cert,
			fmt.Sprintf("the rook on %s was lifted before the king, then castled", c.g.Name(m.To)), own[ri].sq, own[ki].sq))
	}
	// Chess960 castling where one piece lands on the other's square
	// needs both off the board at once, even with one hand.
	after := applyPlacement(&c.x.place, c.side, m)
	swap := after.Sq[m.From].Kind == rules.Rook || after.Sq[m.To].Kind == rules.King
	if ki >= 0 && ri >= 0 && !swap && twoHands(c.touches, own[ki].sq, own[ri].sq, c.opts.TwoHandWindow, c.opts.ScanPeriod) {
		evs = append(evs, c.ev("TM-11", "4.1", game.Possible,
			"king and rook were off the board together and put down together: possibly two hands", own[ki].sq, own[ri].sq))
	}
	return evs
}

// kingThenRook: the king, then a rook, were lifted and something other
// than castling was made (TM-4 when castling was legal, TM-6 when a king
// move was due).
func (c *tmCheck) kingThenRook(ki, ri int, evs []game.Event) []game.Event {
	rook, king, name, pos := c.own[ri].sq, c.own[ki].sq, c.g.Name, c.x.pos
	if cm, ok := c.castleWith(rook); ok {
		return append(evs, c.ev("TM-4", "4.4.1", game.Likely,
			fmt.Sprintf("king %s and rook %s were lifted, castling %s was legal, %s was made", name(king), name(rook), pos.SAN(cm), pos.SAN(c.m)), king, rook))
	}
	if c.canMove(king) && c.m.From != king {
		return append(evs, c.ev("TM-6", "4.4.3", game.Likely,
			fmt.Sprintf("king %s then rook %s were lifted, castling was illegal, so a king move was due; %s was made", name(king), name(rook), pos.SAN(c.m)), king, rook))
	}
	return evs
}

// kingStep: the king was put on its castling square while castling was
// legal, then another move was made (TM-6, 4.7.2). done when found.
func (c *tmCheck) kingStep(ki int, evs []game.Event) ([]game.Event, bool) {
	g, king := c.g, c.own[ki].sq
	for _, tc := range c.touches {
		if tc.Lift || tc.Piece != c.own[ki].piece || g.Rank(tc.Square) != g.Rank(king) {
			continue
		}
		f := g.File(tc.Square)
		if (f != 2 && f != g.Files-2) || g.File(king) != 4 {
			continue
		}
		for _, k := range c.x.kids {
			if k.m.IsCastle() && k.m.From == king && (g.File(k.m.To) > g.File(king)) == (f > g.File(king)) {
				return append(evs, c.ev("TM-6", "4.7.2", game.Likely,
					fmt.Sprintf("the king was put on %s (castling %s was legal), then %s was made", g.Name(tc.Square), c.x.pos.SAN(k.m), c.x.pos.SAN(c.m)), king)), true
			}
		}
	}
	return evs, false
}

// firstTouched: the first pieces touched (TM-1, TM-2, TM-3, TM-9): an
// opponent's piece touched first is TM-2, an own piece when the
// opponent's were touched too TM-3, an own piece otherwise TM-1.
func (c *tmCheck) firstTouched(evs []game.Event) []game.Event {
	name, pos, m := c.g.Name, c.x.pos, c.m
	if len(c.own) > 0 && len(c.opp) > 0 {
		o, p := c.own[0], c.opp[0]
		for _, k := range c.x.kids {
			if k.m.From == o.sq && captures(c.g, k.m, p.sq) {
				if m.From == o.sq && captures(c.g, m, p.sq) {
					return evs
				}
				return c.report(o, fmt.Sprintf("%s %s and %s %s were touched first; %s was legal, %s was made",
					c.kind(o.piece), name(o.sq), c.kind(p.piece), name(p.sq), pos.SAN(k.m), pos.SAN(m)), evs)
			}
		}
	}
	// The first touched piece that can be moved (own) or captured
	// (opponent); on equal times the own piece counts as touched first.
	for _, tc := range mergeTouched(c.own, c.opp) {
		if tc.piece.Color == c.side {
			if !c.canMove(tc.sq) {
				continue
			}
			if movesPiece(m, tc.sq) {
				return evs
			}
			return c.report(tc, fmt.Sprintf("%s %s was touched first and could move; %s was made", c.kind(tc.piece), name(tc.sq), pos.SAN(m)), evs)
		}
		if !c.canCapture(tc.sq) {
			if !tc.backAt.IsZero() {
				evs = append(evs, c.ev("TM-9", "4.2.1", game.Possible,
					fmt.Sprintf("%s %s %s was lifted and put back while %s had the move", c.color(tc.piece.Color), c.kind(tc.piece), name(tc.sq), c.color(c.side)), tc.sq))
			}
			continue
		}
		if captures(c.g, m, tc.sq) {
			return evs
		}
		return c.report(tc, fmt.Sprintf("%s %s %s was touched first and could be captured; %s was made", c.color(tc.piece.Color), c.kind(tc.piece), name(tc.sq), pos.SAN(m)), evs)
	}
	return evs
}

// report is the TM-1/2/3 finding for touched piece tc.
func (c *tmCheck) report(tc touched, what string, evs []game.Event) []game.Event {
	rule, art := "TM-1", "4.3.1"
	switch {
	case tc.piece.Color != c.side:
		rule, art = "TM-2", "4.3.2"
	case len(c.opp) > 0:
		rule, art = "TM-3", "4.3.3"
	}
	cert, note := game.Likely, ""
	if !tc.backAt.IsZero() && tc.backAt.Sub(tc.at) <= c.opts.AdjustWindow {
		adjust := "4.2.1"
		if c.g == rules.Xiangqi9x10 {
			adjust = "9.5(a)" // the xiangqi law's adjustment
		}
		cert, note = game.Possible, "; it was put back at once, which may have been an announced adjustment ("+adjust+")"
	}
	return append(evs, c.ev(rule, art, cert, what+note, tc.sq))
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

// kind names a piece's kind in the words of the game: the chess names, or
// on the xiangqi board general, advisor, elephant, horse, chariot, cannon,
// soldier.
func (c *tmCheck) kind(pc rules.Piece) string {
	if c.g != rules.Xiangqi9x10 {
		return pc.Kind.String()
	}
	switch pc.Kind {
	case rules.King:
		return "general"
	case rules.Knight:
		return "horse"
	case rules.Rook:
		return "chariot"
	case rules.Pawn:
		return "soldier"
	}
	return pc.Kind.String() // advisor, elephant, cannon
}

// color names a side in the words of the game: white and black, or on
// the xiangqi board red and black.
func (c *tmCheck) color(col rules.Color) string {
	if c.g == rules.Xiangqi9x10 && col == rules.White {
		return "red"
	}
	return col.String()
}
