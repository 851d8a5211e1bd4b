package chess

import (
	"errors"
	"fmt"

	"github.com/dgtbridge/dgtbridge/rules"
)

// The removal obligation of the team drop variant (A6, docs/team-drop.md): a
// pawn that reached the last rank stays a pawn, and on the next move its
// opponent must take it off the board, either by lifting it (a removal move,
// rules.FlagRemove) or by capturing it. While that side is in check (R6.3), or
// when neither removal nor capture is legal (R6.5), the obligation waits and
// every legal move is allowed.

// stuckPawns returns the opponent's pawns standing on the side to move's
// first rank (their last rank).
func (p *Position) stuckPawns() bitboard {
	us := int(p.turn)
	if us == white {
		return p.bb[black][pawn] & rank1
	}
	return p.bb[white][pawn] & rank8
}

func (p *Position) genWithRemoval(ml *moveList) {
	start := ml.n
	p.genPlain(ml)
	us := int(p.turn)
	ksq := p.kingSq(us)
	occ := p.occupied()
	if p.bb[us][king] == 0 || p.attacked(ksq, us^1, occ) {
		return // R6.3: defend the king first
	}
	stuck := p.stuckPawns()
	n := start
	for i := start; i < ml.n; i++ {
		if m := ml.m[i]; m.typ() != mDrop && m.typ() != mCastle && stuck&sqBB(m.to()) != 0 {
			ml.m[n] = m
			n++
		}
	}
	for s := stuck; s != 0; s &= s - 1 {
		sq := lsb(s)
		// Lifting the pawn must not open a line onto the own king.
		if !p.attacked(ksq, us^1, occ^sqBB(sq)) {
			ml.m[n] = mk(sq, sq, 0, mRemove)
			n++
		}
	}
	if n > start {
		ml.n = n
	}
	// else R6.5: nothing removes the pawn legally; every move stays.
}

// CheckmateAnyDrop reports whether the side to move is checkmated even if
// it held one piece of every kind in hand: the "any possible drop" mate
// definition of the team variant (R9.5, mate_definition =
// any_possible_drop), under which a check that some drop could block is
// not mate because the player may wait for a piece. The drop rules of the
// variant (D3–D5) still apply. Outside drop variants it is Status() ==
// Checkmate.
func (p *Position) CheckmateAnyDrop() bool {
	if !p.InCheck() {
		return false
	}
	q := *p
	if q.opts.Drops {
		for k := pawn; k <= queen; k++ {
			if q.pocket[q.turn][k] == 0 {
				q.pocket[q.turn][k] = 1
			}
		}
	}
	var ml moveList
	q.genLegal(&ml)
	return ml.n == 0
}

// pawnDropSquares returns the squares of the ranks in mask (bit r-1 for
// rank r counted from colour us's side).
func pawnDropSquares(us int, mask uint8) bitboard {
	var b bitboard
	for r := 0; r < 8; r++ {
		if mask&(1<<r) == 0 {
			continue
		}
		abs := r
		if us == black {
			abs = 7 - r
		}
		b |= rank1 << uint(8*abs)
	}
	return b
}

// ErrLift is the sentinel of the errors Lift returns.
var ErrLift = errors.New("chess: nothing to lift")

// Lift returns the position after the side to move lifts the piece on s
// off the board, and that piece: the confiscation of an illegally moved or
// dropped piece (team variant A4) or the removal of a pawn standing on the
// lifter's first rank (A6). The piece must be the opponent's and not a
// king (the king is never confiscated). With passTurn the lift is the
// lifter's move, as a [rules.FlagRemove] move is, and the opponent moves
// next; without it (confiscation_consumes_turn = false) the same side is
// still to move. The half-move clock restarts (a lift counts as a
// capture), a castling right attached to s is gone and en passant is
// cleared. Lifting is not checked against the rules: whether the lift was
// allowed is the match's business (rules/teamdrop). Errors wrap ErrLift.
func (p *Position) Lift(s rules.Square, passTurn bool) (*Position, rules.Piece, error) {
	if s < 0 || s >= 64 {
		return nil, rules.NoPiece, fmt.Errorf("%w: square %d", ErrLift, s)
	}
	x := p.board[s]
	pce := toPiece(x)
	switch {
	case x == 0:
		return nil, pce, fmt.Errorf("%w: %s is empty", ErrLift, sqName(int(s)))
	case int(x>>3) == int(p.turn):
		return nil, pce, fmt.Errorf("%w: the piece on %s is the lifter's own", ErrLift, sqName(int(s)))
	case int(x&7) == king:
		return nil, pce, fmt.Errorf("%w: a king is never lifted (%s)", ErrLift, sqName(int(s)))
	}
	q := *p
	q.doMove(mk(int(s), int(s), 0, mRemove))
	if !passTurn {
		q.turn = p.turn
		q.full = p.full
	}
	return &q, pce, nil
}

// KingAttacked reports whether colour c's king is attacked, whichever
// side is to move: after an illegal move that stood, whether the mover left
// its king in check (team variant A5).
func (p *Position) KingAttacked(c rules.Color) bool {
	if c > rules.Black || p.bb[c][king] == 0 {
		return false
	}
	return p.attacked(p.kingSq(int(c)), int(c)^1, p.occupied())
}

// WithPockets returns a copy of p in which White holds the pieces of white
// and Black those of black, written as piece letters in either case
// ("NPP", "qn"; "" or "-" for none): the pockets of a [%pocket W/B]
// comment or a MoveEvent. Errors wrap ErrFEN.
func (p *Position) WithPockets(white, black string) (*Position, error) {
	q := *p
	for c, s := range [2]string{white, black} {
		q.pocket[c] = [7]uint8{}
		if s == "-" {
			continue
		}
		for i := 0; i < len(s); i++ {
			k, ok := rules.KindFromLetter(s[i])
			if !ok || k < rules.Pawn || k > rules.Queen || q.pocket[c][k] == 64 {
				return nil, &FENError{FEN: white + "/" + black, Field: "pocket", Reason: fmt.Sprintf("bad piece %q", s[i])}
			}
			q.pocket[c][k]++
		}
	}
	return &q, nil
}
