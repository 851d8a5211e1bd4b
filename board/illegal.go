package board

import (
	"errors"
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// classify looks for one physically possible move that turns the record's
// position into the sensed placement but breaks the rules: a piece moved
// the wrong way, the king left in check, castling through check, en passant
// that is not available, a pawn on the last rank not replaced, a piece of
// the side not having the move. It returns nil when the change is no move
// at all (pieces in the air, several pieces displaced).
func (t *Tracker) classify(at time.Time) *pendingIllegal {
	top := t.line.top()
	p := &t.board.sensed
	from := &top.place
	t.srch.diffBuf = p.Diff(from, t.srch.diffBuf[:0])
	d := t.srch.diffBuf
	if len(d) == 1 && t.opts.Drops {
		return t.classifyOne(at, top, d[0])
	}
	if len(d) < 2 || len(d) > maxChange {
		return nil
	}
	g := t.geo
	for _, f := range d {
		pc := from.Sq[f]
		if pc.IsEmpty() {
			continue
		}
		var cands []rules.Move
		for _, to := range d {
			if to == f {
				continue
			}
			after := p.Sq[to]
			if after.IsEmpty() {
				continue
			}
			m := rules.Move{From: f, To: to}
			if !from.Sq[to].IsEmpty() {
				m.Flags |= rules.FlagCapture
			}
			if pc.Kind == rules.King && from.Sq[to] == (rules.Piece{Color: pc.Color, Kind: rules.Rook}) {
				cands = append(cands, rules.Move{From: f, To: to, Flags: rules.FlagCastle})
			}
			if after.Color == pc.Color && after.Kind != pc.Kind && pc.Kind == rules.Pawn {
				m.Promo = after.Kind
			}
			cands = append(cands, m)
			if pc.Kind == rules.Pawn && from.Sq[to].IsEmpty() && g.File(to) != g.File(f) {
				cands = append(cands, rules.Move{From: f, To: to, Flags: rules.FlagCapture | rules.FlagEnPassant})
			}
		}
		// Castling where the king lands on the rook's square or stays put.
		if pc.Kind == rules.King {
			for _, r := range d {
				if from.Sq[r] == (rules.Piece{Color: pc.Color, Kind: rules.Rook}) && g.Rank(r) == g.Rank(f) {
					cands = append(cands, rules.Move{From: f, To: r, Flags: rules.FlagCastle})
				}
			}
		}
		for _, m := range cands {
			if applyPlacement(from, pc.Color, m) != *p {
				continue
			}
			return t.illegalAttempt(at, top, pc, m)
		}
	}
	return nil
}

// illegalAttempt builds the pending illegal move for attempt m by piece pc.
func (t *Tracker) illegalAttempt(at time.Time, top *node, pc rules.Piece, m rules.Move) *pendingIllegal {
	pos := top.pos
	reason := rules.ReasonUnknown
	g := t.geo
	if pc.Color != pos.Turn() {
		reason = rules.ReasonNotYourTurn
	} else if err := pos.Check(m); err != nil {
		var ie *rules.IllegalMoveError
		if errors.As(err, &ie) {
			reason = ie.Reason
		}
	}
	last := g.Ranks - 1
	if pc.Color == rules.Black {
		last = 0
	}
	if pc.Kind == rules.Pawn && m.Promo == rules.NoKind && g.Rank(m.To) == last && reason != rules.ReasonNotYourTurn {
		if pos.Check(rules.Move{From: m.From, To: m.To, Promo: rules.Queen, Flags: m.Flags}) == nil {
			reason = rules.ReasonMissingPromotion
		}
	}
	var after rules.Position
	if reason != rules.ReasonNotYourTurn {
		if a, err := pos.PlayIllegal(m); err == nil {
			after = a
		}
	}
	text := attemptText(g, top.place, m)
	return &pendingIllegal{
		place: t.board.sensed,
		pos:   after,
		ev: game.IllegalMove{
			Stamp: game.Stamp{At: t.board.lastChange}, Ply: len(t.line.hist), Side: pc.Color, Attempt: m,
			Text: text, Reason: reason, Position: after,
			Evidence: append([]game.Touch(nil), t.turn.touches...),
		},
	}
}

// attemptText writes a move as long algebraic notation ("Ng1-g3",
// "e7-e8", "Qd1xh5", "O-O"), fit for moves that have no SAN because they
// are illegal.
func attemptText(g rules.Geometry, p rules.Placement, m rules.Move) string {
	if m.IsDrop() {
		return fmt.Sprintf("%c@%s", m.Drop.Letter(), g.Name(m.To))
	}
	if m.IsRemove() {
		return "-" + g.Name(m.From)
	}
	if m.IsCastle() {
		if g.File(m.To) > g.File(m.From) {
			return "O-O"
		}
		return "O-O-O"
	}
	pc := p.At(m.From)
	s := ""
	if pc.Kind != rules.Pawn && !pc.IsEmpty() {
		s = string(pc.Kind.Letter())
	}
	sep := "-"
	if m.IsCapture() {
		sep = "x"
	}
	s += g.Name(m.From) + sep + g.Name(m.To)
	if m.Promo != rules.NoKind {
		s += "=" + string(m.Promo.Letter())
	}
	return s
}
