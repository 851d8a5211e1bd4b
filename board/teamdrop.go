package board

import (
	"errors"
	"slices"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// The tracker's part of a team-drop board (004 "Cờ đặt"): a piece put on an
// empty square with nothing lifted is a drop, an opponent's piece lifted
// off with nothing put down is a lift (a removal or a confiscation). Legal
// drops and removals are legal moves of the board's position and are found
// by the search like any move; classifyOne names the others as attempts, so
// that the wiring hands them, once completed, to the match that judges them
// (rules/teamdrop). The match owns the pockets: Repocket gives the tracker
// the pockets the partner board's captures changed, and AcceptIllegalAs
// carries on from the position the match made of an attempt.

// classifyOne classifies a change of one square d from the record's
// position (TrackerOptions.Drops): a piece of the side to move that
// appeared on an empty square is a drop attempt, a piece of the opponent
// that disappeared from a square SetLiftable named a lift attempt.
// Anything else is no move (an opponent's piece lifted elsewhere is a hand
// in the middle of a capture, the captured piece taken off first).
func (t *Tracker) classifyOne(at time.Time, top *node, d rules.Square) *pendingIllegal {
	pos := top.pos
	before, now := top.place.Sq[d], t.board.sensed.Sq[d]
	turn := pos.Turn()
	var m rules.Move
	switch {
	case before.IsEmpty() && !now.IsEmpty() && now.Color == turn && now.Kind != rules.King:
		m = rules.Move{From: rules.NoSquare, To: d, Drop: now.Kind}
	case !before.IsEmpty() && now.IsEmpty() && before.Color != turn && before.Kind != rules.King && slices.Contains(t.liftable, d):
		m = rules.Move{From: d, To: rules.NoSquare, Flags: rules.FlagRemove}
	default:
		return nil
	}
	reason := rules.ReasonUnknown
	var ie *rules.IllegalMoveError
	if err := pos.Check(m); errors.As(err, &ie) {
		reason = ie.Reason
	}
	var after rules.Position
	if a, err := pos.PlayIllegal(m); err == nil {
		after = a
	}
	return &pendingIllegal{
		place: t.board.sensed,
		pos:   after,
		ev: game.IllegalMove{
			Stamp: game.Stamp{At: t.board.lastChange}, Ply: len(t.line.hist), Side: turn, Attempt: m,
			Text: attemptText(t.geo, top.place, m), Reason: reason, Position: after,
			Evidence: append([]game.Touch(nil), t.turn.touches...),
		},
	}
}

// Repocket replaces the position after the record's last completed ply by
// pos: the same placement and side to move with other pockets (on a
// team-drop board, the partner board completed a capture, or a correction
// there took pieces back). Moves made but not completed after it are
// played again from pos; from the first that no longer plays on, they are
// retracted (MoveRetracted); so does the trail of fast moves seen since
// the last judgement. Presses waiting, the touch log and the clock are
// kept. A settled board is judged again at once (a drop that waited
// for its piece is now a move); a board still changing is judged when it
// settles.
func (t *Tracker) Repocket(at time.Time, pos rules.Position) ([]game.Event, error) {
	l := &t.line
	if pos == nil {
		return nil, &CommandError{Command: "repocket", Ply: l.done, Err: ErrNoStart}
	}
	cur := l.hist[l.done]
	if pos.Geometry() != t.geo || pos.Placement() != cur.place || pos.Turn() != cur.pos.Turn() {
		return nil, &CommandError{Command: "repocket", Ply: l.done, Err: ErrBadOption}
	}
	l.hist[l.done] = newNode(pos)
	l.pin(l.done)
	var evs []game.Event
	for i := l.done; i < len(l.moves); i++ {
		prev := l.hist[i].pos
		var next rules.Position
		var err error
		if l.illeg[i] {
			next, err = prev.PlayIllegal(l.moves[i])
		} else {
			next, err = prev.Play(l.moves[i])
		}
		if err != nil {
			l.cut(i)
			evs = append(evs, game.MoveRetracted{Stamp: game.Stamp{At: at}, Ply: i, Position: prev})
			break
		}
		l.hist[i+1] = newNode(next)
	}
	// The trail of fast moves followed since the last judgement goes on
	// from the new position, as far as its moves still play.
	moves := append([]rules.Move(nil), t.trail.moves...)
	t.trail.clear()
	tip := l.top()
	for _, m := range moves {
		next, err := tip.pos.Play(m)
		if err != nil {
			break
		}
		tip = newNode(next)
		t.trail.nodes = append(t.trail.nodes, tip)
		t.trail.moves = append(t.trail.moves, m)
	}
	if t.illegal != nil && !t.illegal.completed {
		t.illegal = nil // judged again against the new pockets
	}
	if t.board.dirty || t.state.phase == ended {
		return evs, nil
	}
	return t.rejudge(at, evs), nil
}

// AcceptIllegalAs is AcceptIllegal with the position the attempt made
// given by whoever judges it (a team-drop match: a drop of a piece the
// pocket lacked, a lift that was a confiscation), for attempts the board
// position cannot play by itself.
func (t *Tracker) AcceptIllegalAs(at time.Time, pos rules.Position) ([]game.Event, error) {
	il := t.illegal
	if il == nil || pos == nil {
		return nil, &CommandError{Command: "accept_illegal", Ply: len(t.line.hist), Err: ErrNothingPending}
	}
	il.pos = pos
	il.ev.Position = pos
	return t.AcceptIllegal(at)
}

// SetLiftable names the squares whose opponent's piece, lifted off with
// nothing put down, is a lift to judge (team-drop: the piece that may be
// confiscated, a pawn on the last rank that must be removed); the match
// that knows them says so after each move. A lift anywhere else is read
// as a capture under way.
func (t *Tracker) SetLiftable(squares []rules.Square) {
	t.liftable = append(t.liftable[:0], squares...)
}

// fedTop returns the record's last node with a piece in the pocket of the
// side to move for each kind that its hands put on an empty square this
// turn although the pocket lacks it, or nil when there is none (or the
// position has no pockets to feed). The piece came from the partner board:
// the capture that brings it may not be reported there yet (the board
// reports a move once its scan has seen it), and the opponent may take
// the dropped piece at once. The match, which owns the pockets, judges
// whether the capture came in time (an illegal drop otherwise); the
// search only needs the drop to read what followed it.
func (t *Tracker) fedTop() *node {
	top := t.line.top()
	fed, ok := top.pos.(*chess.Position)
	if !ok {
		return nil
	}
	turn := fed.Turn()
	changed := false
	for _, tc := range t.turn.touches {
		k := tc.Piece.Kind
		if tc.Lift || tc.Piece.Color != turn || k == rules.King || !top.place.Sq[tc.Square].IsEmpty() || fed.Pocket(turn, k) > 0 {
			continue
		}
		fed, changed = fed.WithPocket(turn, k, 1), true
	}
	if !changed {
		return nil
	}
	return newNode(fed)
}

// unseenDrop reports whether a drop of pth (the moves about to be made
// after ply base) put a piece that no scan saw on its square (dropSeen): the piece
// was taken before the board's next scan, and its kind is the search's
// choice among what the known pocket holds, which may lack the piece
// dropped (the partner board's capture that brought it not reported yet,
// or misread there). It returns the other reading to name to the arbiter
// (game.Ambiguous): the same moves with the drop of another kind the
// pocket holds, or, when it holds no other, the same moves (the pocket's
// only kind was assumed).
func (t *Tracker) unseenDrop(base int, pth path) ([]rules.Move, bool) {
	for i, m := range pth.moves {
		if !m.IsDrop() {
			continue
		}
		pc := pth.nodes[i].place.Sq[m.To]
		if t.dropSeen(pth, i) {
			continue
		}
		other := slices.Clone(pth.moves)
		prev := t.line.node(base).pos
		if i > 0 {
			prev = pth.nodes[i-1].pos
		}
		if fed, ok := prev.(*chess.Position); ok {
			for _, k := range []rules.Kind{rules.Queen, rules.Rook, rules.Bishop, rules.Knight, rules.Pawn} {
				if k != m.Drop && fed.Pocket(pc.Color, k) > 0 {
					other[i].Drop = k
					break
				}
			}
		}
		return other, true
	}
	return nil, false
}

// dropSeen reports whether the turn's touches show the piece of drop i of
// pth put on its square. When a later move of pth takes it there, only a
// sighting before that move's piece was lifted counts (the capturer, or
// a pawn retaking, may be the same piece as the one dropped); when that
// lift was not seen, a sighting before the square was first emptied.
func (t *Tracker) dropSeen(pth path, i int) bool {
	m := pth.moves[i]
	pc := pth.nodes[i].place.Sq[m.To]
	var cut time.Time
	for j := i + 1; j < len(pth.moves) && cut.IsZero(); j++ {
		if pth.moves[j].To != m.To {
			continue
		}
		from := pth.moves[j].From
		for _, tc := range t.turn.touches {
			if tc.Lift && (tc.Square == from || tc.Square == m.To) {
				cut = tc.At
				break
			}
		}
		if cut.IsZero() {
			return false
		}
	}
	for _, tc := range t.turn.touches {
		if !tc.Lift && tc.Square == m.To && tc.Piece == pc && (cut.IsZero() || tc.At.Before(cut)) {
			return true
		}
	}
	return false
}

// seenDrops keeps, of the sequences ps, those whose every drop's piece
// the touches show put on its square (dropSeen), when there are any: a
// knight seen dropped and taken at once in a burst is not read as a
// bishop of the pocket because the capturer was never seen at rest.
func (t *Tracker) seenDrops(ps []path) []path {
	var out []path
	for _, p := range ps {
		all := true
		for i, m := range p.moves {
			if m.IsDrop() && !t.dropSeen(p, i) {
				all = false
				break
			}
		}
		if all {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return ps
	}
	return out
}

// fedFallback looks, once, for a line longer than n plies from n to
// target whose lifts fit, with one more piece of every kind in both
// pockets: find fell back on a sole line the hands contradict while the
// presses say more moves were made, and the line that fits may drop a
// piece no scan saw that the known pocket lacks (the partner board's
// capture not reported yet). The match judges whether the piece was
// there; the drop's kind is named to the arbiter (unseenDrop).
func (t *Tracker) fedFallback(n *node, target *rules.Placement, depth, plies int) path {
	pos, ok := n.pos.(*chess.Position)
	if !ok || t.srch.fed {
		return path{}
	}
	for _, c := range []rules.Color{rules.White, rules.Black} {
		for k := rules.Pawn; k <= rules.Queen; k++ {
			pos = pos.WithPocket(c, k, pos.Pocket(c, k)+1)
		}
	}
	t.srch.fed = true
	p, _ := t.find(newNode(pos), target, depth)
	t.srch.fed = false
	if len(p.moves) <= plies || !t.liftOrderFits(p.moves) {
		return path{}
	}
	return p
}
