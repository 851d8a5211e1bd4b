package board

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// clockState is the game's clock as the tracker hears it.
type clockState struct {
	phase clockPhase         // how the clock is heard (clocklost.go)
	last  *game.ClockReading // the last reading (nil: none yet)
	left  rules.Color        // the colour on the left display (NoColor: not known yet)
	// lastRun: the running side of the last running reading, from which a
	// press is read (NoColor: none since the clock was last heard anew).
	lastRun rules.Color
	// readFirst: a full read came before the first running reading (the
	// daemon started, or the board connected, behind the board).
	readFirst bool
	// sides: a polled board's sides guessed from a face, waiting for
	// the board's answers to confirm them (sidesAnswered).
	sides *sidesGuess
	// fresh: lastRun comes from the first running reading since the
	// clock was heard anew, which reads no press (the reference), and no
	// press was read since: that reading may already show a press whose
	// record comes after it (leverPress).
	fresh bool
	// withheld: a polled board's faces were not passed on while its
	// sides were not known (clockReading): the next reading passed on
	// says so (ClockChanged.Resync).
	withheld bool
	// pressed: a polled board's last press record while its sides are
	// not known; timed: the sides its records' times point to
	// (sidesFromPress).
	pressed pressShown
	timed   sidesTimed
	// bits: the display each side's press records name, once learnt
	// (recordPresser; NoDisplay: not yet), indexed by colour.
	bits [2]game.Display
}

// Clock feeds a clock reading. Every changed reading is passed on as
// [game.ClockChanged]. A lever press is read from the running side changing
// from one side to the other (a pause in between does not hide it); under
// [ClockPress] completion it completes the presser's made move, or is
// judged after [TrackerOptions.PressGrace] (the board's scan may lag the lever):
// a completed illegal move, a press without a move ([game.ClockWithoutMove]),
// or a press with pieces out of place ([game.DisplacedPieces]).
func (t *Tracker) Clock(at time.Time, r game.ClockReading) []game.Event {
	evs := t.beforeInput(at)
	return t.clock(at, r, evs)
}

// clock takes reading r in (Clock).
func (t *Tracker) clock(at time.Time, r game.ClockReading, evs []game.Event) []game.Event {
	if t.clk.last == nil || *t.clk.last != r || t.clk.withheld {
		evs = append(evs, game.ClockChanged{Stamp: game.Stamp{At: at}, Clock: r, Resync: t.clk.withheld})
		t.clk.withheld = false
	}
	rc := r
	t.clk.last = &rc
	if r.Running == rules.NoColor {
		return evs
	}
	if t.clk.phase == clockReturning {
		return t.clockReturned(at, r, evs)
	}
	if t.clk.lastRun == rules.NoColor && t.clk.phase == clockHeard && t.clk.readFirst && t.line.done < len(t.line.moves) {
		// The first running reading after a full read (the daemon started
		// or the board reconnected with the clock heard): moves caught up
		// are completed when the side to move's clock runs, as when the
		// clock comes back.
		evs = t.afterCatchUp(at, evs)
		t.clk.lastRun = r.Running
		return evs
	}
	pressed := t.clk.lastRun != rules.NoColor && r.Running != t.clk.lastRun
	side := t.clk.lastRun
	if mover := t.line.node(t.line.done).pos.Turn(); t.opts.Polled && t.clk.lastRun == rules.NoColor && t.clk.phase == clockHeard && r.Running == mover.Other() && t.clk.left != rules.NoColor {
		// A polled board's clock read seldom: its first running reading
		// may come after the side to move pressed (the clock's sides
		// known).
		pressed, side = true, mover
	}
	t.clk.fresh = t.clk.fresh && !pressed || t.clk.lastRun == rules.NoColor && !pressed
	t.clk.lastRun = r.Running
	if !pressed || !t.isPress(side) {
		return evs
	}
	if t.opts.Polled {
		t.lever.heard = append(t.lever.heard, heardFrom(at, r))
	}
	t.lever.presses = append(t.lever.presses, pendingPress{at: at, side: side, clock: r, due: t.scanned(at), burst: t.burst || t.chunk})
	t.pressedHeld()
	return evs
}

// isPress reports whether a press by side, read now, is one to judge.
func (t *Tracker) isPress(side rules.Color) bool {
	if len(t.line.hist) == 1 && len(t.lever.presses) == 0 && side != t.line.top().pos.Turn() && t.board.sensed == t.line.top().place {
		// Before the first move, with the start position on the board
		// and nothing pending, the first mover's opponent starting the
		// first mover's clock is the start of the game, not a press
		// without a move: the clock may still show the previous game's
		// running side after a set-up.
		return false
	}
	return t.completion() == ClockPress && t.state.phase != ended
}

// leverPress feeds a polled board's record of a lever press, reported in
// its answer at at among the square changes it saw before and after the
// press. The presser is the side whose clock ran (the record's display
// is not relied on: which display its bit names is uncertain); the press
// is judged once the answer has been fed whole (Tick at at, or any later
// input). A record of a press a clock reading already showed (the reading
// came first) makes that press judged on this answer instead.
func (t *Tracker) leverPress(at time.Time, lp game.LeverPress) []game.Event {
	evs := t.advance(at, nil)
	// A reading shows a press before its record only when the record comes
	// in the board's next answer: older readings' presses had none. The
	// next answer may come late (a line slowed down or stalled): a reading
	// that showed the presser's time this record holds was of this press,
	// however long ago. (Credited by the turn instead, the record was read
	// as the other player's press without a move.)
	keep := t.lever.heard[:0]
	for _, h := range t.lever.heard {
		if !h.at.Before(at.Add(-2*t.scanPeriod())) || lp.Time > 0 && h.halted > 0 && nearSecond(lp.Time, h.halted) {
			keep = append(keep, h)
		}
	}
	t.lever.heard = keep
	if len(t.lever.heard) > 0 {
		t.lever.heard = t.lever.heard[1:]
		for i := range t.lever.presses {
			if p := &t.lever.presses[i]; !p.stage.recorded() {
				p.to(pressTentative)
				p.due, p.answer, p.touches = at, at, len(t.turn.touches)
				break
			}
		}
		return evs
	}
	side := t.clk.lastRun
	if side == rules.NoColor || t.clk.fresh {
		// No running reading since the clock was (re)heard (the game's
		// first moves before the clock's sides are known, a board read
		// as a log after a stall, a clock read seldom), or only the
		// reference reading, which may show this press already or not:
		// the presser is the one whose press is due (duePresser).
		// Dropped, the press would leave its move uncompleted until a
		// reading showed it, and the game's last move, with no press
		// after it, for good; taken for the reference's running side's,
		// it would turn every later press round. (Which display the
		// record's bit names is uncertain: only that all of a player's
		// records name the same one is relied on, recordPresser.)
		if side = t.duePresser(lp); side == rules.NoColor {
			return evs
		}
	}
	if t.opts.Polled && t.clk.left == rules.NoColor {
		side = t.recordPresser(side, lp.Display)
		t.clk.pressed.side, t.clk.pressed.times[side&1] = side, lp.Time
	}
	t.clk.fresh, t.clk.sides = false, nil
	t.clk.lastRun = side.Other()
	if !t.isPress(side) {
		return evs
	}
	if t.opts.Polled {
		evs = t.replyPressed(at, side, evs)
	}
	var r game.ClockReading
	if t.clk.last != nil {
		r = *t.clk.last
	}
	r.Running = side.Other()
	if lp.Time > 0 {
		if side == rules.White {
			r.White = lp.Time
		} else {
			r.Black = lp.Time
		}
	}
	t.lever.presses = append(t.lever.presses, pendingPress{at: at, side: side, clock: r, unread: t.clk.last == nil, due: at, stage: pressTentative, answer: at, touches: len(t.turn.touches)})
	t.pressedHeld()
	return evs
}

// duePresser returns the side whose press a polled board's press record
// is when no running reading tells it: the last mover's when his ply was
// completed without it (LastUnpressed), else the record's side to move, the
// turn passing with each press waiting to be judged (presses alternate,
// each completing its mover's move). Before the game's first move, with
// the start position on the board and nothing pending, the first mover's
// (the lever often beats the scan of the move), unless the record shows a
// time the clock was read stopped at before: that may be the first
// mover's opponent starting the clock (isPress), and it is none. (Taken
// for none, the first mover's record turned every later one round: each
// press credited to the wrong side, the game's last one completing
// nothing.)
func (t *Tracker) duePresser(lp game.LeverPress) rules.Color {
	if len(t.line.hist) == 1 && len(t.lever.presses) == 0 && t.board.sensed == t.line.top().place {
		if r := t.clk.last; r != nil && r.Running == rules.NoColor && (nearSecond(lp.Time, r.White) || nearSecond(lp.Time, r.Black)) {
			return rules.NoColor
		}
		return t.line.top().pos.Turn()
	}
	if len(t.lever.presses) == 0 && t.lever.unpressed > 0 && t.lever.unpressed == t.line.done {
		return t.line.node(t.line.done - 1).pos.Turn() // the press owed to the last ply
	}
	side := t.line.node(t.line.done).pos.Turn()
	if len(t.lever.presses)%2 == 1 {
		side = side.Other()
	}
	return side
}

// tryPress judges the pending presses whose scan has reported the board
// by at, oldest first, while the board answers them: the presser has a
// made move. A press is never judged earlier: the lever often beats the
// scan, and the board may not show the whole move yet (a slide's last
// square, a captured piece's removal). An illegal move of the presser's
// standing on the board is completed only once the press's grace has
// passed (judgePress): an en passant capture whose captured pawn the scan
// has not reported yet looks like an illegal pawn move for a moment.
func (t *Tracker) tryPress(at time.Time, evs []game.Event) []game.Event {
	for len(t.lever.presses) > 0 {
		p := t.lever.presses[0]
		if !t.reached(&p, at) {
			return evs
		}
		switch {
		case t.line.firstPlyBy(p.side) > 0:
			t.lever.unpressed = 0
			ply := t.line.firstPlyBy(p.side)
			evs = t.completeUpTo(p.at, ply, p.reading(), evs)
			t.line.pressed[ply-1] = true
		case t.lever.unpressed > 0 && t.lever.unpressed <= t.line.done && t.line.node(t.lever.unpressed-1).pos.Turn() == p.side:
			// The press that goes with a move already completed without it
			// (a move that ended the game, or the player's next move came
			// first).
			t.lever.unpressed = 0
		default:
			return evs
		}
		t.lever.presses = t.lever.presses[1:]
	}
	return evs
}

// LastUnpressed says that the record's last ply was completed without its
// mover's press (rebuilt from a board's log that ends before the press): a
// press of his read next belongs to it and is no press without a move.
func (t *Tracker) LastUnpressed() {
	if t.line.done > 0 {
		t.lever.unpressed = t.line.done
	}
}

// reading returns the clock reading a press completes its move with (nil:
// none was heard).
func (p *pendingPress) reading() *game.ClockReading {
	if p.unread {
		return nil
	}
	return &p.clock
}

// judgePress decides the oldest pending press once its grace has passed
// (force: at the end of the input, whatever the board shows).
func (t *Tracker) judgePress(at time.Time, force bool, evs []game.Event) []game.Event {
	n := len(t.lever.presses)
	switch {
	case force:
		t.lever.presses[0].due = at
	case t.lever.presses[0].due == lookLater:
		// The grace has passed: no later look is waited for any more.
		t.lever.presses[0].due = t.fedTo
	}
	evs = t.tryPress(at, evs)
	if len(t.lever.presses) < n || len(t.lever.presses) == 0 {
		return evs
	}
	if !force && t.inAir(at) {
		return evs // pieces in the air: judge once the board is explained or held
	}
	if q := &t.lever.presses[0]; !force && q.at.Equal(t.revived) && at.Before(q.due.Add(t.pressGrace())) {
		return evs // made pending again by a burst (reviveSilent): its grace runs from there
	}
	p := t.lever.presses[0]
	t.lever.presses = t.lever.presses[1:]
	if il := t.illegal; il != nil && t.board.sensed == il.place {
		return t.completeIllegal(&p, evs)
	}
	if t.board.sensed == t.line.top().place {
		if p.at.Equal(t.revived) {
			return evs // said once already
		}
		t.keepSilent(p)
		return append(evs, game.ClockWithoutMove{Stamp: game.Stamp{At: p.at}, Side: p.side, Clock: p.clock})
	}
	if t.state.displaced {
		return evs
	}
	t.state.displaced = true
	return append(evs, game.DisplacedPieces{Stamp: game.Stamp{At: p.at}, Squares: t.board.sensed.Diff(&t.line.top().place, nil)})
}

// completeIllegal reports the illegal move standing on the board as
// completed by press p (FIDE 2018 7.5.1).
func (t *Tracker) completeIllegal(p *pendingPress, evs []game.Event) []game.Event {
	il := t.illegal
	if il.completed {
		return evs
	}
	il.completed = true
	il.clock = p.reading()
	ev := il.ev
	ev.Stamp = game.Stamp{At: p.at}
	ev.Completed = true
	ev.Evidence = append([]game.Touch(nil), t.turn.touches...)
	return append(evs, ev)
}

// pressScanned looks at the board once the scan that followed the oldest
// pending press has reported every square (at, its due time): the
// presser's hand was done before the press, so what the board shows of
// his move is final. When nothing was reported since the press, the board
// is judged as a settled one. Otherwise the opponent may already be
// moving (a fast reply): the presser's move is made, and completed by the
// press, only when exactly one of his legal moves shows on the board with
// nothing else changed but by the opponent's hand; else the board is
// judged when it settles, as any.
func (t *Tracker) pressScanned(at time.Time, fit bool, evs []game.Event) []game.Event {
	p := &t.lever.presses[0]
	p.to(p.stage.lookedAt())
	// A polled board's answer is whole: when it is the press's own, or the
	// presser's move was made already (a later answer may replace it: a
	// slide's resting square), the board is judged.
	if fit || !t.board.lastChange.After(p.at) || p.stage.recorded() && (!t.board.lastChange.After(p.answer) || t.line.firstPlyBy(p.side) > 0) {
		evs = t.evaluate(at, t.opts.MaxDepth, evs)
		if len(t.lever.presses) == 0 || t.lever.presses[0].at != p.at {
			return evs // answered
		}
		p = &t.lever.presses[0]
	}
	if t.state.phase == ended {
		return evs
	}
	if ply := t.line.firstPlyBy(p.side); ply > 0 {
		return t.restReplaced(at, p, ply, evs)
	}
	top := t.line.top()
	if top.pos.Turn() != p.side || t.putBeforeLift(p.side) {
		return evs
	}
	if (t.opts.Polled || p.burst) && len(t.lever.presses) > 1 {
		// The opponent's reply is complete too (a polled answer, or a
		// burst, holds both presses): the search says.
		return evs
	}
	top.expand(&t.srch.scratch)
	found := -1
	for i := range top.kids {
		if kp := top.kidPlace(i); shownWithReply(&t.board.sensed, &top.place, &kp, top.kids[i].m.To, p.side, t.landed(top.kids[i].m.To, &kp, p.at) || t.liftedAfterPress(&top.place, top.kids[i].m, &kp, p.at)) {
			if found >= 0 {
				return evs // two moves fit: wait for the board to settle
			}
			found = i
		}
	}
	if found < 0 {
		return evs
	}
	c := top.child(found)
	if c == nil {
		return evs
	}
	evs = t.resolved(at, evs)
	evs = t.appendMoves(at, len(t.line.hist)-1, path{moves: []rules.Move{top.kids[found].m}, nodes: []*node{c}}, false, false, evs)
	evs = t.tryPress(at, evs)
	if t.board.sensed != t.line.top().place {
		evs = t.unexplain(at, evs) // the opponent's hand, at work
	}
	return evs
}

// shownWithReply reports whether placement p shows the move that turned
// before into after (made by mover, to square to), with nothing else
// changed but by the opponent's hand: no piece of the mover's appeared
// elsewhere, and the moved piece may already be gone from to (the
// opponent taking it: his capture, begun with the captured piece, can
// come before any scan saw it land) as long as to shows a change, or the
// board reported the piece put down on to this turn (landed: a move to an
// empty square, taken at once).
func shownWithReply(p, before, after *rules.Placement, to rules.Square, mover rules.Color, landed bool) bool {
	n := p.Geo.Size()
	for i := 0; i < n; i++ {
		switch {
		case p.Sq[i] == after.Sq[i]:
		case after.Sq[i] != before.Sq[i]:
			taken := rules.Square(i) == to && (p.Sq[i] != before.Sq[i] || landed) && (p.Sq[i].IsEmpty() || p.Sq[i].Color != mover)
			if !taken {
				return false // a square of the move does not show it
			}
		case !p.Sq[i].IsEmpty() && p.Sq[i].Color == mover:
			return false // a piece of the mover where the move puts none
		}
	}
	return true
}

// maxAnswered bounds the presses one polled answer may answer together
// (the plies the search follows from one placement: TrackerOptions
// MaxDepth at most): the search grows with the power of it, and an answer
// holding a dozen presses (a line not polled for half a minute) never
// returned.
const maxAnswered = 4

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// landed reports whether the board reported the piece that after shows
// on square sq put down there since the press at time pressed: the
// mover's hand was done by then (the lever beat the scan), so that is
// where the piece ended, whatever took it after. (Seen there before the
// press, it may have been a slide's resting square.) A report since the
// press of the piece lifted off sq while the opponent's piece now stands
// there is the same evidence: the opponent captured it there, before the
// scan saw it at rest (the mover lifting it off a slide's resting square
// leaves the square empty). On a board that reports at once
// (TrackerOptions.Immediate), so is the piece put down on sq before the
// press and lifted off it only after: it stood there when the mover
// pressed, done, and the hand that lifted it is the opponent's, taking it
// (the board seen in the middle of the recapture, the capturer still in
// the air). A scanning board may report the mover's own lift, made before
// the press, after it (a slide's resting square).
func (t *Tracker) landed(sq rules.Square, after *rules.Placement, pressed time.Time) bool {
	if !t.geo.Contains(sq) {
		return false
	}
	now := t.board.sensed.Sq[sq]
	taken := !now.IsEmpty() && now.Color != after.Sq[sq].Color
	stood := false // the piece stood on sq at the press
	for _, tc := range t.turn.touches {
		if tc.Square != sq {
			continue
		}
		if tc.At.Before(pressed) {
			stood = !tc.Lift && tc.Piece == after.Sq[sq]
			continue
		}
		if tc.Piece == after.Sq[sq] && (!tc.Lift || taken || stood && t.opts.Immediate) {
			return true
		}
	}
	return false
}
