package teamdrop

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// judge looks at board b after ply: repetition, the removal obligation,
// and after a legal ply checkmate (which ends the match) and stalemate.
func (m *Match) judge(u *Update, b Board, ply Ply, at time.Time, replay bool) {
	bs := &m.st.b[b]
	pos := bs.pos
	td := m.rs.TeamDrop
	arts := td.Articles
	report := func(f Finding) {
		if !replay {
			u.add(f)
		}
	}

	key := m.repKey(pos)
	bs.reps[key]++
	if n := bs.reps[key]; n == 3 && m.rs.Draws.ThreefoldClaim {
		report(&Threefold{At: m.where(b, at, arts.Threefold), Count: n})
	}

	if m.opts.NoPromotion {
		m.removal(b, ply, at, report)
	}

	if ply.Illegal {
		// An illegal move that stands ends nothing: the opponent may
		// confiscate, and the arbiter rules (a drop giving mate is D3).
		return
	}
	n := pos.NumLegalMoves()
	inCheck := pos.InCheck()
	toMove := Side{b, pos.Turn()}
	switch {
	case inCheck && n == 0:
		anyDrop := pos.CheckmateAnyDrop()
		ends := td.MateDefinition == ruleset.CurrentReserve || anyDrop
		report(&Checkmate{At: m.where(b, at, arts.MatchEnd), Winner: toMove.Opponent(), Current: true, AnyDrop: anyDrop, Ends: ends})
		if ends {
			m.terminal(u, EndEvent{Board: b, Result: winFor(toMove.Color.Other()), Termination: "checkmate", Article: arts.MatchEnd,
				At: at, Provisional: true}, replay)
		}
	case n == 0:
		report(&Stalemate{At: m.where(b, at, arts.Stalemate), Side: toMove})
	}
}

// removal reports the A6 obligation: when a pawn has just reached the last
// rank, and when a removal that waited becomes due.
func (m *Match) removal(b Board, ply Ply, at time.Time, report func(Finding)) {
	bs := &m.st.b[b]
	pos := bs.pos
	art := m.rs.TeamDrop.Articles.Removal
	toMove := Side{b, pos.Turn()}
	deferred := &bs.deferred[toMove.Color]
	stuck := stuckPawns(pos)
	if len(stuck) == 0 {
		*deferred = false
		return
	}
	due := removalDue(pos, stuck)
	arrived := ply.Kind == PlyMove && ply.Move.To >= 0 && pos.At(ply.Move.To) == (rules.Piece{Color: ply.Color, Kind: rules.Pawn}) &&
		containsSquare(stuck, ply.Move.To)
	switch {
	case arrived:
		d := NotDeferred
		if !due {
			d = DeferredIllegal
			if pos.InCheck() {
				d = DeferredCheck
			}
		}
		*deferred = !due
		report(&UnpromotedPawn{At: m.where(b, at, art), Side: toMove, Square: ply.Move.To, Deferred: d})
	case *deferred && due && ply.Color != toMove.Color:
		*deferred = false
		report(&UnpromotedPawn{At: m.where(b, at, art), Side: toMove, Square: stuck[0], Due: true})
	}
}

// stuckPawns returns the squares of the pawns of the side not to move that
// stand on the last rank (the first rank of the side to move).
func stuckPawns(pos *chess.Position) []rules.Square {
	us := pos.Turn()
	rank := 0
	if us == rules.Black {
		rank = 7
	}
	var out []rules.Square
	for f := 0; f < 8; f++ {
		s := rules.Chess8x8.Square(f, rank)
		if pos.At(s) == (rules.Piece{Color: us.Other(), Kind: rules.Pawn}) {
			out = append(out, s)
		}
	}
	return out
}

// removalDue reports whether the side to move must now remove one of the
// stuck pawns: its legal moves are lifts and captures of them (A6).
func removalDue(pos *chess.Position, stuck []rules.Square) bool {
	for _, mv := range pos.LegalMoves(nil) {
		if mv.Flags&rules.FlagRemove != 0 {
			return true
		}
		if mv.IsCapture() && containsSquare(stuck, mv.To) && !pos.InCheck() {
			return true
		}
	}
	return false
}

func containsSquare(list []rules.Square, s rules.Square) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
