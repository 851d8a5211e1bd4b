package board

import (
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Rereading the record. When the board shows a position that nothing
// explains from the record's last position, a move may have been read
// wrongly some plies ago (a recapture made before the board's scan saw
// the piece it takes, a transposition the sensors could not order): the
// players play on from the true position, and the board shows it. The
// tracker then searches from earlier plies of the record too (the last
// healBack plies, up to healFar while nothing fits) for the shortest legal
// line that leads to the board's position; the line must hold at least
// one ply for each press that completed a ply after its start (the
// presses bound the line from below). When one does, the record is
// rewritten from that ply ([game.Correction], reason [game.Reread], with
// the moves replaced and the new ones), and the tracker follows the board
// again. It tries again at every new position the board shows, so a board
// that shows a position reachable from the record resumes it however long
// it was lost.

const (
	// healBack is how many plies before the record's last one the search
	// starts from at least; healFar how far back it goes while nothing fits.
	healBack, healFar = 8, 16
	// healLonger: a line may hold this many plies more than the plies it
	// replaces and the presses heard since the record last grew (a move
	// made, not pressed yet).
	healLonger = 1
	// healBudget bounds the positions one search visits; healLines the
	// lines of the same length it compares; healSeen the placements it
	// keeps to compare them with.
	healBudget = 20000
	healLines  = 8
	healSeen   = 32
)

// healer is the scratch of the rereading search.
type healer struct {
	off    bool // the record is not reread (a board's log being read)
	budget int
	// presses counts the clock presses heard since the record last
	// completed a ply: the players may have made that many moves more.
	presses int
	scratch [][]rules.Move // legal moves, per depth
	found   [][]rules.Move // lines found
	seen    []rules.Placement
	moves   []rules.Move
	failed  map[healKey]bool
	// tried is the last placement searched for (a placement is searched
	// once until the record changes).
	tried     rules.Placement
	triedPly  int
	triedDone bool
}

// healKey is a position of the search with the plies left to play.
type healKey struct {
	place rules.Placement
	turn  rules.Color
	left  int
}

// judgeHeal: a line from an earlier ply of the record explains the
// settled placement. The search is made once the board was reported
// unexplained (held), or when a clock press was heard since the record
// last grew (the players play on); never for pieces lifted off a position
// the game may be in (a hand in the middle of a move).
func (t *Tracker) judgeHeal(at time.Time, _ int, evs []game.Event) ([]game.Event, bool) {
	t.heal.note(&t.board.sensed)
	if t.state.phase == inHand || (t.state.phase != held && t.heal.presses == 0) {
		return evs, false
	}
	return t.healNow(at, evs)
}

// note keeps a settled placement the board showed since the record was
// last explained (the rereading prefers lines that pass through them).
func (h *healer) note(p *rules.Placement) {
	if n := len(h.seen); n > 0 && h.seen[n-1] == *p {
		return
	}
	if len(h.seen) == healSeen {
		h.seen = append(h.seen[:0], h.seen[1:]...)
	}
	h.seen = append(h.seen, *p)
}

// healNow searches for a line from an earlier ply that explains the
// board, and rewrites the record with it when one does.
func (t *Tracker) healNow(at time.Time, evs []game.Event) ([]game.Event, bool) {
	if !t.opts.Reread || t.heal.off || t.illegal != nil || t.state.setup || t.srch.deep || t.piecesInHand() || t.line.done == 0 {
		return evs, false
	}
	p := &t.board.sensed
	h := &t.heal
	if h.triedDone && h.tried == *p && h.triedPly == len(t.line.hist) {
		return evs, false
	}
	h.tried, h.triedPly, h.triedDone = *p, len(t.line.hist), true
	done := t.line.done
	h.budget = healBudget
	// The shortest explanation of the board from the start wins (the
	// fewest plies in the record once rewritten); of equal ones, the one
	// that keeps more of the record.
	var (
		bestBase  = -1
		bestLine  []rules.Move
		bestScore int
	)
	for base := done - 1; base >= t.line.entered && base >= 0 && base >= done-healFar; base-- {
		if base < done-healBack && (h.budget <= 0 || bestBase >= 0) {
			break
		}
		from := t.line.node(base).pos
		minLen := max(1, done-base)
		maxLen := len(t.line.hist) - 1 - base + h.presses + healLonger
		if bestBase >= 0 {
			maxLen = min(maxLen, bestBase+len(bestLine)-base)
		}
		for n := minLen; n <= maxLen && h.budget > 0; n++ {
			h.failed = map[healKey]bool{}
			h.moves = h.moves[:0]
			h.found = h.found[:0]
			h.search(from, p, n)
			if len(h.found) == 0 {
				continue
			}
			line, score := h.best(from)
			if bestBase < 0 || base+n < bestBase+len(bestLine) || score > bestScore {
				bestBase, bestLine, bestScore = base, line, score
			}
			break
		}
	}
	if bestBase < 0 {
		return evs, false
	}
	return t.reread(at, bestBase, t.line.node(bestBase).pos, bestLine, evs), true
}

// best returns the line found that passes through the most placements
// the board was seen to show (transpositions: the order the board saw),
// and how many it passes through. Lines of the same length from earlier
// plies compete the same way.
func (h *healer) best(from rules.Position) ([]rules.Move, int) {
	best, score := 0, -1
	for i, line := range h.found {
		n := 0
		pos := from
		for _, m := range line {
			next, err := pos.Play(m)
			if err != nil {
				break
			}
			pl := next.Placement()
			for _, q := range h.seen {
				if q == pl {
					n++
					break
				}
			}
			pos = next
		}
		if n > score {
			best, score = i, n
		}
	}
	return h.found[best], score
}

// search collects (up to healLines) legal lines of exactly n plies from
// pos to target in h.found. Only moves that leave or reach a square that
// differs from the target are tried (a piece that moves away and comes
// back is not looked for), and a line is abandoned once a side has more
// squares to reach than moves left.
func (h *healer) search(pos rules.Position, target *rules.Placement, n int) bool {
	p := pos.Placement()
	if n == 0 {
		if p == *target {
			h.found = append(h.found, append([]rules.Move(nil), h.moves...))
			return true
		}
		return false
	}
	if h.budget <= 0 || len(h.found) >= healLines {
		return false
	}
	h.budget--
	turn := pos.Turn()
	var need [2]int
	size := p.Geo.Size()
	for s := 0; s < size; s++ {
		if p.Sq[s] != target.Sq[s] && !target.Sq[s].IsEmpty() {
			if c := target.Sq[s].Color; c == rules.White || c == rules.Black {
				need[colorIndex(c)]++
			}
		}
	}
	mine, theirs := (n+1)/2, n/2
	// One castling may bring two pieces home at once.
	if need[colorIndex(turn)] > mine+1 || need[colorIndex(turn.Other())] > theirs+1 {
		return false
	}
	key := healKey{place: p, turn: turn, left: n}
	if h.failed[key] {
		return false
	}
	for len(h.scratch) <= n {
		h.scratch = append(h.scratch, nil)
	}
	h.scratch[n] = pos.LegalMoves(h.scratch[n][:0])
	any := false
	for _, m := range h.scratch[n] {
		if !m.IsDrop() && p.Sq[m.From] == target.Sq[m.From] && (m.To == rules.NoSquare || p.Sq[m.To] == target.Sq[m.To]) {
			continue
		}
		next, err := pos.Play(m)
		if err != nil {
			continue
		}
		h.moves = append(h.moves, m)
		any = h.search(next, target, n-1) || any
		h.moves = h.moves[:len(h.moves)-1]
		if len(h.found) >= healLines {
			break
		}
	}
	if !any {
		h.failed[key] = true
	}
	return any
}

func colorIndex(c rules.Color) int {
	if c == rules.Black {
		return 1
	}
	return 0
}

// reread rewrites the record after ply base with moves (from position
// from) and tells the arbiter what was replaced and why.
func (t *Tracker) reread(at time.Time, base int, from rules.Position, moves []rules.Move, evs []game.Event) []game.Event {
	var was, now []string
	for i := base; i < t.line.done; i++ {
		was = append(was, t.san(t.line.node(i).pos, t.line.moves[i], t.line.illeg[i]))
	}
	pth := path{moves: moves}
	pos := from
	for _, m := range moves {
		now = append(now, pos.SAN(m))
		next, err := pos.Play(m)
		if err != nil {
			return evs // searched as legal: cannot happen
		}
		pth.nodes = append(pth.nodes, newNode(next))
		pos = next
	}
	h := &t.heal
	h.seen = h.seen[:0]
	lost := t.state.lost
	t.state.lost = false // found: said below, once the record holds the line
	done := t.line.done
	evs = t.resolved(at, evs)
	if base < done {
		evs = append(evs, game.Correction{At: game.T(at), Ply: base, Reason: game.Reread, Position: from, Was: was, Now: now,
			Why: fmt.Sprintf("the board shows the position after %s, which the record did not explain", joinSAN(now))})
	}
	t.trail.clear()
	t.line.cut(base)
	t.turn.reset(from.Turn())
	evs = t.appendMoves(at, base, pth, false, false, evs)
	// The plies the presses completed stay completed; the mover of the
	// last one has pressed when the clock runs for the side to move.
	last := base + len(moves)
	upTo := max(done, last-1)
	if c := t.clk.last; c != nil && c.Running == pos.Turn() {
		upTo = last
	}
	if t.completion() == StableWindow {
		upTo = last - 1
	}
	evs = t.completeUpTo(at, min(upTo, last), nil, evs)
	if lost {
		evs = append(evs, game.Explained{Stamp: game.Stamp{At: at}, Found: true, Ply: t.line.done})
	}
	return t.tryPress(at, evs)
}

func joinSAN(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out
}
