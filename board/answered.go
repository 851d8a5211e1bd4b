package board

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Answered tells the tracker of a polled board ([TrackerOptions.Polled])
// that the board answered, at at, a poll sent at asked, and that the
// answer has been fed whole: every change the board saw up to the poll,
// possibly none. It then lets time pass as [Tracker.Tick] does. A zero
// asked is taken as at.
//
// A press whose move the board showed only in the press's own answer,
// made by a piece a sliding hand might still have been carrying on
// (mayGoOn), waits for a later look at the board: the lever may have
// beaten the board's scan of the square the piece ended on. An answer to
// a poll sent at least [TrackerOptions.BoardScan] after the poll of the
// press's own answer is that look (the press came before that poll; the
// board's scan that followed it had reported by the time the later poll
// was heard), so the press is judged on it (lookLater), or once its grace
// has passed by poll time. The poll's sending, not the answer's reading,
// is what counts: a line held up reads late an answer the board made
// early. For any other tracker Answered is Tick.
func (t *Tracker) Answered(at, asked time.Time) []game.Event {
	if asked.IsZero() || asked.After(at) {
		asked = at
	}
	if t.opts.Polled {
		t.board.asked = asked
		for i := range t.lever.presses {
			p := &t.lever.presses[i]
			if p.stage.recorded() && p.asked.IsZero() && !p.answer.After(at) {
				p.asked = asked
			}
			if p.stage == pressRecorded && p.due.After(at) && !asked.Before(p.asked.Add(t.opts.BoardScan)) {
				p.due = at
			}
		}
	}
	return t.Tick(at)
}

// replyPressed judges a polled board's waiting press when the record of
// its opponent's press comes (side: the new presser). The press waited
// for a later look at the board (the lever may have beaten the board's
// scan of the square a sliding hand put the piece on), but the opponent
// has moved and pressed since: the presser's move was done, and the board
// as it stands at this record, before the rest of the answer, shows it.
// Judged at the end of the answer instead, a piece the presser moved again
// after the reply (his next move, its press in a later answer) was taken
// for the same slide: two moves of one piece read as one, the record one
// ply short from there on.
func (t *Tracker) replyPressed(at time.Time, side rules.Color, evs []game.Event) []game.Event {
	if len(t.lever.presses) != 1 || t.state.phase == ended {
		return evs
	}
	p := &t.lever.presses[0]
	base := t.line.node(t.line.done)
	if p.side != side.Other() || p.stage != pressRecorded || base.pos.Turn() != p.side {
		return evs
	}
	// The presser's move is the one move of his the board shows, with
	// nothing else changed but by the opponent's hand (his reply).
	base.expand(&t.srch.scratch)
	found := -1
	for i := range base.kids {
		kp := base.kidPlace(i)
		if shownWithReply(&t.board.sensed, &base.place, &kp, base.kids[i].m.To, p.side, t.landed(base.kids[i].m.To, &kp, p.at)) {
			if found >= 0 {
				return evs // two fit: judged at the end of the answer, as before
			}
			found = i
		}
	}
	if found < 0 {
		return evs
	}
	m := base.kids[found].m
	ply := t.line.done + 1
	switch {
	case len(t.line.hist)-1 == t.line.done:
		c := base.child(found)
		if c == nil {
			return evs
		}
		evs = t.resolved(at, evs)
		evs = t.appendMoves(at, t.line.done, path{moves: []rules.Move{m}, nodes: []*node{c}}, false, false, evs)
	case t.line.moves[t.line.done] != m:
		return evs // the line made another move of his: judged at the end of the answer
	}
	t.lever.unpressed = 0
	if len(t.lever.presses) > 0 {
		// (Appending the move may have judged the press already.)
		evs = t.completeUpTo(p.at, ply, p.reading(), evs)
		t.lever.presses = t.lever.presses[1:]
	}
	if t.board.sensed != t.line.top().place {
		evs = t.unexplain(at, evs) // the opponent's hand, at work
	}
	return evs
}

// polledAnswer judges the presses a polled board's answer recorded, once
// the answer has been fed whole: the presses whose moves the board shows
// exactly (answered) are judged on it; the others (the lever may have
// beaten the scan, a sliding hand may not have finished) wait for the
// later look ([Tracker.Answered], lookLater), a move of the opponent's
// made since, or their grace.
func (t *Tracker) polledAnswer(evs []game.Event) []game.Event {
	var answer time.Time
	for i := range t.lever.presses {
		if p := &t.lever.presses[i]; p.stage.tentative() && t.reached(p, t.now) {
			p.to(p.stage.untentative())
			answer = p.due
		}
	}
	if answer.IsZero() {
		return evs
	}
	k := t.answered(answer)
	for i := range t.lever.presses {
		p := &t.lever.presses[i]
		switch {
		case i < k:
			p.due = minTime(p.due, answer)
		case p.stage.recorded() && p.due.Equal(answer):
			p.due = lookLater
			p.to(p.stage.unlooked())
		}
	}
	if k == 0 {
		return evs
	}
	return t.pressScanned(answer, true, evs)
}

// answered returns how many of the pending presses a polled board's
// answer at time answer answers: the board shows exactly their moves, one
// each, made in turn by the pressers from the record's position and found
// one way only (the last presser's opponent may have lifted pieces). The
// last of them is left out when a hand may still be sliding it (mayGoOn)
// and the answer reported it: its square may not be scanned yet. A board
// with pieces in the air, or one move more (the opponent's fast reply),
// answers none.
func (t *Tracker) answered(answer time.Time) int {
	n := len(t.lever.presses)
	base := t.line.node(t.line.done)
	if t.state.phase == ended || base.pos.Turn() != t.lever.presses[0].side {
		return 0
	}
	for i := 1; i < n; i++ {
		if t.lever.presses[i].side == t.lever.presses[i-1].side {
			return 0
		}
	}
	// A move the board showed before this answer, nothing changed since,
	// is no slide on its way, once the board has had time to report the
	// hand moving on: a hand rests on a square it slides a piece across
	// for less than a board scan, and the board reports its leaving within
	// a scan; so the answer's poll came two board scans after the answer
	// that showed the move was read. On a line that polls every 0.8 s
	// that is always so; on a short line, polling every 40–400 ms, the
	// previous answer may have shown a rest of the slide and the lever
	// beaten the scan of its last square (the press then waits for a
	// later look).
	still := t.board.lastChange.Before(answer) && !t.board.asked.Before(t.board.lastChange.Add(2*t.opts.BoardScan))
	slid := func(before *rules.Placement, m rules.Move) int {
		if !still && mayGoOn(before, m) {
			return n - 1
		}
		return n
	}
	if last := len(t.line.hist) - 1; last == t.line.done+n && t.board.sensed == t.line.top().place {
		return slid(&t.line.node(last-1).place, t.line.moves[last-1])
	}
	if n == 1 {
		base.expand(&t.srch.scratch)
		found := -1
		for i := range base.kids {
			if kp := base.kidPlace(i); shownWithLifts(&t.board.sensed, &kp, base.pos.Turn()) {
				if found >= 0 {
					return 0
				}
				found = i
			}
		}
		if found < 0 {
			return 0
		}
		return slid(&base.place, base.kids[found].m)
	}
	if n > maxAnswered {
		return 0 // deeper than the search goes: the presses are judged one by one
	}
	pth, amb := t.find(base, &t.board.sensed, n)
	if amb || len(pth.moves) != n {
		return 0
	}
	return slid(&pth.nodes[n-2].place, pth.moves[n-1])
}

// shownWithLifts reports whether placement p is after with nothing
// changed but pieces of mover's opponent lifted off.
func shownWithLifts(p, after *rules.Placement, mover rules.Color) bool {
	n := p.Geo.Size()
	for i := 0; i < n; i++ {
		if p.Sq[i] != after.Sq[i] && (!p.Sq[i].IsEmpty() || after.Sq[i].IsEmpty() || after.Sq[i].Color == mover) {
			return false
		}
	}
	return true
}

// mayGoOn reports whether move m, made from placement before, may be a
// hand still on its way: a piece that slides (a pawn from its first
// square, a bishop, rook or queen, a king one square sideways as in
// castling) put on an empty square from which it could go on in the same
// direction. A board scanned while the hand rested there shows m; the
// square it ends on may not be scanned yet when the lever is pressed.
func mayGoOn(before *rules.Placement, m rules.Move) bool {
	if m.Drop != rules.NoKind || m.Promo != rules.NoKind || m.IsRemove() {
		return false // a drop, a promotion, a removal (team-drop): no slide
	}
	g := before.Geo
	pc, to := before.Sq[m.From], before.Sq[m.To]
	if pc.IsEmpty() || !to.IsEmpty() {
		return false // a capture ends where the captured piece stood
	}
	df, dr := g.File(m.To)-g.File(m.From), g.Rank(m.To)-g.Rank(m.From)
	switch pc.Kind {
	case rules.Pawn:
		if df != 0 || (dr != 1 && dr != -1) {
			return false
		}
	case rules.King:
		if dr != 0 || (df != 1 && df != -1) {
			return false
		}
	case rules.Bishop, rules.Rook, rules.Queen:
		if df != 0 && dr != 0 && df != dr && df != -dr {
			return false
		}
	default:
		return false
	}
	next := g.Square(g.File(m.To)+sign(df), g.Rank(m.To)+sign(dr))
	if next == rules.NoSquare {
		return false
	}
	q := before.Sq[next]
	switch pc.Kind {
	case rules.Pawn:
		home := 1
		if pc.Color == rules.Black {
			home = g.Ranks - 2
		}
		return g.Rank(m.From) == home && q.IsEmpty()
	case rules.King:
		return q.IsEmpty()
	}
	return q.IsEmpty() || q.Color != pc.Color
}

func sign(d int) int {
	switch {
	case d > 0:
		return 1
	case d < 0:
		return -1
	}
	return 0
}
