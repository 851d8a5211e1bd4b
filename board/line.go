package board

import (
	"slices"
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
	// pressed[i]: ply i+1 was completed by its mover's press (the
	// rereading counts the plies the presses finished: heal.go).
	pressed []bool
	done    int
	// entered is the last ply entered by hand (Tracker.Enter), 0 if
	// none: no takeback reaches back past it.
	entered int
	// forgot: the nodes before it keep no legal moves; dropped: the nodes
	// from 1 to before it are not kept (nil; node rebuilds them). See prune.
	forgot, dropped int
	// pinned are plies whose position cannot be rebuilt from the one
	// before by its move (a team-drop match changed its pockets): kept.
	pinned []int
}

// searchWindow is how many plies before the last completed one keep their
// legal moves expanded: searches start at the record's position or after
// it (a move replaced, a burst of made moves), takebacks compare
// placements only. keepWindow is how many keep their node at all: the
// takebacks the tracker recognises reach back maxTakeback plies.
const (
	searchWindow = 2
	keepWindow   = maxTakeback + 6
)

// reset starts a new line at pos.
func (l *line) reset(pos rules.Position) {
	clear(l.hist)
	l.hist = append(l.hist[:0], newNode(pos))
	l.forgot, l.dropped = 0, 1
	l.pinned = l.pinned[:0]
	l.moves = l.moves[:0]
	l.madeAt = l.madeAt[:0]
	l.illeg = l.illeg[:0]
	l.pressed = l.pressed[:0]
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
	l.pressed = append(l.pressed, false)
	l.prune()
}

// prune lets the positions well before the record's last one forget their
// legal moves and the positions searched from them (the search cache):
// nothing searches from there any more, and a takeback that reaches back
// that far expands them again. Positions further back are not kept at all
// (but the start): node rebuilds one from the moves when it is asked for.
// A tracker's memory then does not grow with the game's length beyond the
// moves themselves.
func (l *line) prune() {
	last := min(l.done, len(l.hist)-1)
	for ; l.forgot < last-searchWindow; l.forgot++ {
		if n := l.hist[l.forgot]; n != nil {
			n.forget()
		}
	}
	for l.dropped = max(l.dropped, 1); l.dropped < last-keepWindow; l.dropped++ {
		if !slices.Contains(l.pinned, l.dropped) {
			l.hist[l.dropped] = nil
		}
	}
}

// pin keeps the node of ply i: its position is not the one before played
// on.
func (l *line) pin(i int) {
	if !slices.Contains(l.pinned, i) {
		l.pinned = append(l.pinned, i)
	}
}

// node returns the position after ply i (0: the start), rebuilding it
// from the nearest kept one when it was dropped (the rebuilt node is not
// kept).
func (l *line) node(i int) *node {
	if n := l.hist[i]; n != nil {
		return n
	}
	j := i - 1
	for l.hist[j] == nil {
		j--
	}
	pos := l.hist[j].pos
	for ; j < i; j++ {
		next, err := pos.Play(l.moves[j])
		if err != nil || l.illeg[j] {
			next, err = pos.PlayIllegal(l.moves[j])
		}
		if err != nil {
			// The move was made from this very position: the engine
			// cannot refuse it now. Keep what there is.
			break
		}
		pos = next
	}
	return newNode(pos)
}

// cut keeps the first ply plies; the completed ones stay completed.
func (l *line) cut(ply int) {
	l.hist[ply] = l.node(ply)
	clear(l.hist[ply+1:])
	l.hist = l.hist[:ply+1]
	l.forgot, l.dropped = min(l.forgot, ply), min(l.dropped, ply)
	l.pinned = slices.DeleteFunc(l.pinned, func(p int) bool { return p > ply })
	l.moves = l.moves[:ply]
	l.madeAt = l.madeAt[:ply]
	l.illeg = l.illeg[:ply]
	l.pressed = l.pressed[:ply]
	l.done = min(l.done, ply)
	l.entered = min(l.entered, ply)
}

// pressesAfter returns how many of the completed plies after ply base
// were completed by their mover's press.
func (l *line) pressesAfter(base int) int {
	n := 0
	for _, p := range l.pressed[base:l.done] {
		if p {
			n++
		}
	}
	return n
}

// firstPlyBy returns the first made, not completed ply by side (0 if
// none): a press completes the presser's oldest pending move.
func (l *line) firstPlyBy(side rules.Color) int {
	for ply := l.done + 1; ply < len(l.hist); ply++ {
		if l.node(ply-1).pos.Turn() == side {
			return ply
		}
	}
	return 0
}
