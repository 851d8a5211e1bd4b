package rules

import (
	"errors"
	"fmt"
)

// Reason says why a move is illegal. Penalty logic depends on it (FIDE
// 2018 7.5; the team variant's A4/A5/A6), so it is a value, not a string.
type Reason uint8

// Illegal-move reasons.
const (
	ReasonUnknown            Reason = iota
	ReasonNotYourTurn               // the piece on From belongs to the opponent
	ReasonNoPiece                   // From is empty
	ReasonOwnPieceOnTarget          // To holds a piece of the mover
	ReasonBadGeometry               // the piece cannot move that way (Ng1-g3)
	ReasonBlocked                   // a piece stands in the way
	ReasonPinned                    // the moved piece is pinned to its king
	ReasonLeavesKingInCheck         // the move leaves (or puts) the own king in check
	ReasonKingIntoCheck             // the king moves onto an attacked square
	ReasonCastleOutOfCheck          // castling while in check
	ReasonCastleThroughCheck        // castling across an attacked square
	ReasonCastleIntoCheck           // castling onto an attacked square
	ReasonCastleRightsGone          // king or rook has moved
	ReasonCastleBlocked             // pieces between king and rook, or on the destinations
	ReasonNoEnPassant               // en passant not available
	ReasonMissingPromotion          // pawn on the last rank not replaced (FIDE 7.5.1)
	ReasonBadPromotion              // promotion to a king or pawn, or when not allowed
	ReasonBadDrop                   // drop square not allowed (rank, occupied, variant switch)
	ReasonDropGivesCheck            // team variant: drops may not give check
	ReasonEmptyPocket               // no such piece in hand
	ReasonCapturesKing              // the move takes the king
	ReasonFlyingGeneral             // xiangqi: generals facing on an open file
	ReasonMustRemovePawn            // team variant A6: the pawn on the last rank must be removed first
)

var reasonText = [...]string{
	ReasonUnknown:            "illegal move",
	ReasonNotYourTurn:        "not your turn",
	ReasonNoPiece:            "no piece on the origin square",
	ReasonOwnPieceOnTarget:   "own piece on the target square",
	ReasonBadGeometry:        "the piece does not move that way",
	ReasonBlocked:            "the path is blocked",
	ReasonPinned:             "the piece is pinned",
	ReasonLeavesKingInCheck:  "leaves the king in check",
	ReasonKingIntoCheck:      "the king moves into check",
	ReasonCastleOutOfCheck:   "castling out of check",
	ReasonCastleThroughCheck: "castling through check",
	ReasonCastleIntoCheck:    "castling into check",
	ReasonCastleRightsGone:   "castling rights are gone",
	ReasonCastleBlocked:      "castling is blocked",
	ReasonNoEnPassant:        "en passant is not possible",
	ReasonMissingPromotion:   "pawn on the last rank not replaced",
	ReasonBadPromotion:       "promotion to that piece is not allowed",
	ReasonBadDrop:            "drop on that square is not allowed",
	ReasonDropGivesCheck:     "a drop may not give check",
	ReasonEmptyPocket:        "no such piece in hand",
	ReasonCapturesKing:       "the move takes the king",
	ReasonFlyingGeneral:      "the generals would face each other",
	ReasonMustRemovePawn:     "the pawn on the last rank must be removed",
}

// String returns a short English phrase for r.
func (r Reason) String() string {
	if int(r) < len(reasonText) {
		return reasonText[r]
	}
	return fmt.Sprintf("reason(%d)", r)
}

// ErrIllegalMove is the sentinel every *IllegalMoveError matches with
// errors.Is.
var ErrIllegalMove = errors.New("rules: illegal move")

// IllegalMoveError is returned for an illegal move; Reason says why.
type IllegalMoveError struct {
	Move   Move
	Text   string // the move as written, when it came from text
	Reason Reason
}

// Error implements error.
func (e *IllegalMoveError) Error() string {
	if e.Text != "" {
		return fmt.Sprintf("rules: illegal move %s: %s", e.Text, e.Reason)
	}
	return "rules: illegal move: " + e.Reason.String()
}

// Is makes errors.Is(err, ErrIllegalMove) true.
func (e *IllegalMoveError) Is(target error) bool { return target == ErrIllegalMove }
