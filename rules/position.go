package rules

// Position is an immutable game position of some variant: everything needed
// to generate moves and judge repetition. Methods never modify the receiver;
// Play returns a new Position. Implementations are safe for concurrent use
// by readers.
//
// The board tracker (package board) sees positions only through this
// interface, so it works for chess, Chess960, drop chess and xiangqi alike.
type Position interface {
	// Variant returns the variant's name: "chess", "chess960", "crazyhouse",
	// "team-drop", "xiangqi".
	Variant() string
	// Geometry returns the board's shape.
	Geometry() Geometry
	// Turn returns the side to move.
	Turn() Color
	// At returns the piece on s.
	At(s Square) Piece
	// Placement returns the pieces on the board (what sensors can see).
	Placement() Placement
	// Pocket returns how many pieces of kind k side c holds in hand (drop
	// variants; always 0 elsewhere).
	Pocket(c Color, k Kind) int

	// LegalMoves appends the legal moves to dst and returns it. With a dst
	// of enough capacity it does not allocate.
	LegalMoves(dst []Move) []Move
	// Play returns the position after the legal move m. An illegal move
	// returns a nil Position and an *IllegalMoveError saying why.
	Play(m Move) (Position, error)
	// PlayIllegal returns the position after m even when m breaks the rules
	// (a knight moved like a bishop, the king left in check), as long as it
	// is physically possible: a piece of the side to move stands on From and
	// To does not hold a piece of its own side. The result has the other
	// side to move. This is what rapid and blitz need when an illegal move
	// stands (FIDE 2018 A.4.2, B.4). Castling rights of moved kings and
	// rooks are lost; en passant is cleared.
	PlayIllegal(m Move) (Position, error)
	// Check returns nil when m is legal, else an *IllegalMoveError whose
	// Reason says why.
	Check(m Move) error

	// InCheck reports whether the side to move is in check.
	InCheck() bool
	// Status returns whether the game is over on the board (checkmate,
	// stalemate, or the variant's own ends); draws by rule (repetition,
	// move counts, dead position) are judged by the rule sets.
	Status() Status
	// CanMate reports whether side c could still checkmate the opponent by
	// some sequence of legal moves (FIDE 2018 5.2.2, 6.9, 7.5.5). Exact for
	// the material cases; conservative (true) where it cannot decide.
	CanMate(c Color) bool
	// RepetitionKey identifies the position for repetition (FIDE 9.2.2:
	// placement, side to move, castling rights, en passant only when a
	// legal en-passant capture exists; pockets in drop variants).
	RepetitionKey() RepetitionKey
	// HalfmoveClock counts plies since the last capture or pawn move.
	HalfmoveClock() int
	// FullmoveNumber is the FEN move number.
	FullmoveNumber() int

	// FEN returns the position in the variant's FEN dialect.
	FEN() string
	// SAN returns m in the variant's standard notation (SAN for chess);
	// m must be legal here.
	SAN(m Move) string
	// UCI returns m in coordinate notation (UCI, ICCS for xiangqi).
	UCI(m Move) string
	// ParseMove resolves a move written in SAN or UCI (or the variant's
	// notations) against the legal moves of this position.
	ParseMove(s string) (Move, error)
}

// RepetitionKey is a hash of the repetition-relevant state of a Position.
// Equal positions (FIDE 9.2.2) have equal keys; distinct positions collide
// with negligible probability (64-bit Zobrist).
type RepetitionKey uint64

// Status is the on-board state of a game.
type Status uint8

// Statuses. Ongoing is the zero value.
const (
	Ongoing Status = iota
	Checkmate
	Stalemate
	// NoLegalMoveLoss is xiangqi's "no legal move loses" (stalemate loses).
	NoLegalMoveLoss
)

// String returns the status in lower case.
func (s Status) String() string {
	switch s {
	case Checkmate:
		return "checkmate"
	case Stalemate:
		return "stalemate"
	case NoLegalMoveLoss:
		return "no_legal_move"
	}
	return "ongoing"
}
