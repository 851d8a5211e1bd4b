package board

import (
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Defaults of [RelayOptions].
const (
	// DefaultMismatchAfter: a board that differs from the game is reported
	// once it has differed this long (the boards are compared once each relayed move has settled):
	// longer than a hand needs to put a knocked piece back, short enough
	// that the arbiter hears of it before the next move.
	DefaultMismatchAfter = 5 * time.Second
	// DefaultMirrorWithin: a move that entered the record must be executed
	// on the other board within this long (D.2.1 "repeated by the opponent
	// and executed on his chessboard"). Executing it is in the mirroring
	// player's own interest (his clock runs), so a minute without it means
	// something went wrong: a missed announcement, a board not followed.
	DefaultMirrorWithin = time.Minute
)

// RelayOptions configure a [Relay].
type RelayOptions struct {
	// Start is the position the game starts from. Required.
	Start rules.Position
	// Blind is the colour of the blind player. The other player is sighted.
	Blind rules.Color
	// Sighted tunes the sighted player's board tracker (Start is set by
	// the relay). Its Completion applies to the sighted player's moves:
	// ClockPress (the default) when the clock is connected, StableWindow
	// without a clock.
	Sighted TrackerOptions
	// BlindBoard tunes the blind player's board tracker (Start is set by
	// the relay). Its Completion is always Release: on the blind player's
	// board a move is made once the piece sits in another aperture and any
	// captured piece is removed (D.2.3.1, D.2.3.2); the third condition,
	// the announcement (D.2.3.3), cannot be sensed, so a settled placement
	// completes the move.
	BlindBoard TrackerOptions
	// MismatchAfter: grace before a board that differs from the game is
	// reported (default [DefaultMismatchAfter]).
	MismatchAfter time.Duration
	// MirrorWithin: time allowed to execute a recorded move on the other
	// board (default [DefaultMirrorWithin]).
	MirrorWithin time.Duration
	// ClockOn is the board the clock is cabled to (default the sighted
	// board): [Relay.Feed] reads clock messages from that board only (the
	// other board's clock port reports "no clock" or a second clock that
	// is not the game's).
	ClockOn game.Which
}

// Relay is the pure core of a game played on two boards, the sighted
// player's and the blind player's (FIDE Laws 2018 Appendix D;
// docs/blind-players.md). Both boards have their own [Tracker]; the
// Relay keeps the one record of the game and merges what the trackers see
// into one stream of events, as if the game were one board:
//
//   - Each move enters the record once, from the board of the player who
//     made it: the sighted player's moves when his tracker completes
//     them (the clock press), the blind player's when the piece is settled
//     in its new aperture (D.2.3). A move made on its player's board and not
//     yet completed is also recorded when the opponent completes his reply
//     on his own board (FIDE 6.2.1.2). A [game.MoveCompleted] with the record's
//     ply is emitted for each.
//   - The move must then be executed on the other board (mirroring). The
//     lifts and placements of that execution are not touches (Appendix D): the
//     relay passes on touch-move evidence, turn starts and illegal moves of
//     a board only for its own player's moves.
//   - On the blind player's board a piece taken out of its aperture is
//     touched (D.2.2): touch-move findings TM-1 to TM-8 there are
//     [Definite]; on the sighted board they keep the tracker's
//     grading.
//   - A board that differs from the game beyond the move in progress for
//     MismatchAfter, or that has not executed a recorded move within
//     MirrorWithin, is reported once as [game.BoardMismatch] (D.2.9), and
//     [game.BoardsAgree] when it shows the game again. The relay never corrects
//     a board or the record on its own.
//
// Events of a board about the position (Unexplained, Explained,
// DisplacedPieces, Ambiguous) are passed on only from the board of the
// player to move; the other board is watched by the mismatch check.
// Set-ups, result gestures and orientation changes are passed on from the
// sighted board only; a set-up there restarts the record (a new game, or a
// takeback to the start), and the blind player's board, set up by hand in
// its turn, is not compared for MirrorWithin. Clock readings go to the
// sighted board's tracker, whichever board the clock is connected to.
//
// Like a Tracker, a Relay has no goroutines and never reads the wall
// clock; one goroutine owns it.
type Relay struct {
	o     RelayOptions
	tr    [2]*Tracker
	rec   []relayPly
	st    [2]relayBoard
	clock *game.ClockReading
	line  []rules.Move     // scratch: the game's line
	lpos  []rules.Position // scratch: positions after line[i]
	// setupAt: a set-up on the sighted board started a new record; the
	// other board may show the old game until MirrorWithin after it.
	setupAt time.Time
	// presses: presses without a move that the sighted board's tracker saw
	// from the player of the other board, held until that player's move
	// is recorded (the press belongs to it) or pressWindow has passed.
	presses []heldPress
}

// heldPress is a press held by the relay, with the record's length when
// it was held.
type heldPress struct {
	ev  game.ClockWithoutMove
	ply int
}

// pressWindow is how long a press seen on the sighted board's clock waits
// for the move of the player of the other board to enter the record: he
// starts the clock once his move is made (D.2.4), and his board is read
// when it settles, which may come after the sighted board's tracker has
// given up on the press.
const pressWindow = 2 * time.Second

// relayPly is one recorded move.
type relayPly struct {
	ev game.MoveCompleted // as emitted (Ply is the record's)
}

// relayBoard is the relay's state of one board.
type relayBoard struct {
	completed map[int]game.MoveCompleted // its player's moves completed on it, by ply
	off       bool
	offSince  time.Time
	alerted   bool
	setUp     bool // set up for a new game, waiting for the sighted board
}

// NewRelay returns a relay for a game starting at o.Start.
func NewRelay(o RelayOptions) (*Relay, error) {
	if o.Start == nil {
		return nil, ErrNoStart
	}
	if o.Blind != rules.White && o.Blind != rules.Black {
		return nil, fmt.Errorf("%w: blind side %v", ErrBadOption, o.Blind)
	}
	if o.MismatchAfter <= 0 {
		o.MismatchAfter = DefaultMismatchAfter
	}
	if o.MirrorWithin <= 0 {
		o.MirrorWithin = DefaultMirrorWithin
	}
	so, bo := o.Sighted, o.BlindBoard
	so.Start, bo.Start = o.Start, o.Start
	bo.Completion = Release
	if bo.Setup == nil {
		bo.Setup = so.Setup // both boards recognise the same set-ups
	}
	r := &Relay{o: o}
	var err error
	if r.tr[game.SightedBoard], err = New(so); err != nil {
		return nil, err
	}
	if r.tr[game.BlindBoard], err = New(bo); err != nil {
		return nil, err
	}
	for i := range r.st {
		r.st[i].completed = map[int]game.MoveCompleted{}
	}
	return r, nil
}

// Tracker returns the tracker of board b.
func (r *Relay) Tracker(b game.Which) *Tracker { return r.tr[b] }

// Owner returns the board of the player of colour c.
func (r *Relay) Owner(c rules.Color) game.Which {
	if c == r.o.Blind {
		return game.BlindBoard
	}
	return game.SightedBoard
}

// Completed returns the number of plies in the record.
func (r *Relay) Completed() int { return len(r.rec) }

// Position returns the record's position (after its last ply).
func (r *Relay) Position() rules.Position { return r.posAt(len(r.rec)) }

// Moves returns the record's moves.
func (r *Relay) Moves() []rules.Move {
	ms := make([]rules.Move, len(r.rec))
	for i := range r.rec {
		ms[i] = r.rec[i].ev.Move
	}
	return ms
}

// PositionAt returns the record's position after ply (0: the start), or
// nil when the record is shorter.
func (r *Relay) PositionAt(ply int) rules.Position {
	if ply < 0 || ply > len(r.rec) {
		return nil
	}
	return r.posAt(ply)
}

func (r *Relay) posAt(ply int) rules.Position {
	if ply == 0 {
		return r.o.Start
	}
	return r.rec[ply-1].ev.Position
}

// Dump feeds a full board read of board b (see [Tracker.Dump]).
func (r *Relay) Dump(b game.Which, at time.Time, p rules.Placement) []game.Event {
	return r.step(at, b, r.tr[b].Dump(at, p), nil)
}

// Sense feeds one sensor report of board b (see [Tracker.Sense]). Clock
// faces from the board the clock is cabled to ([RelayOptions.ClockOn]) go
// to the sighted board's tracker; those of the other board are ignored.
func (r *Relay) Sense(b game.Which, at time.Time, s game.Sensed) []game.Event {
	if _, ok := s.(game.ClockFace); ok {
		if b != r.o.ClockOn {
			return r.step(at, b, nil, nil)
		}
		b = game.SightedBoard
	}
	evs := r.tr[b].Sense(at, s)
	if b == game.SightedBoard {
		if c := r.tr[b].clk.last; c != nil {
			cc := *c
			r.clock = &cc
		}
	}
	return r.step(at, b, evs, nil)
}

// Tick lets time pass on both boards and checks them against each other.
func (r *Relay) Tick(at time.Time) []game.Event {
	out := r.step(at, game.SightedBoard, r.tr[game.SightedBoard].Tick(at), nil)
	return r.step(at, game.BlindBoard, r.tr[game.BlindBoard].Tick(at), out)
}

// Finish ends the input of both boards (see [Tracker.Finish]).
func (r *Relay) Finish(at time.Time) []game.Event {
	out := r.step(at, game.BlindBoard, r.tr[game.BlindBoard].Finish(at), nil)
	return r.step(at, game.SightedBoard, r.tr[game.SightedBoard].Finish(at), out)
}

// End ends the game on both boards (see [Tracker.End]).
func (r *Relay) End(at time.Time) []game.Event {
	out := r.step(at, game.BlindBoard, r.tr[game.BlindBoard].End(at), nil)
	return r.step(at, game.SightedBoard, r.tr[game.SightedBoard].End(at), out)
}

// Reinstate takes the record and both boards back to ply, as the arbiter
// decided (D.2.9: "retraced to the point where the two scores agree").
func (r *Relay) Reinstate(at time.Time, ply int) ([]game.Event, error) {
	if ply < 0 || ply > len(r.rec) {
		return nil, &CommandError{Command: "reinstate", Ply: ply, Err: ErrNoSuchPly}
	}
	for b := range r.tr {
		if ply <= r.tr[b].Ply() {
			if _, err := r.tr[b].Reinstate(at, ply); err != nil {
				return nil, err
			}
		}
		r.dropCompleted(game.Which(b), ply)
	}
	r.rec = r.rec[:ply]
	out := []game.Event{game.Correction{At: game.T(at), Ply: ply, Reason: game.ArbiterEdit, Position: r.posAt(ply)}}
	return r.check(at, out), nil
}

// step filters the events of board b, records what completed and checks
// the boards.
func (r *Relay) step(at time.Time, b game.Which, evs []game.Event, out []game.Event) []game.Event {
	out = r.filter(b, evs, out)
	out = r.advance(at, out)
	out = r.pressesHeld(at, out)
	return r.check(at, out)
}

// pressesHeld passes on the held presses whose player's move did not enter
// the record within pressWindow, and drops those whose move did.
func (r *Relay) pressesHeld(at time.Time, out []game.Event) []game.Event {
	keep := r.presses[:0]
	for _, h := range r.presses {
		switch {
		case len(r.rec) > h.ply && r.rec[len(r.rec)-1].ev.Side == h.ev.Side:
			// His move entered the record: the press was its completion.
		case !at.Before(h.ev.At.Add(pressWindow)):
			out = append(out, h.ev)
		default:
			keep = append(keep, h)
		}
	}
	r.presses = keep
	return out
}

// filter passes on the events of board b that belong to the game.
func (r *Relay) filter(b game.Which, evs []game.Event, out []game.Event) []game.Event {
	owner := r.ownerColor(b)
	for _, ev := range evs {
		switch e := ev.(type) {
		case game.MoveCompleted:
			if e.Side == owner {
				r.st[b].completed[e.Ply] = e
				out = r.advance(e.At, out)
			}
		case game.MoveMade:
			if e.Side == owner && e.Ply > len(r.rec) {
				out = append(out, e)
			}
		case game.TouchEvidence:
			if e.Side != owner {
				continue // relaying the opponent's move (not a touch)
			}
			if b == game.BlindBoard && definiteOnBlindBoard(e.Rule) {
				e.Certainty = game.Definite
				e.Message += " (blind player's board: a piece out of its aperture is touched, D.2.2)"
			}
			out = append(out, e)
		case game.TurnStarted:
			if e.Side == owner {
				out = append(out, e)
			}
		case game.IllegalMove:
			if e.Side == owner {
				out = append(out, e)
			}
		case game.ClockWithoutMove:
			// The blind player starts the sighted player's clock once his
			// move is made (D.2.4), often before it is executed on the
			// sighted board: that press belongs to his move, recorded
			// already or once his board settles (pressesHeld).
			if e.Side != owner && len(r.rec) > 0 && r.rec[len(r.rec)-1].ev.Side == e.Side {
				continue
			}
			if e.Side != owner {
				r.presses = append(r.presses, heldPress{ev: e, ply: len(r.rec)})
				continue
			}
			out = append(out, e)
		case game.Correction:
			r.dropCompleted(b, e.Ply)
			if e.Ply < len(r.rec) && r.posAt(e.Ply).Turn() == owner {
				// The player took back his own recorded move on his board.
				r.rec = r.rec[:e.Ply]
				out = append(out, game.Correction{At: e.At, Ply: e.Ply, Reason: e.Reason, Position: r.posAt(e.Ply)})
			}
		case game.MoveRetracted:
			if e.Ply >= len(r.rec) && e.Position.Turn() == owner {
				out = append(out, e)
			}
		case game.Unexplained, game.Explained, game.DisplacedPieces, game.Ambiguous:
			if r.Owner(r.posAt(len(r.rec)).Turn()) == b {
				out = append(out, ev)
			}
		case game.ClockChanged:
			out = append(out, e)
		case game.SetupDetected:
			if b == game.SightedBoard {
				r.newGame(e)
				out = append(out, e)
			} else if len(r.rec) > 0 {
				r.st[b].setUp = true // ready for the next game before the sighted board
			}
		case game.ResultGesture, game.OrientationChanged, game.SetupMismatch:
			if b == game.SightedBoard {
				out = append(out, ev)
			}
		case game.BoardMismatch, game.BoardsAgree, game.DeviceLost, game.DeviceBack:
			// Not a tracker's: the relay raises the first two itself.
		}
	}
	return out
}

// newGame starts a new record at the position set up on the sighted
// board (a new game, or a set-up read as a takeback to the start). The
// blind player's board, set up by hand too, follows by its own set-up
// detection; until then it is not compared for MirrorWithin.
func (r *Relay) newGame(e game.SetupDetected) {
	if e.Position != nil {
		r.o.Start = e.Position
	}
	r.rec = r.rec[:0]
	r.presses = r.presses[:0]
	for b := range r.st {
		r.st[b] = relayBoard{completed: map[int]game.MoveCompleted{}}
	}
	r.setupAt = e.At
}

// definiteOnBlindBoard reports whether a touch-move rule's finding is
// definite on the blind player's board (D.2.2: TM-1 … TM-8).
func definiteOnBlindBoard(rule string) bool {
	switch rule {
	case "TM-1", "TM-2", "TM-3", "TM-4", "TM-5", "TM-6", "TM-7", "TM-8":
		return true
	}
	return false
}

func (r *Relay) ownerColor(b game.Which) rules.Color {
	if b == game.BlindBoard {
		return r.o.Blind
	}
	return r.o.Blind.Other()
}

func (r *Relay) dropCompleted(b game.Which, ply int) {
	for p := range r.st[b].completed {
		if p > ply {
			delete(r.st[b].completed, p)
		}
	}
}

// agrees reports whether board b's tracker made the record's moves up to
// ply n (n ≤ the record's length).
func (r *Relay) agrees(b game.Which, n int) bool {
	t := r.tr[b]
	if t.Ply() < n {
		return false
	}
	for i := 0; i < n; i++ {
		if t.line.moves[i] != r.rec[i].ev.Move {
			return false
		}
	}
	return true
}

// advance appends to the record every move completed on its player's
// board, in ply order.
func (r *Relay) advance(at time.Time, out []game.Event) []game.Event {
	for {
		p := len(r.rec) + 1
		side := r.posAt(len(r.rec)).Turn()
		o := r.Owner(side)
		y := o.Other()
		if c, ok := r.st[o].completed[p]; ok && r.agrees(o, p-1) {
			delete(r.st[o].completed, p)
			ev := c
			if ev.Clock == nil && r.clock != nil {
				cc := *r.clock
				ev.Clock = &cc
			}
			out = r.record(ev, out)
			continue
		}
		// FIDE 2018 6.2.1.2: the opponent completed his reply on his own
		// board, so the move before it, made on its player's board and
		// executed on the opponent's, is completed too.
		if c, ok := r.st[y].completed[p+1]; ok && r.agrees(o, p-1) && r.tr[o].Ply() >= p &&
			r.agrees(y, p-1) && r.tr[y].line.moves[p-1] == r.tr[o].line.moves[p-1] {
			t := r.tr[o]
			prev, m := t.PositionAt(p-1), t.line.moves[p-1]
			out = r.record(game.MoveCompleted{Stamp: game.Stamp{At: c.At}, Ply: p, Side: side, Move: m,
				SAN: prev.SAN(m), UCI: prev.UCI(m), Position: t.PositionAt(p), MadeAt: t.line.madeAt[p-1]}, out)
			continue
		}
		return out
	}
}

func (r *Relay) record(ev game.MoveCompleted, out []game.Event) []game.Event {
	ev.Ply = len(r.rec) + 1
	r.rec = append(r.rec, relayPly{ev: ev})
	return append(out, ev)
}
