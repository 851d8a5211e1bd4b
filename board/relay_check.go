package board

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// gameLine sets r.line and r.lpos to the game's line: the record, then the
// moves made and not yet completed on their player's own board, as long
// as that board agrees with the line so far.
func (r *Relay) gameLine() {
	r.line, r.lpos = r.line[:0], r.lpos[:0]
	for i := range r.rec {
		r.line = append(r.line, r.rec[i].ev.Move)
		r.lpos = append(r.lpos, r.rec[i].ev.Position)
	}
	for {
		n := len(r.line)
		pos := r.o.Start
		if n > 0 {
			pos = r.lpos[n-1]
		}
		t := r.tr[r.Owner(pos.Turn())]
		if t.Ply() <= n || !sameMoves(t.line.moves[:n], r.line) {
			return
		}
		r.line = append(r.line, t.line.moves[n])
		r.lpos = append(r.lpos, t.PositionAt(n+1))
	}
}

func sameMoves(a, b []rules.Move) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// check compares each board with the game and reports boards that differ
// (once per episode) and boards that agree again.
func (r *Relay) check(at time.Time, out []game.Event) []game.Event {
	r.gameLine()
	for b := range r.tr {
		out = r.checkBoard(at, game.Which(b), out)
	}
	return out
}

func (r *Relay) checkBoard(at time.Time, b game.Which, out []game.Event) []game.Event {
	t, st := r.tr[b], &r.st[b]
	m := t.Ply()
	k := min(m, len(r.line))
	div := -1
	for i := 0; i < k; i++ {
		if t.line.moves[i] != r.line[i] {
			div = i
			break
		}
	}
	off, late := false, false
	ply := 0
	var due time.Time
	switch {
	case r.tr[game.SightedBoard].Over():
		// The players signalled the result on the sighted board (kings in
		// the centre): the game is over on the boards; nothing is
		// compared until the next set-up.
	case st.setUp && m == 0:
		// Set up for the next game before the sighted board: it waits.
	case m > len(r.line) && !r.setupAt.IsZero() && at.Before(r.setupAt.Add(r.o.MirrorWithin)):
		// Still the old game after a set-up on the other board.
	case div >= 0:
		off, ply = true, div+1
	case m > len(r.line):
		// Moves on this board that nobody made on his own board.
		off, ply = true, len(r.line)+1
	case m < len(r.rec):
		// A recorded move not executed on this board yet: allowed for
		// MirrorWithin from when it entered the record.
		due = r.rec[m].ev.At.Add(r.o.MirrorWithin)
		late, ply = !at.Before(due), m+1
	case t.Sensed() != t.PositionAt(m).Placement():
		// Pieces off their squares: the move in progress of the player to
		// move on this board, or the execution of a move made on the
		// other board; anything else is a difference.
		inProgress := t.PositionAt(m).Turn() == r.ownerColor(b) || r.tr[b.Other()].Ply() > m
		off, ply = !inProgress, m+1
	}
	if !off {
		st.off = false
	} else if !st.off {
		st.off, st.offSince = true, at
	}
	switch {
	case st.alerted && !off && !late:
		st.alerted = false
		return append(out, game.BoardsAgree{Stamp: game.Stamp{At: at}, Board: b})
	case st.alerted:
		return out
	case late:
		st.alerted = true
		return append(out, r.mismatch(due, b, ply, true, r.rec[m].ev.At))
	case off && !at.Before(st.offSince.Add(r.o.MismatchAfter)):
		st.alerted = true
		return append(out, r.mismatch(st.offSince.Add(r.o.MismatchAfter), b, ply, false, st.offSince))
	}
	return out
}

// mismatch builds the report on board b.
func (r *Relay) mismatch(at time.Time, b game.Which, ply int, late bool, since time.Time) game.BoardMismatch {
	t := r.tr[b]
	ref := r.o.Start.Placement()
	if n := len(r.lpos); n > 0 {
		ref = r.lpos[n-1].Placement()
	}
	sensed := t.Sensed()
	ev := game.BoardMismatch{Stamp: game.Stamp{At: at}, Board: b, Ply: ply, Late: late, Since: since,
		Squares: sensed.Diff(&ref, nil)}
	pos := r.o.Start
	for i, mv := range r.line {
		ev.Record = append(ev.Record, pos.UCI(mv))
		pos = r.lpos[i]
	}
	for i, mv := range t.line.moves {
		ev.OnBoard = append(ev.OnBoard, t.PositionAt(i).UCI(mv))
	}
	return ev
}
