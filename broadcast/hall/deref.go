package hall

import "github.com/dgtbridge/dgtbridge/board"

// deref returns the value form of a tracker event: the tracker returns
// pointers (&MoveCompleted{…}) while the session's record keeping switches
// on values. The adjudicator takes either form (arbiter.Handle normalises
// it itself), so events are handed to it as they come.
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
