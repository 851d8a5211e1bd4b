package board

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// The following phase's judgement (and the unexplained and held phases',
// which are judged the same way until the board is explained): the settled
// placement is explained, in order, as the record's position, moves made
// from it, moves made replacing moves not completed, the opponent carrying
// on after an illegal move that stands, a takeback, a board turned round,
// a set-up, a result gesture, an illegal move, or nothing (unexplained).

// maxTakeback bounds how far back a takeback of completed moves is looked
// for (an earlier position further back is more likely a repetition or a
// new game than a takeback).
const maxTakeback = 10

// judge judges the settled placement at time at, searching up to depth
// plies.
func (t *Tracker) judge(at time.Time, depth int, evs []game.Event) []game.Event {
	t.board.dirty = false
	t.stableSince = at
	// Each pending press is a ply the hands finished: search that deep.
	if n := len(t.lever.presses) + 1; n > depth {
		depth = min(n, max(t.opts.CatchUpDepth, t.opts.MaxDepth))
	}
	if t.state.phase == ended {
		return t.judgeEnded(at, evs)
	}
	steps := [...]func(time.Time, int, []game.Event) ([]game.Event, bool){
		t.judgeRecord, t.judgeMoves, t.judgeReplaced, t.judgeStands, t.judgeTakeback,
	}
	if il := t.illegal; il != nil && il.completed {
		// The board has shown a completed illegal move: play going on
		// from it is read from it (the record follows the board), never
		// as some legal line that happens to reach the same placement.
		steps[1], steps[2], steps[3] = t.judgeStands, t.judgeMoves, t.judgeReplaced
	}
	for _, step := range steps {
		if out, ok := step(at, depth, evs); ok {
			return out
		}
	}
	return t.judgeOther(at, depth, evs)
}

// judgeRecord: the board shows the record's last position (or an illegal
// move standing on it).
func (t *Tracker) judgeRecord(at time.Time, _ int, evs []game.Event) ([]game.Event, bool) {
	p := &t.board.sensed
	if *p == t.line.top().place {
		if n := len(t.trail.nodes); n > 0 && t.trail.nodes[n-1].place == *p && len(t.lever.presses) >= n-1 {
			// Moves that went round in a circle (a repetition made in a
			// burst), each press one of them.
			pth := path{moves: append([]rules.Move(nil), t.trail.moves...), nodes: append([]*node(nil), t.trail.nodes...)}
			evs = t.resolved(at, evs)
			evs = t.appendMoves(at, len(t.line.hist)-1, pth, false, false, evs)
			return t.tryPress(at, evs), true
		}
		t.trail.clear()
		evs = t.resolved(at, evs)
		return t.tryPress(at, evs), true
	}
	// An illegal move still standing on the board: nothing new.
	if t.illegal != nil && *p == t.illegal.place {
		return t.tryPress(at, evs), true
	}
	return evs, false
}

// judgeMoves: moves from the last position (fast replies included),
// following the trail of positions the board showed on the way. The
// explanation whose length fits the lever presses not yet judged wins
// (each press is a ply the hands finished), else the shorter one (a slide
// resting on a legal square leaves a trail one ply longer); on a tie the
// trail, which the sensors saw, wins.
func (t *Tracker) judgeMoves(at time.Time, depth int, evs []game.Event) ([]game.Event, bool) {
	chained, chainAmb := t.findViaTrail(min(depth, 2))
	direct, directAmb := t.find(t.line.top(), &t.board.sensed, depth)
	if len(chained.moves) == 0 && len(t.trail.nodes) > 0 && t.liftedFrom(t.trail.nodes[len(t.trail.nodes)-1]) && !t.pressesShow(at, direct) {
		// The board showed a position a few moves on and now only has
		// pieces lifted off it: a hand in the air, not a different game.
		return t.unexplain(at, evs), true
	}
	if len(chained.moves) == 0 && t.opts.Drops {
		// A piece dropped before the partner board reported the capture
		// that gave it, and what followed: read so when nothing else
		// explains the board, or when the sensors saw that piece put
		// where the line drops it and not what the other line drops.
		if fed := t.fedTop(); fed != nil {
			if fp, famb := t.find(fed, &t.board.sensed, depth); len(fp.moves) > 0 &&
				(len(direct.moves) == 0 || len(fp.moves) == len(direct.moves) && t.pathSeen(fp) && !t.pathSeen(direct)) {
				direct, directAmb = fp, famb
			}
		}
	}
	if len(chained.moves) > 0 && (len(direct.moves) == 0 || t.plyFit(len(chained.moves)) <= t.plyFit(len(direct.moves))) {
		direct, directAmb = chained, chainAmb
	}
	if len(direct.moves) == 0 || t.replacedShorter(len(direct.moves), depth) {
		return evs, false
	}
	if !t.handsOrderFits(direct) {
		// The sensors saw a later move of the line finished before an
		// earlier one was begun: the side that moved last moved on (the
		// rest of a slide the press completed, heard late). A line from an
		// earlier ply may put the moves in the order the hands made them.
		if out, ok := t.healNow(at, evs); ok {
			return out, true
		}
	}
	if extra := t.healFit(at, t.line.done, len(t.line.hist)-1-t.line.done+len(direct.moves)); extra > 0 && t.pressed() && len(t.lever.presses) > 0 {
		// More plies than the presses heard and one: a hand's rests (a
		// slide's squares, a captured piece lifted first) may have been
		// read as moves. A line that fits the presses better, from the
		// record's last ply or an earlier one, is the game.
		if out, ok := t.healWith(at, healAsk{top: true, beat: extra}, evs); ok {
			return out, true
		}
	}
	if t.pressDue(at, len(direct.moves)) {
		// More plies than the presses heard (one more: a move not pressed
		// yet) while the scan that follows a press has not reported the
		// board yet: a hand still at work (a slide resting on a square, a
		// captured piece lifted) may look like a few plies. The press says
		// the mover's hand is done; the board is judged once it is read.
		return t.unexplain(at, evs), true
	}
	evs = t.resolved(at, evs)
	evs = t.appendMoves(at, len(t.line.hist)-1, direct, directAmb, false, evs)
	return t.tryPress(at, evs), true
}

// pressesShow reports whether p, a line from the record's last position,
// is with the moves made since the last completed ply the pending
// presses' moves: one ply per press, each by its presser, and the scan
// that follows the last press has reported the board. Every presser's
// hand was done, so pieces that look lifted off a position the board
// showed on the way are no hand in the air (a queen taken at once on a
// square whose piece was of the kind that took it: Qxc6 bxc6 leaves a4
// and b7 empty, as two hands lifting would).
func (t *Tracker) pressesShow(at time.Time, p path) bool {
	k := len(t.lever.presses)
	made := len(t.line.hist) - 1 - t.line.done
	if !t.pressed() || t.opts.Polled || k == 0 || len(p.moves) == 0 || made+len(p.moves) != k || !t.reached(&t.lever.presses[k-1], at) {
		return false
	}
	for i, pr := range t.lever.presses {
		var n *node
		if i < made {
			n = t.line.node(t.line.done + i)
		} else if i == made {
			n = t.line.top()
		} else {
			n = p.nodes[i-made-1]
		}
		if n.pos.Turn() != pr.side {
			return false
		}
	}
	return true
}

// replacedShorter reports whether replacing moves made but not completed
// explains the board in fewer plies than n more from the last one (a
// slide that rested on a legal square, then the reply: the rest is no
// move of its own); judgeReplaced then reads it.
func (t *Tracker) replacedShorter(n, depth int) bool {
	top := len(t.line.hist) - 1
	for base := top - 1; base >= t.line.done; base-- {
		if pth, _ := t.find(t.line.node(base), &t.board.sensed, depth); len(pth.moves) > 0 && base+len(pth.moves) < top+n {
			return true
		}
	}
	return false
}

// judgeReplaced: moves made but not completed, taken back or replaced.
func (t *Tracker) judgeReplaced(at time.Time, depth int, evs []game.Event) ([]game.Event, bool) {
	p := &t.board.sensed
	for base := len(t.line.hist) - 2; base >= t.line.done; base-- {
		n := t.line.node(base)
		if *p == n.place {
			evs = t.resolved(at, evs)
			evs = t.retract(at, base, evs)
			return t.tryPress(at, evs), true
		}
		if pth, amb := t.find(n, p, depth); len(pth.moves) > 0 {
			old := t.line.moves[base]
			rest := t.restTime(base)
			evs = t.resolved(at, evs)
			evs = t.retract(at, base, evs)
			evs = t.appendMoves(at, base, pth, amb, true, evs)
			if rest >= t.opts.RestFor {
				evs = t.restedElsewhere(base, old, pth.moves[0], evs)
			}
			return t.tryPress(at, evs), true
		}
	}
	return evs, false
}

// judgeStands: the opponent carries on after a completed illegal move.
// Where the rules let it stand (TrackerOptions.IllegalStands: it stands
// once the opponent moves, FIDE 2018 A.4.2/B.4, or once the claimant
// touches a piece, 2001), it enters the record and the game goes on from
// it. Otherwise the record holds at the last legal position until the
// arbiter acts (the board is unexplained meanwhile): no move is made up to
// explain the board.
func (t *Tracker) judgeStands(at time.Time, depth int, evs []game.Event) ([]game.Event, bool) {
	il := t.illegal
	if il == nil || !il.completed || il.pos == nil {
		return evs, false
	}
	n := newNode(il.pos)
	pth, amb := t.find(n, &t.board.sensed, depth)
	if len(pth.moves) == 0 {
		return evs, false
	}
	if !t.opts.IllegalStands {
		return t.unexplain(at, evs), true
	}
	evs = t.standIllegal(at, il, n, evs)
	evs = t.resolved(at, evs)
	evs = t.appendMoves(at, len(t.line.hist)-1, pth, amb, false, evs)
	return t.tryPress(at, evs), true
}

// judgeTakeback: an earlier position of the record (a takeback of
// completed moves).
func (t *Tracker) judgeTakeback(at time.Time, _ int, evs []game.Event) ([]game.Event, bool) {
	for k := t.line.done - 1; k >= t.line.entered && k >= t.line.done-maxTakeback; k-- {
		if t.board.sensed == t.line.node(k).place {
			evs = t.resolved(at, evs)
			evs = t.retract(at, k, evs)
			return t.tryPress(at, evs), true
		}
	}
	return evs, false
}

// judgeOther: no move explains the board: a board turned around, a
// set-up, a result gesture, a set-up of the wrong placement, an illegal
// move, a line reread from an earlier ply (heal.go), or nothing.
func (t *Tracker) judgeOther(at time.Time, depth int, evs []game.Event) []game.Event {
	if t.opts.AutoOrientation {
		if ev, ok := t.tryRotation(at, depth, evs); ok {
			return ev
		}
	}
	if ev, ok := t.trySetup(at, evs); ok {
		return ev
	}
	if ev, ok := t.tryGesture(at, evs); ok {
		return ev
	}
	if ev, ok := t.trySetupMismatch(at, evs); ok {
		return ev
	}
	// An illegal move of the side to move explains the board as it is
	// (one piece moved the wrong way): the arbiter must see it, and no
	// line from an earlier ply rewrites the record around it. A piece of
	// the side not having the move is another matter: the record may have
	// lost a ply, and a line reread from an earlier ply may explain it.
	il := t.classify(at)
	if il == nil || il.ev.Reason == rules.ReasonNotYourTurn {
		if ev, ok := t.judgeHeal(at, depth, evs); ok {
			return ev
		}
	}
	if il != nil {
		// Reported once completed, or once it has stood
		// TrackerOptions.HoldAfter (a hand in the middle of en passant or
		// a capture looks the same for a moment).
		t.illegalExplains()
		t.illegal = il
		return t.tryPress(at, evs)
	}
	return t.unexplain(at, evs)
}

// liftedFrom reports whether the sensed placement is n's with some pieces
// lifted off (and nothing else changed).
func (t *Tracker) liftedFrom(n *node) bool { return liftedOnly(&t.board.sensed, &n.place) }

// liftedOnly reports whether p is q with some pieces lifted off (and
// nothing else changed).
func liftedOnly(p, q *rules.Placement) bool {
	size := p.Geo.Size()
	for i := 0; i < size; i++ {
		if p.Sq[i] != q.Sq[i] && !p.Sq[i].IsEmpty() {
			return false
		}
	}
	return true
}

// pressDue reports whether an explanation of n plies holds more plies
// than the pending presses and one, while the oldest of them waits for
// the scan that follows it (clock presses complete the moves).
func (t *Tracker) pressDue(at time.Time, n int) bool {
	k := len(t.lever.presses)
	return t.pressed() && k > 0 && n > k+1 && !t.reached(&t.lever.presses[0], at)
}

// plyFit scores an explanation of n plies: its distance from the number
// of pending presses, or n itself without presses (lower is better).
func (t *Tracker) plyFit(n int) int {
	if p := len(t.lever.presses); p > 0 {
		if n > p {
			return n - p
		}
		return p - n
	}
	return n
}
