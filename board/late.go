package board

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Reports heard late. The lever often beats the board's scan, and a
// reader that stalled hands a second of reports over at once: the board
// may show a slide's resting square at the press and the square the
// piece ended on only later. What the sensors saw, and in what order,
// then tells the mover's move from the opponent's reply.

// putBeforeLift reports whether a piece of mover's opponent was reported
// put down this turn before mover lifted any piece: that is no reply to
// mover's move (it came before the move was begun) but the rest of the
// opponent's own last move, heard late (a slide the press completed on a
// resting square). The board is then judged once it settles, where the
// order the hands worked in is weighed (handsOrderFits). A polled board's
// presses are judged on its answers (answered.go), not by this.
func (t *Tracker) putBeforeLift(mover rules.Color) bool {
	if t.opts.Polled {
		return false
	}
	for _, tc := range t.turn.touches {
		switch {
		case tc.Lift && tc.Piece.Color == mover:
			return false
		case !tc.Lift && !tc.Piece.IsEmpty() && tc.Piece.Color == mover.Other():
			return true
		}
	}
	return false
}

// restReplaced: the presser's made move (ply, the only one not completed)
// was read before his press from a placement that stood for the settle
// window, and the scan that follows the press shows another move of his
// from the same position instead (the piece rested on a square of its
// slide, and the lever beat the scan of the square it ended on). The move
// the board shows is his move: it replaces the rest before the press
// completes it. (Left to the press, the rest was completed and the
// slide's end read as his next move, a ply ahead of the game from there.)
func (t *Tracker) restReplaced(at time.Time, p *pendingPress, ply int, evs []game.Event) []game.Event {
	base := t.line.node(ply - 1)
	if t.opts.Polled || ply != t.line.done+1 || len(t.line.hist)-1 != ply || t.board.sensed == t.line.top().place {
		return evs
	}
	made := t.line.moves[ply-1]
	base.expand(&t.srch.scratch)
	found := -1
	for i := range base.kids {
		if base.kids[i].m.IsRemove() {
			continue // a removal (team-drop) puts nothing down
		}
		if kp := base.kidPlace(i); shownWithReply(&t.board.sensed, &base.place, &kp, base.kids[i].m.To, p.side, t.landed(base.kids[i].m.To, &kp, p.at) || t.liftedAfterPress(&base.place, base.kids[i].m, &kp, p.at)) {
			if found >= 0 {
				return evs // two moves fit: wait for the board to settle
			}
			found = i
		}
	}
	if found < 0 || base.kids[found].m == made || base.kids[found].m.From != made.From {
		return evs
	}
	if m := base.kids[found].m; t.board.sensed.Sq[m.To] != base.kidPlace(found).Sq[m.To] {
		return evs // not seen where it ended (taken at once, or still on its way): the board says when it settles
	}
	c := base.child(found)
	if c == nil {
		return evs
	}
	rest := t.restTime(ply - 1)
	evs = t.resolved(at, evs)
	evs = t.retract(at, ply-1, evs)
	evs = t.appendMoves(at, ply-1, path{moves: []rules.Move{base.kids[found].m}, nodes: []*node{c}}, false, true, evs)
	if rest >= t.opts.RestFor {
		evs = t.restedElsewhere(ply-1, made, base.kids[found].m, evs)
	}
	evs = t.tryPress(at, evs)
	if t.board.sensed != t.line.top().place {
		evs = t.unexplain(at, evs) // the opponent's hand, at work
	}
	return evs
}

// handsOrderFits reports whether no move of p was seen finished before
// the move before it was begun: the piece of a move last put down on its
// destination (reported this turn) before the piece of the move before
// it was first lifted off its square. (Both hands may be at work at once
// in a fast exchange, but a move cannot be done before the one it
// answers is begun.)
func (t *Tracker) handsOrderFits(p path) bool {
	for i := 1; i < len(p.moves); i++ {
		prev, m := p.moves[i-1], p.moves[i]
		if prev.IsDrop() || m.IsCastle() || m.IsDrop() || m.IsRemove() {
			continue // (a removal, team-drop, puts nothing down)
		}
		pc := p.nodes[i].place.Sq[m.To]
		var lifted, put time.Time
		for _, tc := range t.turn.touches {
			switch {
			case tc.Lift && lifted.IsZero() && (tc.Square == prev.From || prev.IsCastle() && tc.Square == prev.To):
				lifted = tc.At
			case !tc.Lift && tc.Square == m.To && tc.Piece == pc:
				put = tc.At // the last: a piece like it may have stood there before
			}
		}
		if !lifted.IsZero() && !put.IsZero() && put.Before(lifted) {
			return false
		}
	}
	return true
}

// liftedAfterPress reports whether the piece move m (from placement
// before, leading to after) puts on its destination was reported lifted
// off it since the press at time pressed, on a square where m's piece
// could not have rested on its way to another (mayGoOn): it stood there
// when the mover's hand was done, and the opponent's hand took it, the
// capture begun with the captured piece before any scan saw the capturer
// land (Ra1 Rxa1 with the white rook seen on a1 before the press and
// lifted off it after: not Rxa8 taken at once, which the sensors never
// saw).
func (t *Tracker) liftedAfterPress(before *rules.Placement, m rules.Move, after *rules.Placement, pressed time.Time) bool {
	if t.opts.Polled || m.IsCastle() || m.IsDrop() || m.IsRemove() || mayGoOn(before, m) {
		return false // (a removal, team-drop, puts nothing down)
	}
	pc := after.Sq[m.To]
	for _, tc := range t.turn.touches {
		if tc.Lift && tc.Square == m.To && tc.Piece == pc && !tc.At.Before(pressed) {
			return true
		}
	}
	return false
}

// silentPress is a press judged without a move (ClockWithoutMove) while
// the board had reported nothing since the press: the record's length
// then, and the press.
type silentPress struct {
	press pendingPress
	hist  int
}

// keepSilent keeps press p, judged without a move, when the board has
// reported nothing since it: the board's reader may have stalled, its
// reports to come at once, late (a burst).
func (t *Tracker) keepSilent(p pendingPress) {
	t.silent = nil
	if t.opts.Polled || t.board.lastChange.After(p.at) {
		return
	}
	t.silent = &silentPress{press: p, hist: len(t.line.hist)}
}

// reviveSilent: reports come at once (a burst, from time from, the
// input at at in it) after a press was judged without a move on a board
// that had reported nothing since it. The reader stalled; the press's move
// may be in the burst (the lever beat the scan, and the scan's reports
// were held back). The press is pending again, first, so that it
// completes its move when the board shows it: the record is not left a
// ply short, every later press one move behind (the arbiter has had the
// clock_without_move alert; the record shows what the board then says).
// A report that came before the burst, or a record that changed, keeps it
// judged.
func (t *Tracker) reviveSilent(from, at time.Time) {
	s := t.silent
	t.silent = nil
	if s == nil || s.hist != len(t.line.hist) {
		return
	}
	for _, tc := range t.turn.touches {
		if tc.At.After(s.press.at) && tc.At.Before(from) {
			return // reported singly since the press: no stall
		}
	}
	p := s.press
	p.burst, p.due, p.stage = true, t.scanned(at), pressHeardLooked
	t.revived = p.at
	t.lever.presses = append([]pendingPress{p}, t.lever.presses...)
}
