package board

import (
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Tracker follows one physical board through a game. It is a pure state
// machine: no goroutines, no wall clock; feed it sensor changes, board
// reads, clock readings and ticks in time order, and act on the events it
// returns. A Tracker is not safe for concurrent use; one goroutine owns it.
type Tracker struct {
	opts TrackerOptions
	geo  rules.Geometry

	// hist[0] is the start position; hist[i] the position after ply i.
	// Plies 1…done are completed (the record); done+1…len(hist)-1 are made
	// but not completed.
	hist   []*node
	moves  []rules.Move
	madeAt []time.Time
	illeg  []bool // illeg[i]: ply i+1 was an illegal move that stood
	done   int
	over   bool // a result gesture ended the game; wait for a set-up

	raw        rules.Placement // as sensed, in the board's own frame
	sensed     rules.Placement // raw seen in the game's frame (rotation applied)
	rotated    bool
	lastChange time.Time
	dirty      bool // changes since the last evaluation

	// unexplained placement: since when, reported or not.
	unexplained   bool
	unexplSince   time.Time
	unexplReport  bool
	stableSince   time.Time // the settled placement has not changed since
	displacedSent bool

	turn turnLog

	illegal *pendingIllegal
	presses []pendingPress // lever presses not judged yet, oldest first
	// chain: positions the board showed for a moment since the last
	// judgement, each one legal move after the one before (starting at the
	// record's last position): the trail of a burst of fast moves.
	chain      []*node
	chainMoves []rules.Move
	// unpressed: the last ply completed without a press (0: none); a late
	// press by its mover belongs to it and is no ClockWithoutMove.
	unpressed int

	clock     *game.ClockReading
	clockLeft rules.Color // colour on the clock's left display (NoColor: not known yet)
	chg       [1]game.SquareChange
	lastRun   rules.Color
	scratch   []rules.Move
	diffBuf   []rules.Square
	changed   [rules.MaxSquares]bool // squares that differ, during a search
	maxDepth  int
	// root: the placement a search starts from; catchUp: the search
	// explains a full read after the board was not heard (deeper
	// sequences, pieces coming back to their squares).
	root    *rules.Placement
	catchUp bool
	// afterDump: a full read after a reconnect is not explained yet (the
	// port may come back while a hand is still moving): the next settled
	// placements are searched as catch-up too, until one is explained.
	afterDump bool
	// clockLost: the clock is not heard, made moves complete as without
	// one (clocklost.go); clockBack: it is heard again and the next
	// running reading is the new reference.
	clockLost, clockBack bool
	readSinceBack        bool // a running reading arrived since ClockBack
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

// pendingPress is a lever press not judged yet (the scan may lag).
type pendingPress struct {
	at    time.Time
	side  rules.Color
	clock game.ClockReading
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
	t := &Tracker{opts: opts, geo: opts.Start.Geometry(), rotated: opts.Rotated, lastRun: rules.NoColor, clockLeft: rules.NoColor}
	t.reset(opts.Start)
	t.raw = t.hist[0].place
	if t.rotated {
		t.raw = rotate(t.raw)
	}
	t.sensed = t.hist[0].place
	t.maxDepth = opts.MaxDepth
	return t, nil
}

// reset starts a new record at pos.
func (t *Tracker) reset(pos rules.Position) {
	t.hist = append(t.hist[:0], newNode(pos))
	t.clearChain()
	t.moves = t.moves[:0]
	t.madeAt = t.madeAt[:0]
	t.illeg = t.illeg[:0]
	t.done = 0
	t.over = false
	t.illegal = nil
	t.presses = t.presses[:0]
	t.unexplained = false
	t.unexplReport = false
	t.displacedSent = false
	t.afterDump = false
	t.turn.reset(pos.Turn())
}

// Position returns the position after the last made move (completed or
// not).
func (t *Tracker) Position() rules.Position { return t.top().pos }

// Ply returns the number of plies made (completed or not).
func (t *Tracker) Ply() int { return len(t.hist) - 1 }

// Completed returns the number of plies in the record (completed).
func (t *Tracker) Completed() int { return t.done }

// Moves returns a copy of the moves made, completed or not.
func (t *Tracker) Moves() []rules.Move { return append([]rules.Move(nil), t.moves...) }

// PositionAt returns the position after ply (0: the start), or nil.
func (t *Tracker) PositionAt(ply int) rules.Position {
	if ply < 0 || ply >= len(t.hist) {
		return nil
	}
	return t.hist[ply].pos
}

// Sensed returns the placement the board shows, in the game's frame.
func (t *Tracker) Sensed() rules.Placement { return t.sensed }

// Rotated reports whether the board is read turned around.
func (t *Tracker) Rotated() bool { return t.rotated }

// Over reports whether a result gesture ended the game.
func (t *Tracker) Over() bool { return t.over }

func (t *Tracker) top() *node { return t.hist[len(t.hist)-1] }

// Squares feeds sensed square changes at time at (squares in the board's
// own frame; the tracker applies the rotation). It returns the events
// they cause, including those of windows that expired before at.
func (t *Tracker) Squares(at time.Time, changes []game.SquareChange) []game.Event {
	evs := t.advance(at, nil)
	for _, c := range changes {
		if !t.geo.Contains(c.Square) || t.raw.Sq[c.Square] == c.Piece {
			continue
		}
		t.raw.Sq[c.Square] = c.Piece
		sq := t.frame(c.Square)
		old := t.sensed.Sq[sq]
		t.sensed.Sq[sq] = c.Piece
		evs = t.touch(at, sq, old, c.Piece, evs)
		t.lastChange = at
		t.dirty = true
	}
	if t.dirty && !t.over {
		t.follow()
	}
	return evs
}

// Dump feeds a full board read (after connecting or reconnecting, or on
// request), in the board's own frame. It is judged at once; moves made
// while the board was not heard are caught up when a short legal sequence
// (Options.CatchUpDepth plies) explains them.
func (t *Tracker) Dump(at time.Time, p rules.Placement) []game.Event {
	evs := t.advance(at, nil)
	p.Geo = t.geo
	if p != t.raw {
		t.raw = p
		t.sensed = t.raw
		if t.rotated {
			t.sensed = rotate(t.raw)
		}
		t.lastChange = at
	}
	t.dirty = true
	t.afterDump = true
	evs = t.evaluate(at, t.opts.CatchUpDepth, evs)
	return t.afterCatchUp(at, evs)
}

// Finish ends the input (the end of a recording, or the game was stopped
// at the board): the board is judged at once, as after a full read, and
// moves made but not completed are completed, as a move that ends the game
// is (FIDE 2018 6.2.1.1). The tracker can be fed again afterwards.
func (t *Tracker) Finish(at time.Time) []game.Event {
	evs := t.advance(at, nil)
	if t.dirty {
		evs = t.evaluate(at, t.opts.MaxDepth, evs)
	}
	for len(t.presses) > 0 {
		n := len(t.presses)
		evs = t.judgePress(at, true, evs)
		if len(t.presses) == n {
			break
		}
	}
	return t.completeUpTo(at, len(t.moves), t.clock, evs)
}

// Tick lets time pass: settle windows, holds, press graces and stable
// windows that expire by at produce their events.
func (t *Tracker) Tick(at time.Time) []game.Event { return t.advance(at, nil) }

// frame maps a raw square to the game's frame.
func (t *Tracker) frame(s rules.Square) rules.Square {
	if t.rotated {
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
	if t.dirty && !at.Before(t.lastChange.Add(t.opts.Settle)) {
		evs = t.evaluate(t.lastChange.Add(t.opts.Settle), t.maxDepth, evs)
	}
	if t.dirty {
		return evs // the hand is still busy
	}
	for len(t.presses) > 0 && !at.Before(t.presses[0].at.Add(t.opts.PressGrace)) {
		n := len(t.presses)
		evs = t.judgePress(at, false, evs)
		if len(t.presses) == n {
			break // pieces in the air: wait
		}
	}
	if t.unexplained && !t.unexplReport && !t.over && !at.Before(t.unexplSince.Add(t.opts.HoldAfter)) {
		t.unexplReport = true
		evs = append(evs, game.Unexplained{
			Stamp:     game.Stamp{At: t.unexplSince.Add(t.opts.HoldAfter)},
			Since:     t.unexplSince,
			Squares:   t.sensed.Diff(&t.top().place, nil),
			Placement: t.sensed,
		})
	}
	if il := t.illegal; il != nil && !il.reported && !il.completed && !at.Before(il.ev.At.Add(t.opts.HoldAfter)) {
		il.reported = true
		ev := il.ev
		evs = append(evs, ev)
	}
	if t.completion() == StableWindow && t.done < len(t.moves) && !at.Before(t.stableSince.Add(t.opts.CompleteAfter)) {
		evs = t.completeUpTo(t.stableSince.Add(t.opts.CompleteAfter), len(t.moves), nil, evs)
	}
	return evs
}
