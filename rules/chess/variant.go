package chess

import (
	"errors"
	"fmt"

	"github.com/dgtbridge/dgtbridge/rules"
)

// Variant names a rule set of the chess family. Each has default [Options].
type Variant uint8

// The variants.
const (
	// Standard is FIDE chess.
	Standard Variant = iota
	// Chess960 is Fischer random chess (FIDE Laws Guidelines II): castling
	// with any king and rook files, X-FEN or Shredder-FEN castling fields.
	Chess960
	// Crazyhouse is drop chess with standard crazyhouse rules: captured
	// pieces go to the capturer's pocket (promoted pieces as pawns), any
	// piece may be dropped on an empty square, pawns not on the first or
	// last rank, drops may give check and mate.
	Crazyhouse
	// TeamDrop is the team drop variant "Cờ đặt" of
	// docs/team-drop.md: pockets are fed by the
	// partner's captures (from outside, see [Position.WithPocket]), drops
	// may not give check (D3), no drop on the last rank (D4), no pawn drop on
	// the first rank (D5), no promotion (A6) with the removal obligation.
	TeamDrop
)

var variantNames = [...]string{"chess", "chess960", "crazyhouse", "team-drop"}

// String returns the variant's name as rules.Position.Variant spells it.
func (v Variant) String() string {
	if int(v) < len(variantNames) {
		return variantNames[v]
	}
	return fmt.Sprintf("variant(%d)", v)
}

// ErrUnknownVariant is returned by ParseVariant for names it does not know.
var ErrUnknownVariant = errors.New("chess: unknown variant")

// ParseVariant parses a variant name: "chess" (or "standard"), "chess960"
// (or "960", "fischerandom"), "crazyhouse" (or "zh"), "team-drop".
func ParseVariant(s string) (Variant, error) {
	switch s {
	case "chess", "standard":
		return Standard, nil
	case "chess960", "960", "fischerandom":
		return Chess960, nil
	case "crazyhouse", "zh":
		return Crazyhouse, nil
	case "team-drop", "teamdrop":
		return TeamDrop, nil
	}
	return Standard, fmt.Errorf("%w %q", ErrUnknownVariant, s)
}

// Options are the rule switches of a variant. The zero value is standard
// chess; [Variant.Options] gives each variant's defaults.
type Options struct {
	// Chess960 allows castling with the king and rooks on any files
	// (Guidelines II.3): the king ends on g/c and the rook on f/d of the
	// back rank, whatever their start squares. FEN castling fields are then
	// written as X-FEN (KQkq for the outermost rook, the file letter
	// otherwise). Standard positions are a special case, so this switch
	// changes only notation: UCI castling is king-takes-rook (e1h1) with it
	// and e1g1 without.
	Chess960 bool
	// Drops enables pockets and drop moves (N@f3). Pawns are never dropped
	// on the first or last rank.
	Drops bool
	// CapturesToPocket puts captured pieces into the capturer's pocket
	// (crazyhouse); a captured promoted piece enters as a pawn. When false
	// in a drop variant, pockets are fed from outside (bughouse, team drop).
	CapturesToPocket bool
	// NoDropCheck forbids drops that give check (team variant D3), mate
	// included.
	NoDropCheck bool
	// NoDropOnLastRank forbids drops of any piece on the opponent's back
	// rank (team variant D4, read relative to the dropper).
	NoDropOnLastRank bool
	// AbsoluteLastRank reads D4's "last rank" as rank 8 for both sides
	// (the spec's other reading, last_rank_reading = absolute) instead of
	// the dropper's last rank; it matters only with NoDropOnLastRank.
	AbsoluteLastRank bool
	// PawnDropRanks lists the ranks, counted from the dropper's side, where
	// pawns may be dropped: bit r-1 for rank r. Zero means ranks 2–7, the
	// only ones a drop variant ever allows (D4, D5; team variant
	// pawn_drop_ranks); bits for ranks 1 and 8 are ignored.
	PawnDropRanks uint8
	// NoPromotion makes a pawn that reaches the last rank stay a pawn
	// (team variant A6). It attacks nothing there, and the opponent must
	// remove it on the next move (lift it, a [rules.FlagRemove] move, or
	// capture it), unless in check or the removal is illegal (R6.3, R6.5),
	// in which case the obligation waits.
	NoPromotion bool
}

// Options returns the default switches of v.
func (v Variant) Options() Options {
	switch v {
	case Chess960:
		return Options{Chess960: true}
	case Crazyhouse:
		return Options{Drops: true, CapturesToPocket: true}
	case TeamDrop:
		return Options{Drops: true, NoDropCheck: true, NoDropOnLastRank: true, NoPromotion: true}
	}
	return Options{}
}

// StartFEN returns the FEN of the variant's start position (Chess960: the
// standard set-up, number 518).
func (v Variant) StartFEN() string {
	if v == Crazyhouse || v == TeamDrop {
		return "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"
	}
	return "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
}

// ensure the interface is implemented.
var _ rules.Position = (*Position)(nil)
