package board

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// line is the game as the tracker follows it: the start position, the
// moves made on the board in order, and how many of them are completed.
// Plies 1…done are completed (the record); done+1…len(moves) are made but
// not completed.
type line struct {
	hist   []*node // hist[0] is the start position; hist[i] the position after ply i
	moves  []rules.Move
	madeAt []time.Time
	illeg  []bool // illeg[i]: ply i+1 was an illegal move that stood
	done   int
	// entered is the last ply entered by hand (Tracker.Enter), 0 if
	// none: no takeback reaches back past it.
	entered int
}

// reset starts a new line at pos.
func (l *line) reset(pos rules.Position) {
	l.hist = append(l.hist[:0], newNode(pos))
	l.moves = l.moves[:0]
	l.madeAt = l.madeAt[:0]
	l.illeg = l.illeg[:0]
	l.done = 0
	l.entered = 0
}

// top returns the position after the last made move.
func (l *line) top() *node { return l.hist[len(l.hist)-1] }

// push makes move m, leading to n, at time at.
func (l *line) push(n *node, m rules.Move, at time.Time, illegal bool) {
	l.hist = append(l.hist, n)
	l.moves = append(l.moves, m)
	l.madeAt = append(l.madeAt, at)
	l.illeg = append(l.illeg, illegal)
}

// cut keeps the first ply plies; the completed ones stay completed.
func (l *line) cut(ply int) {
	l.hist = l.hist[:ply+1]
	l.moves = l.moves[:ply]
	l.madeAt = l.madeAt[:ply]
	l.illeg = l.illeg[:ply]
	l.done = min(l.done, ply)
	l.entered = min(l.entered, ply)
}

// firstPlyBy returns the first made, not completed ply by side (0 if
// none): a press completes the presser's oldest pending move.
func (l *line) firstPlyBy(side rules.Color) int {
	for ply := l.done + 1; ply < len(l.hist); ply++ {
		if l.hist[ply-1].pos.Turn() == side {
			return ply
		}
	}
	return 0
}
