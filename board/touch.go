package board

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// turnLog is what the hands did since the last move was made: every lift
// and placement, and the original pieces touched (lifted from the square
// they stood on at the start of the turn), in order.
type turnLog struct {
	side    rules.Color
	touches []game.Touch
	touched []touched
	placed  [rules.MaxSquares]bool // a piece was put on the square this turn
	started bool
	prev    []game.Touch // the previous turn's touches (for replaced moves)
	prevT   []touched    // and its touched pieces
}

// touched is an original piece lifted this turn.
type touched struct {
	sq     rules.Square
	piece  rules.Piece
	at     time.Time
	backAt time.Time // put back on sq (zero if not)
}

func (l *turnLog) reset(side rules.Color) {
	l.prev = append(l.prev[:0], l.touches...)
	l.prevT = append(l.prevT[:0], l.touched...)
	l.side = side
	l.touches = l.touches[:0]
	l.touched = l.touched[:0]
	l.placed = [rules.MaxSquares]bool{}
	l.started = false
}

// merged returns the previous turn's touches followed by this turn's (a
// replaced move spans both).
func (l *turnLog) merged() ([]game.Touch, []touched) {
	ts := append(append([]game.Touch(nil), l.prev...), l.touches...)
	tt := append(append([]touched(nil), l.prevT...), l.touched...)
	return ts, tt
}

// touch logs one sensed change of square sq (game frame) from old to now.
func (t *Tracker) touch(at time.Time, sq rules.Square, old, now rules.Piece, evs []game.Event) []game.Event {
	if !old.IsEmpty() {
		evs = t.logTouch(game.Touch{At: at, Square: sq, Piece: old, Lift: true}, evs)
	}
	if !now.IsEmpty() {
		evs = t.logTouch(game.Touch{At: at, Square: sq, Piece: now}, evs)
	}
	return evs
}

// logTouch logs one lift or placement; the first lift by the side having
// the move starts its turn (and, without a clock, completes the
// opponent's move).
func (t *Tracker) logTouch(tc game.Touch, evs []game.Event) []game.Event {
	l := &t.turn
	l.add(tc)
	if !tc.Lift || l.started || tc.Piece.Color != t.line.top().pos.Turn() || t.state.phase == ended {
		return evs
	}
	l.started = true
	evs = append(evs, game.TurnStarted{Stamp: game.Stamp{At: tc.At}, Ply: len(t.line.hist), Side: tc.Piece.Color, Square: tc.Square, Piece: tc.Piece})
	if t.completion() == StableWindow && t.line.done < len(t.line.moves) {
		evs = t.completeUpTo(tc.At, len(t.line.moves), nil, evs)
	}
	return evs
}

// add logs one lift or placement.
func (l *turnLog) add(tc game.Touch) {
	l.touches = append(l.touches, tc)
	if tc.Lift {
		if !l.placed[tc.Square] && !l.has(tc.Square) {
			l.touched = append(l.touched, touched{sq: tc.Square, piece: tc.Piece, at: tc.At})
		}
		return
	}
	l.placed[tc.Square] = true
	for i := range l.touched {
		if l.touched[i].sq == tc.Square && l.touched[i].piece == tc.Piece && l.touched[i].backAt.IsZero() {
			l.touched[i].backAt = tc.At
		}
	}
}

// cut removes from the log what the next turn's hand did: the touches
// reported after at (a press) that are not the mover's own move. The board
// reports a square when its scan passes, so a touch of the move (on one of
// moved's squares), or a piece put back where it was lifted before the
// press (a hand, or a sensor's flicker), may be reported after it; any
// other change reported then is the opponent's (the mover's hand was
// done). It returns the touches removed, in order.
func (l *turnLog) cut(at time.Time, mark int, moved func(rules.Square) bool) []game.Touch {
	var later []game.Touch
	keep := l.touches[:0:0]
	liftedBefore := map[rules.Square]rules.Piece{}
	for i, tc := range l.touches {
		switch {
		case tc.At.Before(at) || tc.At.Equal(at) && i < mark:
			if tc.Lift {
				liftedBefore[tc.Square] = tc.Piece
			}
		case moved(tc.Square):
		case !tc.Lift && liftedBefore[tc.Square] == tc.Piece:
		default:
			later = append(later, tc)
			continue
		}
		keep = append(keep, tc)
	}
	if len(later) == 0 {
		return nil
	}
	l.touches, l.touched, l.placed = l.touches[:0], l.touched[:0], [rules.MaxSquares]bool{}
	for _, tc := range keep {
		l.add(tc)
	}
	return later
}

func (l *turnLog) has(sq rules.Square) bool {
	for _, x := range l.touched {
		if x.sq == sq {
			return true
		}
	}
	return false
}
