package board

import (
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Tracker follows one physical board through a game. It is a pure state
// machine: no goroutines, no wall clock; feed it sensor reports, clock
// readings and ticks in time order, and act on the events it returns. A
// Tracker is not safe for concurrent use; one goroutine owns it.
type Tracker struct {
	opts TrackerOptions
	geo  rules.Geometry

	line  line       // the game: start, moves made, how many completed (line.go)
	board sensors    // what the board shows
	state boardState // what the tracker makes of it: its phase (phase.go)
	clk   clockState // the clock and how it is heard (clock.go, clocklost.go)
	lever lever      // lever presses not judged yet (clock.go)
	turn  turnLog    // what the hands did this turn (touch.go)
	trail trail      // positions shown for a moment since the last judgement (search.go)
	// illegal: an illegal move standing on the board (illegal.go).
	illegal *pendingIllegal
	// stableSince: the settled placement has not changed since.
	stableSince time.Time
	srch        searcher  // scratch of the searches (search.go)
	heal        healer    // scratch of the rereading search (heal.go)
	dumps       dumpsOnly // a board read only by whole-board reads (dumps.go)
	scan        scanClock // the board's scan period, learnt (scan.go)
	chg         [1]game.SquareChange
	now         time.Time // the latest time fed
	// fedTo: every input up to this time has been fed (a Tick, or any
	// input after it): a polled board's answer is then whole.
	fedTo time.Time
	// burst: input came after windows had fallen due with no Tick (a
	// queue handed over at once): windows wait for the next Tick
	// (beforeInput).
	burst  bool
	ticked bool // Tick has been called: the wiring ticks
	// lastTick is the time of the last Tick.
	lastTick time.Time
	// lastInput, chunk: the time of the last input, and whether it came
	// queued with the one before (beforeInput).
	lastInput time.Time
	chunk     bool
	// silent: the last press judged without a move while the board had
	// reported nothing since it, kept until the board reports again: a
	// burst then may hold its move (late.go).
	silent *silentPress
	// revived: the time of the press reviveSilent made pending again (a
	// second judgement without a move is not reported twice).
	revived time.Time
	// liftable: squares whose lift is a move to judge (team-drop,
	// SetLiftable in teamdrop.go).
	liftable []rules.Square
}

// sensors is what the board shows.
type sensors struct {
	raw        rules.Placement // as sensed, in the board's own frame
	sensed     rules.Placement // raw seen in the game's frame (rotation applied)
	rotated    bool            // the board is read turned around
	lastChange time.Time
	dirty      bool // changed since the last judgement: the hand may be busy
	// asked is, on a polled board, when the poll of its last answer was
	// sent ([Tracker.Answered]).
	asked time.Time
}

// pendingIllegal is an illegal move standing on the board.
type pendingIllegal struct {
	ev        game.IllegalMove
	place     rules.Placement
	pos       rules.Position // nil when the attempt is no playable move
	completed bool
	reported  bool // the made (not completed) attempt was reported
	clock     *game.ClockReading
}

// New returns a tracker for a game starting at opts.Start.
func New(opts TrackerOptions) (*Tracker, error) {
	if opts.Start == nil {
		return nil, ErrNoStart
	}
	if opts.Completion > StableWindow {
		return nil, fmt.Errorf("%w: completion %d", ErrBadOption, opts.Completion)
	}
	opts = opts.withDefaults()
	t := &Tracker{opts: opts, geo: opts.Start.Geometry()}
	t.board.rotated = opts.Rotated
	t.clk = clockState{lastRun: rules.NoColor, left: rules.NoColor, pressed: pressShown{side: rules.NoColor}}
	t.reset(opts.Start)
	t.board.raw = t.line.node(0).place
	if t.board.rotated {
		t.board.raw = rotate(t.board.raw)
	}
	t.board.sensed = t.line.node(0).place
	return t, nil
}

// reset starts a new record at pos.
func (t *Tracker) reset(pos rules.Position) {
	t.line.reset(pos)
	t.trail.clear()
	t.restart()
	t.illegal = nil
	t.lever.presses = t.lever.presses[:0]
	t.turn.reset(pos.Turn())
}

// Position returns the position after the last made move (completed or
// not).
func (t *Tracker) Position() rules.Position { return t.line.top().pos }

// Ply returns the number of plies made (completed or not).
func (t *Tracker) Ply() int { return len(t.line.hist) - 1 }

// Completed returns the number of plies in the record (completed).
func (t *Tracker) Completed() int { return t.line.done }

// PositionAt returns the position after ply (0: the start), or nil.
func (t *Tracker) PositionAt(ply int) rules.Position {
	if ply < 0 || ply >= len(t.line.hist) {
		return nil
	}
	return t.line.node(ply).pos
}

// Sensed returns the placement the board shows, in the game's frame.
func (t *Tracker) Sensed() rules.Placement { return t.board.sensed }

// Rotated reports whether the board is read turned around.
func (t *Tracker) Rotated() bool { return t.board.rotated }

// Over reports whether a result signalled on the board ended the game.
func (t *Tracker) Over() bool { return t.state.phase == ended }

// Squares feeds sensed square changes at time at (squares in the board's
// own frame; the tracker applies the rotation). It returns the events
// they cause, including those of windows that expired before at.
func (t *Tracker) Squares(at time.Time, changes []game.SquareChange) []game.Event {
	evs := t.beforeInput(at)
	for _, c := range changes {
		if !t.geo.Contains(c.Square) || t.board.raw.Sq[c.Square] == c.Piece {
			continue
		}
		t.board.raw.Sq[c.Square] = c.Piece
		t.scan.report(c.Square, at)
		sq := t.frame(c.Square)
		old := t.board.sensed.Sq[sq]
		t.board.sensed.Sq[sq] = c.Piece
		evs = t.touch(at, sq, old, c.Piece, evs)
		t.board.lastChange = at
		t.board.dirty = true
		if p := t.firstPress(); p != nil && p.stage.recorded() && !p.stage.tentative() && p.due != lookLater {
			// A later answer of a polled board: the press is judged on it
			// anew (the lever beat the scan). Not while it waits for the
			// later look (lookLater): a change the board reports before
			// its scan that followed the press has reached every square
			// may be a slide's rest left (the piece lifted from it),
			// shown before the square it ended on.
			p.due = at
			p.to(p.stage.unlooked())
		}
	}
	if t.board.dirty && t.state.phase != ended {
		t.follow()
	}
	return evs
}

// burstLate: an input that comes more than this after the wiring's
// last Tick comes from a wiring that stalled (a descheduled daemon): more
// than a wiring's tick (the hall ticks every 50 ms), and a little jitter.
// A window that fell due since the last Tick, before an input that comes
// sooner, fell between two ticks: the reader was not stalled, and the
// window is processed at its time, on the board as it stood then (taken
// for a burst, a blitz press stayed unjudged while the hands went on, and
// the plies of an exchange were read as a shorter line). On a polled
// board (no tick between an answer's reports) every late window counts.
const burstLate = 60 * time.Millisecond

// queued: reports closer together than this were queued together (a
// DGT field update takes 3 ms on the wire at 9600 baud).
const queued = time.Millisecond

// beforeInput lets time pass up to an input at time at, as advance, and
// returns the events. When the hand was busy (the board changed since it
// was last judged, or a press waits) and a window fell due since the last
// input with no Tick to process it, while the wiring has not ticked for
// more than burstLate, the input may have waited in a queue with others
// (a stalled reader hands over a burst, every message stamped with the
// time it was read; only with a wiring that ticks: one that feeds input
// alone leaves the windows to the inputs): nothing is judged on what the
// board showed before it, since what the hand did next may be in the
// burst. The inputs
// go in as they come, and the windows are processed at the next Tick
// (the wiring hands over what was queued before it ticks).
func (t *Tracker) beforeInput(at time.Time) []game.Event {
	// Two reports less than a message's time on the wire apart were
	// queued together: the presses pending are judged as in a burst.
	t.chunk = !t.lastInput.IsZero() && at.Sub(t.lastInput) < queued
	prev := t.lastInput
	t.lastInput = at
	if t.chunk {
		for i := range t.lever.presses {
			t.lever.presses[i].burst = true
		}
		t.reviveSilent(prev, at)
	}
	if !t.burst && t.ticked {
		stalled := t.opts.Polled || at.Sub(t.lastTick) > burstLate
		if d, ok := t.NextDeadline(); ok && stalled && d.Before(at) && (t.board.dirty || len(t.lever.presses) > 0) {
			t.burst = true
			for i := range t.lever.presses {
				t.lever.presses[i].burst = true
			}
		}
	}
	if t.burst {
		t.now = maxTime(t.now, at)
		return nil
	}
	return t.advance(at, nil)
}

// Finish ends the input (the end of a recording, or the game was stopped
// at the board): the board is judged at once, as after a full read, and
// moves made but not completed are completed, as a move that ends the game
// is (FIDE 2018 6.2.1.1). The tracker can be fed again afterwards.
func (t *Tracker) Finish(at time.Time) []game.Event {
	t.fedTo = maxTime(t.fedTo, at)
	t.burst = false
	evs := t.advance(at, nil)
	if t.board.dirty {
		evs = t.evaluate(at, t.opts.MaxDepth, evs)
	}
	for len(t.lever.presses) > 0 {
		n := len(t.lever.presses)
		evs = t.judgePress(at, true, evs)
		if len(t.lever.presses) == n {
			break
		}
	}
	return t.completeUpTo(at, len(t.line.moves), t.clk.last, evs)
}

// Tick lets time pass: settle windows, holds, press graces and stable
// windows that expire by at produce their events.
func (t *Tracker) Tick(at time.Time) []game.Event {
	t.fedTo = maxTime(t.fedTo, at)
	t.burst, t.ticked = false, true
	t.lastTick = maxTime(t.lastTick, at)
	return t.advance(at, nil)
}

// NextDeadline returns the earliest time after the last input at which
// [Tracker.Tick] may change something (a settle window, a press's scan, a
// grace, a hold, a stable window), so that the wiring can tick the
// tracker then rather than on a fixed beat; ok is false when no window is
// open.
func (t *Tracker) NextDeadline() (at time.Time, ok bool) {
	if t.burst {
		return t.now, true // the windows that fell due during a burst
	}
	add := func(d time.Time) {
		if d.After(t.now) && (!ok || d.Before(at)) {
			at, ok = d, true
		}
	}
	if t.board.dirty {
		add(t.board.lastChange.Add(t.opts.Settle))
	}
	if len(t.lever.presses) > 0 {
		p := t.lever.presses[0]
		if p.stage.recorded() && !t.reached(&p, t.now) && p.due != lookLater {
			at, ok = p.due, true // the answer holding it, once fed whole
		}
		if p.due != lookLater {
			add(p.due)
		}
		add(p.at.Add(t.pressGrace()))
		switch t.state.phase {
		case inHand, unexplained, held:
			add(t.state.since.Add(t.opts.HoldAfter)) // a press waiting on pieces in the air (inAir)
		}
	}
	switch t.state.phase {
	case inHand:
		add(t.state.since.Add(t.opts.HandHold))
	case unexplained:
		add(t.state.since.Add(t.opts.HoldAfter))
	case held:
		if !t.state.lost && !t.state.setup && !t.piecesInHand() {
			add(t.state.since.Add(t.opts.LostAfter))
		}
	}
	if il := t.illegal; il != nil && !il.reported && !il.completed {
		add(il.ev.At.Add(t.opts.HoldAfter))
	}
	if t.completion() == StableWindow && t.line.done < len(t.line.moves) {
		add(t.stableSince.Add(t.opts.CompleteAfter))
	}
	return at, ok
}

// firstPress returns the oldest press not judged yet, or nil.
func (t *Tracker) firstPress() *pendingPress {
	if len(t.lever.presses) == 0 {
		return nil
	}
	return &t.lever.presses[0]
}

// frame maps a raw square to the game's frame.
func (t *Tracker) frame(s rules.Square) rules.Square {
	if t.board.rotated {
		return rules.Square(t.geo.Size()-1) - s
	}
	return s
}

// rotate turns a placement by 180°.
func rotate(p rules.Placement) rules.Placement {
	q := rules.NewPlacement(p.Geo)
	n := p.Geo.Size()
	for i := 0; i < n; i++ {
		q.Sq[n-1-i] = p.Sq[i]
	}
	return q
}

// advance processes the windows that expire by at.
func (t *Tracker) advance(at time.Time, evs []game.Event) []game.Event {
	t.now = maxTime(t.now, at)
	t.fedTo = maxTime(t.fedTo, at.Add(-time.Nanosecond)) // input before at is all in
	if t.opts.Polled {
		t.sidesAnswered(at)
	}
	evs = t.polledAnswer(evs)
	if t.board.dirty && len(t.lever.presses) > 0 {
		if p := &t.lever.presses[0]; !p.stage.looked() && !p.stage.tentative() && t.reached(p, at) {
			evs = t.pressScanned(p.due, false, evs)
		}
	}
	if t.board.dirty && !at.Before(t.board.lastChange.Add(t.opts.Settle)) {
		evs = t.evaluate(t.board.lastChange.Add(t.opts.Settle), t.opts.MaxDepth, evs)
	}
	if t.board.dirty {
		return evs // the hand is still busy
	}
	evs = t.tryPress(at, evs)
	for len(t.lever.presses) > 0 && !t.polledNow(at).Before(t.lever.presses[0].at.Add(t.pressGrace())) {
		n := len(t.lever.presses)
		evs = t.judgePress(at, false, evs)
		if len(t.lever.presses) == n {
			break // pieces in the air: wait
		}
	}
	evs = t.holdAfter(at, evs)
	evs = t.lostAfter(at, evs)
	if il := t.illegal; il != nil && !il.reported && !il.completed && !at.Before(il.ev.At.Add(t.opts.HoldAfter)) {
		if il.notYourTurn() {
			// A piece of the side not having the move that stands: a line
			// from an earlier ply may explain it (heal.go).
			if out, ok := t.healNow(il.ev.At.Add(t.opts.HoldAfter), evs); ok {
				return out
			}
		}
		il.reported = true
		ev := il.ev
		evs = append(evs, ev)
	}
	if t.completion() == StableWindow && t.line.done < len(t.line.moves) && !at.Before(t.stableSince.Add(t.opts.CompleteAfter)) {
		evs = t.completeUpTo(t.stableSince.Add(t.opts.CompleteAfter), len(t.line.moves), nil, evs)
	}
	return evs
}
