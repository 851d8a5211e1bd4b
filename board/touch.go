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
	l := &t.turn
	if !old.IsEmpty() {
		l.touches = append(l.touches, game.Touch{At: at, Square: sq, Piece: old, Lift: true})
		if !l.placed[sq] && !l.has(sq) {
			l.touched = append(l.touched, touched{sq: sq, piece: old, at: at})
		}
		top := t.line.top()
		if !l.started && old.Color == top.pos.Turn() && t.state.phase != ended {
			l.started = true
			evs = append(evs, game.TurnStarted{Stamp: game.Stamp{At: at}, Ply: len(t.line.hist), Side: old.Color, Square: sq, Piece: old})
			if t.completion() == StableWindow && t.line.done < len(t.line.moves) {
				evs = t.completeUpTo(at, len(t.line.moves), nil, evs)
			}
		}
	}
	if !now.IsEmpty() {
		l.touches = append(l.touches, game.Touch{At: at, Square: sq, Piece: now})
		l.placed[sq] = true
		for i := range l.touched {
			if l.touched[i].sq == sq && l.touched[i].piece == now && l.touched[i].backAt.IsZero() {
				l.touched[i].backAt = at
			}
		}
	}
	return evs
}

func (l *turnLog) has(sq rules.Square) bool {
	for _, x := range l.touched {
		if x.sq == sq {
			return true
		}
	}
	return false
}
