package teamdrop

import (
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Finding is something the arbiter must know about a match: one of the
// types of this file, no other. Kind is the alert kind of
// docs/contract.md §3.4 (extended where the team variant needs it),
// Severity "crit", "warn" or "info", Where the board, ply, time and 004
// article, Message an English sentence for the arbiter's page.
type Finding interface {
	Kind() string
	Severity() string
	Where() Where
	Message() string
	finding()
}

// Where locates a finding: the board, the ply of that board it concerns (0
// before the first; the ply count after the event otherwise), the time of
// the event and the article that applies.
type Where struct {
	Board   Board
	Ply     int
	At      time.Time
	Article string
}

// Severities.
const (
	Crit = "crit"
	Warn = "warn"
	Info = "info"
)

// Violation says which rule an illegal move broke.
type Violation uint8

// Violations.
const (
	IllegalOther       Violation = iota // any other illegal move (A4 broad scope, FIDE 7.5.1)
	DropGivesCheck                      // D3
	DropOnLastRank                      // D4
	DropPawnRank                        // D5 or pawn_drop_ranks
	DropNotInPocket                     // D2: the piece was not in the pocket
	KingLeftInCheck                     // A5: a move that leaves the king in check while in check
	KingExposed                         // R5.4: moving into check, or a pinned piece, while not in check
	RemovalDue                          // A6 (R6.7): another move while the removal was due
	DroppedRookCastles                  // A8: castling with a rook that was dropped
	IllegalLift                         // lifting an opponent's piece with no right to
)

var violationText = [...]string{
	IllegalOther:       "illegal move",
	DropGivesCheck:     "drop giving check",
	DropOnLastRank:     "drop on the last rank",
	DropPawnRank:       "pawn dropped on a rank where pawns may not be dropped",
	DropNotInPocket:    "drop of a piece that was not in the pocket",
	KingLeftInCheck:    "king left in check",
	KingExposed:        "move exposing the own king",
	RemovalDue:         "the pawn on the last rank was not removed",
	DroppedRookCastles: "castling with a dropped rook",
	IllegalLift:        "an opponent's piece lifted off without the right to",
}

// String returns a short English phrase.
func (v Violation) String() string {
	if int(v) < len(violationText) {
		return violationText[v]
	}
	return fmt.Sprintf("violation(%d)", v)
}

// IllegalMove: a move completed against the rules. It stands (the board
// shows it) until the arbiter reinstates a position. Confiscable says the
// opponent may now lift the piece on Square and give it to the partner
// (A4); Candidate that it is a technical-error candidate waiting for the
// arbiter's confirmation (te_requires_arbiter).
type IllegalMove struct {
	At          Where
	Side        Side
	Move        rules.Move
	Text        string
	Reason      rules.Reason
	Violation   Violation
	Square      rules.Square // where the offending piece now stands (NoSquare for an illegal lift)
	Confiscable bool
	Candidate   bool
	// TimeAward is the time the rules propose to give the opponent
	// (illegal_time_award; 0 in bgo2026-team, R8.4).
	TimeAward time.Duration
}

// TechnicalError: a technical error counted for Side (A10, Reg. §11).
// Count is the player's count ("te"); at LossAt, Proposal is the result
// the rules give on that board.
type TechnicalError struct {
	At          Where
	Side        Side
	Count       int
	LossAt      int
	KingInCheck bool // counted in the separate A5 count (king_in_check_counts_as_te off)
	Proposal    string
}

// Deferral says why a due removal waits.
type Deferral uint8

// Deferrals.
const (
	NotDeferred     Deferral = iota
	DeferredCheck            // R6.3: the remover is in check
	DeferredIllegal          // R6.5: lifting or capturing the pawn would be illegal
)

// UnpromotedPawn: a pawn stands on the last rank and Side must remove it
// (A6), now or, when Deferred, as soon as that is legal; Due marks the
// moment a deferred removal becomes due.
type UnpromotedPawn struct {
	At       Where
	Side     Side
	Square   rules.Square
	Deferred Deferral
	Due      bool
}

// Confiscation: By lifted the illegally moved piece on Square (A4); it went
// to To's pocket. ConsumesTurn says whether it was By's move.
type Confiscation struct {
	At           Where
	By           Side
	Square       rules.Square
	Piece        rules.Piece
	To           Side
	ConsumesTurn bool
}

// BoardMismatch: the pieces on the two boards and in the pockets no longer
// add up (Missing > 0: pieces of Piece the match cannot place; < 0:
// pieces too many), or a drop used a piece its pocket lost to a correction.
type BoardMismatch struct {
	At      Where
	Piece   rules.Piece
	Missing int
	Reason  string
}

// PocketsCorrected: a correction on the other board changed this board's
// pockets (Before and After: White's, Black's).
type PocketsCorrected struct {
	At            Where
	Before, After [2]Pocket
	Cause         string
}

// PocketSettled: a piece dropped before it was in the pocket (see
// DropNotInPocket) has now arrived from the partner board; the pocket
// stays as it was.
type PocketSettled struct {
	At    Where
	Side  Side
	Piece rules.Piece
}

// Checkmate: the side to move on the board is checkmated under Current
// (mate_definition current_reserve) and/or AnyDrop (any_possible_drop).
// Ends says the match ended on it (the setting's definition holds).
type Checkmate struct {
	At               Where
	Winner           Side
	Current, AnyDrop bool
	Ends             bool
}

// Stalemate: Side has no legal move and is not in check. It is not a draw
// in the team variant (A11, R9.6); a piece from the partner would give a
// move.
type Stalemate struct {
	At   Where
	Side Side
}

// Threefold: the position on the board occurred for the Count-th time
// (A11); the arbiter confirms the draw ([Match.ConfirmThreefold]).
type Threefold struct {
	At    Where
	Count int
}

// MatchEnd: the match ended: Termination on the board, Results on A and B.
type MatchEnd struct {
	At          Where
	Termination string
	Results     [2]string
	Provisional bool
}

// SimultaneousEnd: two ends on the boards within the tolerance, or an end
// reported after a later one (Late): the arbiter decides (R9.7); the
// earlier one stands provisionally.
type SimultaneousEnd struct {
	At            Where
	First, Second EndEvent
	Late          bool
}

// NotRecorded: a move completed after the match ended; it is not recorded
// (docs/contract.md §3.3).
type NotRecorded struct {
	At      Where
	Side    Side
	Text    string
	EndedAt time.Time
}

// LongThink: Side thought Think before this move (report_long_think, A9).
type LongThink struct {
	At    Where
	Side  Side
	Think time.Duration
}

func (*IllegalMove) finding()      {}
func (*TechnicalError) finding()   {}
func (*UnpromotedPawn) finding()   {}
func (*Confiscation) finding()     {}
func (*BoardMismatch) finding()    {}
func (*PocketsCorrected) finding() {}
func (*PocketSettled) finding()    {}
func (*Checkmate) finding()        {}
func (*Stalemate) finding()        {}
func (*Threefold) finding()        {}
func (*MatchEnd) finding()         {}
func (*SimultaneousEnd) finding()  {}
func (*NotRecorded) finding()      {}
func (*LongThink) finding()        {}

// Kind implements Finding.
func (*IllegalMove) Kind() string      { return game.KindIllegalMove }
func (*TechnicalError) Kind() string   { return game.KindTechnicalError }
func (*UnpromotedPawn) Kind() string   { return game.KindUnpromotedPawn }
func (*Confiscation) Kind() string     { return game.KindConfiscation }
func (*BoardMismatch) Kind() string    { return game.KindBoardMismatch }
func (*PocketsCorrected) Kind() string { return game.KindPocketsCorrected }
func (*PocketSettled) Kind() string    { return game.KindPocketSettled }
func (*Checkmate) Kind() string        { return game.KindCheckmate }
func (*Stalemate) Kind() string        { return game.KindStalemate }
func (*Threefold) Kind() string        { return game.KindThreefold }
func (*MatchEnd) Kind() string         { return game.KindMatchEnd }
func (*SimultaneousEnd) Kind() string  { return game.KindSimultaneousEnd }
func (*NotRecorded) Kind() string      { return game.KindNotRecorded }
func (*LongThink) Kind() string        { return game.KindLongThink }

// Severity implements Finding.
func (*IllegalMove) Severity() string      { return Crit }
func (*TechnicalError) Severity() string   { return Warn }
func (*Confiscation) Severity() string     { return Info }
func (*BoardMismatch) Severity() string    { return Crit }
func (*PocketsCorrected) Severity() string { return Warn }
func (*PocketSettled) Severity() string    { return Info }
func (*Stalemate) Severity() string        { return Warn }
func (*Threefold) Severity() string        { return Warn }
func (*MatchEnd) Severity() string         { return Info }
func (*SimultaneousEnd) Severity() string  { return Crit }
func (*NotRecorded) Severity() string      { return Warn }
func (*LongThink) Severity() string        { return Info }

// Severity implements Finding: warn while a removal waits, info otherwise.
func (f *UnpromotedPawn) Severity() string {
	if f.Deferred != NotDeferred {
		return Warn
	}
	return Info
}

// Severity implements Finding: crit for a mate that ends the match (the
// arbiter confirms it), warn when only one definition sees a mate.
func (f *Checkmate) Severity() string {
	if f.Ends {
		return Crit
	}
	return Warn
}

// Where implements Finding.
func (f *IllegalMove) Where() Where      { return f.At }
func (f *TechnicalError) Where() Where   { return f.At }
func (f *UnpromotedPawn) Where() Where   { return f.At }
func (f *Confiscation) Where() Where     { return f.At }
func (f *BoardMismatch) Where() Where    { return f.At }
func (f *PocketsCorrected) Where() Where { return f.At }
func (f *PocketSettled) Where() Where    { return f.At }
func (f *Checkmate) Where() Where        { return f.At }
func (f *Stalemate) Where() Where        { return f.At }
func (f *Threefold) Where() Where        { return f.At }
func (f *MatchEnd) Where() Where         { return f.At }
func (f *SimultaneousEnd) Where() Where  { return f.At }
func (f *NotRecorded) Where() Where      { return f.At }
func (f *LongThink) Where() Where        { return f.At }
