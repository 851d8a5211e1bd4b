package rules

// MoveFlag qualifies a [Move].
type MoveFlag uint8

// Move flags. Engines set them on the moves they generate; parsers set them
// once a move is resolved against a position.
const (
	FlagCapture   MoveFlag = 1 << iota // a piece is taken (en passant included)
	FlagEnPassant                      // pawn takes en passant
	FlagCastle                         // castling: From is the king, To the castling rook
	FlagDouble                         // pawn double step
	FlagDrop                           // a piece enters from the pocket at To
	// FlagRemove: team drop variant (A6): the opponent's unpromoted pawn on
	// From is lifted off the board; To is NoSquare. Added by rules/chess.
	FlagRemove
)

// Move is a move in any variant. It is a small comparable value.
//
// Castling is written king-takes-rook: From is the king's square and To the
// rook's square, in standard chess and Chess960 alike, so every castling
// form of Chess960 (king or rook already on its destination, king and rook
// swapping, only the rook moving) has one unambiguous encoding. Engines
// translate to and from e1g1-style UCI.
//
// A drop has From == NoSquare, Drop the kind entering and To its square.
type Move struct {
	From, To Square
	Promo    Kind // promotion piece, NoKind if none
	Drop     Kind // dropped piece kind for drops, NoKind otherwise
	Flags    MoveFlag
}

// NoMove is the zero-information move (From and To NoSquare).
var NoMove = Move{From: NoSquare, To: NoSquare}

// IsDrop reports whether m brings a piece from the pocket.
func (m Move) IsDrop() bool { return m.Drop != NoKind }

// IsCastle reports whether m is castling.
func (m Move) IsCastle() bool { return m.Flags&FlagCastle != 0 }

// IsRemove reports whether m lifts a piece off the board and puts nothing
// down (team-drop: the removal of a pawn on the last rank); To is NoSquare.
func (m Move) IsRemove() bool { return m.Flags&FlagRemove != 0 }

// IsCapture reports whether m takes a piece.
func (m Move) IsCapture() bool { return m.Flags&FlagCapture != 0 }

// SameAs reports whether m and o are the same move, ignoring flags (a move
// parsed from a string may not carry them all).
func (m Move) SameAs(o Move) bool {
	return m.From == o.From && m.To == o.To && m.Promo == o.Promo && m.Drop == o.Drop
}
