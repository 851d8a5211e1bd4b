package board

// Value returns the value form of a tracker event. The tracker and the relay
// emit pointers (&MoveCompleted{…}); consumers that switch on value types
// (the adjudicator, the daemon's game record) call Value first, so either
// form may be handed to them. Values, and event types of other packages,
// are returned unchanged.
func Value(ev Event) Event {
	switch e := ev.(type) {
	case *Ambiguous:
		return *e
	case *BoardMismatch:
		return *e
	case *BoardsAgree:
		return *e
	case *ClockChanged:
		return *e
	case *ClockWithoutMove:
		return *e
	case *Correction:
		return *e
	case *DisplacedPieces:
		return *e
	case *Explained:
		return *e
	case *IllegalMove:
		return *e
	case *MoveCompleted:
		return *e
	case *MoveMade:
		return *e
	case *MoveRetracted:
		return *e
	case *OrientationChanged:
		return *e
	case *ResultGesture:
		return *e
	case *SetupDetected:
		return *e
	case *TouchEvidence:
		return *e
	case *TurnStarted:
		return *e
	case *Unexplained:
		return *e
	}
	return ev
}
