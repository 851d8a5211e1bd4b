package game

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// Event is something that happened at a board, as the tracker, the relay
// of a blind player's game or the wiring saw it. Every event carries the
// time of the sensor report or clock reading that caused it (time is
// passed in, never read from the wall clock). The set is closed: the
// types of this file, [Correction], [BoardMismatch], [BoardsAgree],
// [DeviceLost] and [DeviceBack].
type Event interface {
	When() time.Time
	event()
}

// Stamp is the time of an event. Embedding it gives a type its When
// method, not membership of [Event].
type Stamp struct {
	At time.Time
}

// When returns the time of the event.
func (s Stamp) When() time.Time { return s.At }

// Touch is one lift or placement, the unit of touch-move and illegal-move
// evidence.
type Touch struct {
	At     time.Time
	Square rules.Square
	Piece  rules.Piece
	Lift   bool // true: the piece left Square; false: it was put on Square
}

// Certainty grades touch-move evidence.
type Certainty uint8

// Certainty levels, from weakest to strongest.
const (
	Possible Certainty = iota // consistent with a touch, also with innocent handling (a slide)
	Likely                    // a touch is the simplest explanation
	Definite                  // the sensors cannot be explained without a touch
)

// String returns "possible", "likely" or "definite".
func (c Certainty) String() string {
	return [...]string{"possible", "likely", "definite"}[c]
}

// MoveMade: a move has been made on the board (FIDE 2018 1.3, 4.7) but is
// not yet completed. Ply counts from 1 over the record.
type MoveMade struct {
	Stamp
	Ply      int
	Side     rules.Color
	Move     rules.Move
	SAN, UCI string
	Position rules.Position // after the move
}

// MoveCompleted: the move entered the record (clock pressed, FIDE 2018
// 6.2.1; or the stable window without a clock; or release under the 2001
// rule). MadeAt is when it was made, At when it was completed.
type MoveCompleted struct {
	Stamp
	Ply      int
	Side     rules.Color
	Move     rules.Move
	SAN, UCI string
	Position rules.Position // after the move
	MadeAt   time.Time
	Clock    *ClockReading // nil without a clock
	// Illegal: the move was illegal and stands (rapid/blitz, FIDE 2018
	// A.4.2/B.4 once the opponent has moved), or the tracker carries on
	// from an illegal position at the arbiter's instruction.
	Illegal bool
	// ClockLost: completed while the clock was not heard, as on a board
	// without a clock: the record has no clock time for it (Clock is nil).
	ClockLost bool
}

// IllegalMove: a move that breaks the rules was made (and, if Completed,
// completed by a clock press: FIDE 2018 7.5.1). Text says what was
// attempted ("Ng1-g3", "O-O through check"); Reason is the engine's kind.
type IllegalMove struct {
	Stamp
	Ply       int // the ply it would have been
	Side      rules.Color
	Attempt   rules.Move // rules.NoMove when the change is no move at all
	Text      string
	Reason    rules.Reason
	Completed bool
	Position  rules.Position // the position after the attempt, when it is one
	Evidence  []Touch
}

// TouchEvidence: lifts and placements that suggest a touched piece should
// have been moved (FIDE 2018 Art 4).
// Never a penalty: the arbiter decides.
type TouchEvidence struct {
	Stamp
	Ply       int
	Side      rules.Color
	Rule      string // "TM-1" … "TM-12"
	Article   string // "4.3.1" …
	Certainty Certainty
	Message   string
	Touched   []rules.Square // the pieces touched, in order
	Made      rules.Move     // the move made instead (NoMove if none yet)
	Evidence  []Touch
}

// ClockWithoutMove: the lever was pressed while the position shows no move
// (FIDE 2018 6.2.1 / 7.5.3 depending on context).
type ClockWithoutMove struct {
	Stamp
	Side  rules.Color // the side that pressed
	Clock ClockReading
}

// ClockChanged passes a clock reading on to consumers (clock model, feed).
type ClockChanged struct {
	Stamp
	Clock ClockReading
	// Resync: readings before this one were not passed on (a polled
	// board's clock sides were not known yet), so the presses and the
	// time used since the last one were not seen: the clock model takes
	// this reading as it is.
	Resync bool
}

// Unexplained: the sensed placement is neither the record's position nor
// one legal move (or short sequence) away from it: pieces in the air, a
// knocked piece, or something the arbiter must look at. The tracker holds
// and resumes when the board is explained again ([Explained]).
type Unexplained struct {
	Stamp
	Since     time.Time
	Squares   []rules.Square // squares that differ from the record's position
	Placement rules.Placement
	// Lost: the record is lost, not only held: nothing has explained the
	// board for the tracker's LostAfter, or a clock press came while
	// nothing did (the players play on from a position the record does
	// not hold). Agreed is then the last ply of the record that agreed
	// with the board. The tracker keeps looking: [Explained] with Found
	// says when the record finds the board again.
	Lost   bool
	Agreed int
}

// Explained: the board matches the record again after [Unexplained].
// Found: the record had been lost ([Unexplained].Lost) and explains the
// board again (at ply Ply).
type Explained struct {
	Stamp
	Found bool
	Ply   int
}

// SetupDetected: a start position was set up (standard, or Chess960 number
// N960 from 0 to 959; -1 for standard): a new game begins.
type SetupDetected struct {
	Stamp
	Position rules.Position
	N960     int
}

// SetupMismatch: before the first move the board shows the pieces of the
// start position the game is to be played from, set up otherwise (pieces
// swapped: a bishop for a knight, king and queen): the arbiter has it
// corrected before the clock starts (FIDE 2018 7.2.1, Guidelines II.2 for
// Chess960). A set-up that is itself a start position (another Chess960
// array) is a [SetupDetected], which the adjudicator checks against the
// prescribed position. The record keeps Expected; [Explained] follows once
// the board shows it.
type SetupMismatch struct {
	Stamp
	Expected  rules.Position
	Squares   []rules.Square // squares that differ from Expected
	Placement rules.Placement
}

// ResultGesture: the players signalled a result on the board (DGT "kings in
// the centre", or magic pieces). Never a move.
type ResultGesture struct {
	Stamp
	Result  string // "1-0", "0-1", "1/2-1/2"
	Gesture string // "kings_centre", "magic_piece"
}

// DisplacedPieces: pieces stand on wrong squares without a move (FIDE 2018
// 7.3).
type DisplacedPieces struct {
	Stamp
	Squares []rules.Square
}

// OrientationChanged: the board is used rotated (a1 where h8 is expected).
type OrientationChanged struct {
	Stamp
	Rotated bool
}

// MoveRetracted: moves made but not completed were taken back or replaced
// on the board before completion (a slide that rested on a legal square and
// went on, rook-first castling read first as a rook move, a player changing
// his mind before pressing). Made moves after Ply are void; the record of
// completed moves is unchanged.
type MoveRetracted struct {
	Stamp
	Ply      int // the last ply still made
	Position rules.Position
}

// TurnStarted: the side having the move lifted a piece for the first time
// this turn (FIDE 2018 4.8, 9.4, 9.1.2.1: claims against the opponent's
// touch-move breaches lapse, this player's 9.2/9.3 draw claim window on
// this move closes, an open draw offer to him is rejected; TM-10, TM-12).
type TurnStarted struct {
	Stamp
	Ply    int // the ply the side is about to make
	Side   rules.Color
	Square rules.Square
	Piece  rules.Piece
}

// Ambiguous: the board was explained by more than one legal sequence of
// the same length; the tracker took Chosen and tells the arbiter. Other is
// the first alternative.
type Ambiguous struct {
	Stamp
	Ply    int // the first ply of the sequences
	Chosen []rules.Move
	Other  []rules.Move
}

func (MoveMade) event()           {}
func (MoveCompleted) event()      {}
func (IllegalMove) event()        {}
func (TouchEvidence) event()      {}
func (ClockWithoutMove) event()   {}
func (ClockChanged) event()       {}
func (Unexplained) event()        {}
func (Explained) event()          {}
func (SetupDetected) event()      {}
func (SetupMismatch) event()      {}
func (ResultGesture) event()      {}
func (DisplacedPieces) event()    {}
func (OrientationChanged) event() {}
func (MoveRetracted) event()      {}
func (TurnStarted) event()        {}
func (Ambiguous) event()          {}
