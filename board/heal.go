package board

import (
	"fmt"
	"slices"
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
// healBack plies, up to healFar while nothing fits) for a legal line that
// leads to the board's position. Of the lines found (the shortest from
// each ply), the one whose length fits the presses heard since its start
// wins: each press is a ply a hand finished, and the record's plies that
// the board showed and the presses confirmed are not given up for a
// shorter line that skips them (healPick.better). Two lines that explain
// the board equally well are both named to the arbiter ([game.Ambiguous]).
// An illegal move of the side to move is never reread (judgeOther
// classifies it first), nor is a drop variant's board (its pockets change
// with the partner's captures). When a line is found, the record is
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
	// touched: the squares the hands were seen to touch since the record
	// last grew; the search tries the moves that land on them first.
	touched *[rules.MaxSquares]bool
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
	return t.healWith(at, healAsk{}, evs)
}

// healAsk widens or narrows a rereading search: top lets it start from
// the record's last completed ply too (the moves made since are replaced
// by the line), and a line is taken only when its healFit is below beat
// (0: any line). judgeMoves asks so when the line it found holds more
// plies than the presses heard and one (a hand's rests read as moves).
type healAsk struct {
	top  bool
	beat int
}

// healWith is healNow as ask says.
func (t *Tracker) healWith(at time.Time, ask healAsk, evs []game.Event) ([]game.Event, bool) {
	if !t.opts.Reread || t.opts.Drops || t.heal.off || t.illegal != nil && !t.illegal.notYourTurn() || t.state.setup || t.srch.deep || t.piecesInHand() || t.line.done == 0 {
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
	h.touched = t.touchedSquares()
	var best, runner healPick
	best.base, runner.base = -1, -1
	first := done - 1
	if ask.top {
		first = done
	}
	for base := first; base >= t.line.entered && base >= 0 && base >= done-healFar; base-- {
		if base < done-healBack && (h.budget <= 0 || best.base >= 0) {
			break
		}
		from := t.line.node(base).pos
		minLen := max(1, done-base)
		maxLen := len(t.line.hist) - 1 - base + h.presses + healLonger
		if best.base >= 0 && !t.pressed() {
			maxLen = min(maxLen, best.base+len(best.line)-base)
		}
		for n := minLen; n <= maxLen && h.budget > 0; n++ {
			h.failed = map[healKey]bool{}
			h.moves = h.moves[:0]
			h.found = h.found[:0]
			h.search(from, p, n)
			if len(h.found) == 0 {
				continue
			}
			line, score, other := h.best(from)
			c := healPick{base: base, line: line, score: score, fit: t.healFit(at, base, n)}
			best, runner = c.consider(best, runner, t.pressed())
			if other != nil {
				// Another line from this ply explains the board as well.
				best, runner = healPick{base: base, line: other, score: score, fit: c.fit}.consider(best, runner, t.pressed())
			}
			if !t.pressed() || t.healFit(at, base, n+1) >= c.fit {
				break
			}
			// Fewer plies than the presses heard: a longer line from this
			// ply may be the one the presses finished (Qxg7 Kxg7 f5 Kf6,
			// the queen unseen on g7, for Qf6+ Kxf6 f5).
		}
	}
	if best.base < 0 || ask.beat > 0 && best.fit >= ask.beat {
		return evs, false
	}
	if runner.base >= 0 {
		evs = t.healAmbiguous(at, best, runner, evs)
	}
	return t.reread(at, best.base, t.line.node(best.base).pos, best.line, evs), true
}

// notYourTurn reports whether the illegal move is a piece of the side not
// having the move, moved and not completed: the record may have lost a
// ply (a slide's rest completed by the press, the rest of the slide read
// later), and a line reread from an earlier ply may explain the board.
func (il *pendingIllegal) notYourTurn() bool {
	return !il.completed && il.ev.Reason == rules.ReasonNotYourTurn
}

// healPick is a line found by the rereading search: the ply it starts
// from, its moves, how many placements the board showed it passes
// through, and how far its length is from the plies the presses since
// base finished (healFit).
type healPick struct {
	base  int
	line  []rules.Move
	score int
	fit   int
}

// better reports whether line a explains the board better than b. On a
// board whose clock presses complete the moves (pressed), the line whose
// length fits the presses heard since its start wins (each press is a ply
// a hand finished: the record's plies the board showed and the presses
// confirmed are not given up for a shorter line that skips them); then
// the shortest explanation of the board from the start (the fewest plies
// in the record once rewritten); then the one that passes through more of
// the placements the board showed; then the one that keeps more of the
// record. Neither is better when all of these are equal.
func (a healPick) better(b healPick, pressed bool) bool {
	if pressed && a.fit != b.fit {
		return a.fit < b.fit
	}
	if ta, tb := a.base+len(a.line), b.base+len(b.line); ta != tb {
		return ta < tb
	}
	if a.score != b.score {
		return a.score > b.score
	}
	return false
}

// consider returns the best line and its runner-up once c is compared
// with them: a runner-up explains the board as well as the best one.
func (c healPick) consider(best, runner healPick, pressed bool) (healPick, healPick) {
	switch {
	case best.base < 0 || c.better(best, pressed):
		if best.base >= 0 && !best.better(c, pressed) {
			return c, best
		}
		return c, healPick{base: -1}
	case !best.better(c, pressed):
		return best, c
	}
	return best, runner
}

// pressed reports whether the clock's presses complete the moves.
func (t *Tracker) pressed() bool { return t.completion() == ClockPress }

// healFit scores a line of n plies from ply base against the presses
// heard since: those that completed the record's plies after base, and
// those heard since the record last grew. A line may hold one ply more
// than the presses (the last move made, its press to come), and one
// fewer for each pending press whose scan has not reported the board by
// at (the lever beats the scan, and a burst of reports may bring a press
// before the squares of its move). Lower is better.
func (t *Tracker) healFit(at time.Time, base, n int) int {
	p := t.line.pressesAfter(base) + t.heal.presses
	unseen := 0
	for i := range t.lever.presses {
		if !t.reached(&t.lever.presses[i], at) {
			unseen++
		}
	}
	switch {
	case n < p-unseen:
		return p - unseen - n
	case n > p+1:
		return n - p - 1
	}
	return 0
}

// healAmbiguous tells the arbiter that two lines explain the board
// equally well (the rereading takes a, the one that keeps more of the
// record): both are written from the earlier of their starts.
func (t *Tracker) healAmbiguous(at time.Time, a, b healPick, evs []game.Event) []game.Event {
	base := min(a.base, b.base)
	from := func(c healPick) []rules.Move {
		return append(append([]rules.Move(nil), t.line.moves[base:c.base]...), c.line...)
	}
	chosen, other := from(a), from(b)
	if slices.Equal(chosen, other) {
		return evs
	}
	return append(evs, game.Ambiguous{Stamp: game.Stamp{At: at}, Ply: base + 1, Chosen: chosen, Other: other})
}

// best returns the line found that passes through the most placements
// the board was seen to show (transpositions: the order the board saw),
// how many it passes through, and another line that passes through as
// many (nil when none does). Lines of the same length from earlier plies
// compete the same way.
func (h *healer) best(from rules.Position) ([]rules.Move, int, []rules.Move) {
	best, score, tie := 0, -1, -1
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
		switch {
		case n > score:
			best, score, tie = i, n, -1
		case n == score && tie < 0:
			tie = i
		}
	}
	if tie >= 0 {
		return h.found[best], score, h.found[tie]
	}
	return h.found[best], score, nil
}

// touchedSquares returns the squares the hands were seen to touch (a lift
// or a put) since the record last grew, over the last two turns' logs.
func (t *Tracker) touchedSquares() *[rules.MaxSquares]bool {
	var out [rules.MaxSquares]bool
	ts, _ := t.turn.merged()
	for _, tc := range ts {
		if t.geo.Contains(tc.Square) {
			out[tc.Square] = true
		}
	}
	return &out
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
	if h.touched != nil {
		// The moves the sensors saw land first: within the budget, the
		// line the hands made is found before others that reach the same
		// placement.
		slices.SortStableFunc(h.scratch[n], func(a, b rules.Move) int {
			return h.landsUntouched(a) - h.landsUntouched(b)
		})
	}
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

// landsUntouched is 1 for a move whose destination the hands were not
// seen to touch, 0 otherwise.
func (h *healer) landsUntouched(m rules.Move) int {
	if m.To != rules.NoSquare && h.touched[m.To] {
		return 0
	}
	return 1
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
	pressed := t.line.pressesAfter(base) // the presses that completed the plies replaced
	evs = t.resolved(at, evs)
	if base == done && base < len(t.line.hist)-1 {
		evs = append(evs, game.MoveRetracted{Stamp: game.Stamp{At: at}, Ply: base, Position: from})
	}
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
	// Those presses completed the new line's plies.
	for i := base; i < t.line.done && pressed > 0; i++ {
		t.line.pressed[i] = true
		pressed--
	}
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
