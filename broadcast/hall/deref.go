package hall

import "github.com/dgtbridge/dgtbridge/board"

// KindBoardMismatch is the alert kind (interfaces.md §3.4) of the daemon
// telling the arbiter that it could not follow the record (a resumed record
// that does not replay, a reinstatement the tracker refused).
const KindBoardMismatch = "board_mismatch"

// KindClockCommandFailed (extension of §3.4): a clock setting the
// adjudicator asked for (penalties: auto, or an arbiter command) was not
// acknowledged by the clock; the arbiter sets it by hand.
const KindClockCommandFailed = "clock_command_failed"

// deref returns the value form of a tracker event: the tracker returns
// pointers (&MoveCompleted{…}) while the adjudicator and this package switch
// on values, so every event is normalised here once.
func deref(ev board.Event) board.Event {
	switch e := ev.(type) {
	case *board.Ambiguous:
		return *e
	case *board.ClockChanged:
		return *e
	case *board.ClockWithoutMove:
		return *e
	case *board.Correction:
		return *e
	case *board.DisplacedPieces:
		return *e
	case *board.Explained:
		return *e
	case *board.IllegalMove:
		return *e
	case *board.MoveCompleted:
		return *e
	case *board.MoveMade:
		return *e
	case *board.MoveRetracted:
		return *e
	case *board.OrientationChanged:
		return *e
	case *board.ResultGesture:
		return *e
	case *board.SetupDetected:
		return *e
	case *board.TouchEvidence:
		return *e
	case *board.TurnStarted:
		return *e
	case *board.Unexplained:
		return *e
	}
	return ev
}
