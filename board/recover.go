package board

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// ErrLogGap: a board's log does not reach back to the last move the record
// holds (it wrapped, was erased, or the board keeps none): the moves made
// since cannot be rebuilt from it.
var ErrLogGap = errors.New("board: the board's log does not reach back far enough")

// LogGapError says from which ply on the log cannot tell what was played.
type LogGapError struct {
	Ply     int  // the record's last ply: moves after it are missing
	Wrapped bool // the log had wrapped
}

// Error names the ply.
func (e *LogGapError) Error() string {
	s := fmt.Sprintf("board: the board's log does not reach back to ply %d: moves after it are missing", e.Ply)
	if e.Wrapped {
		s += " (the log had wrapped)"
	}
	return s
}

// Unwrap returns ErrLogGap.
func (e *LogGapError) Unwrap() error { return ErrLogGap }

// Recovered is one move rebuilt from a board's log.
type Recovered struct {
	Ply      int
	Side     rules.Color
	Move     rules.Move
	SAN, UCI string
	Position rules.Position // after the move
	// Clock is the mover's time on his halted clock at his press, when the
	// log holds the press (HasClock).
	Clock    time.Duration
	HasClock bool
}

// Recovery is what a board's log says was played while the board was not
// heard.
type Recovery struct {
	// Ply is where the record goes on from: its last ply, or fewer when
	// moves of the record were taken back on the board meanwhile.
	Ply int
	// Moves were completed meanwhile (by a press the log holds, or by the
	// player's next move), in order, after Ply. A move made and not
	// completed yet is left to the live tracker (the board shows it).
	Moves []Recovered
	// Ambiguous: the board's placements were explained by more than one
	// sequence of moves (the tracker's choice is in Moves): the arbiter
	// checks.
	Ambiguous []game.Ambiguous
	// Aligned: an earlier place in the log fits the record too and reads
	// to its end with other moves: the arbiter checks which is right.
	Aligned bool
	// Complete: the log was read to its end and its last placement is the
	// position after Moves (or after a move made and not completed yet),
	// possibly with pieces lifted off it: a hand in the middle of a move
	// when the board was read.
	// Otherwise Moves are those read before the log stopped making sense
	// (pieces displaced, an illegal move, a placement nothing explains):
	// what came after is for the arbiter to establish.
	Complete bool
}

// Recover rebuilds the moves made while a board was not heard, from the
// board's own log: start and moves are the game so far (the record), now
// what the board shows (its full read on reconnecting), opts the tracker's
// options (Start is ignored; Rotated, Setup and the clock sides as the
// live tracker has them; left is the colour on the clock's left display,
// rules.NoColor when not known). It is a pure function.
//
// The log is aligned with the record: a position of the record (the
// earliest one the log shows) is found in it, and the log's changes from
// there are read by a tracker as they were sensed; the moves it completes
// must be the record's, then the new ones follow. The latest place in the
// log that fits wins (an earlier game with the same opening does not); when
// an earlier place fits too with another continuation, Recovery.Ambiguous
// says so. Nothing is made up: when no position of the record fits, or the
// moves read do not continue the record, the error is a *LogGapError with
// the record's last ply.
func Recover(start rules.Position, moves []rules.Move, now rules.Placement, log game.BoardLog, opts TrackerOptions, left rules.Color) (Recovery, error) {
	pos, err := recordPositions(start, moves)
	if err != nil {
		return Recovery{}, err
	}
	return recoverFrom(pos, 0, now, log, opts, left)
}

// RecoverFromEnd is [Recover] for a log known to start at the record's
// last position: what a bus board reported since it last showed that
// position at rest (answers read together after the line was not polled
// for seconds). The log is aligned with that position only, never with an
// earlier one of the record: a log whose first changes do not tell the
// squares of the record's last moves fits an earlier position too, and
// read from there, the tracker's search could make the record's last
// moves up from the log's last placement and misread the log's own.
func RecoverFromEnd(start rules.Position, moves []rules.Move, now rules.Placement, log game.BoardLog, opts TrackerOptions, left rules.Color) (Recovery, error) {
	pos, err := recordPositions(start, moves)
	if err != nil {
		return Recovery{}, err
	}
	return recoverFrom(pos, len(moves), now, log, opts, left)
}

// recordPositions returns the record's positions: start, then after each
// of moves.
func recordPositions(start rules.Position, moves []rules.Move) ([]rules.Position, error) {
	pos := []rules.Position{start}
	for i, m := range moves {
		next, err := pos[i].Play(m)
		if err != nil {
			return nil, fmt.Errorf("board: recover: the record's ply %d does not play: %w", i+1, err)
		}
		pos = append(pos, next)
	}
	return pos, nil
}

// recoverFrom is Recover aligning the log with the record's positions
// from ply first on (pos holds them all, the start first).
func recoverFrom(pos []rules.Position, first int, now rules.Placement, log game.BoardLog, opts TrackerOptions, left rules.Color) (Recovery, error) {
	n := len(pos) - 1
	gap := &LogGapError{Ply: n, Wrapped: log.Wrapped}
	lg := newLogView(log, now, opts.Rotated)
	for m := first; m <= n; m++ {
		want := pos[m].Placement()
		var found []Recovery
		for i := len(lg.steps) - 1; i >= -1; i-- {
			if !lg.fits(i, &want) {
				continue
			}
			r, ok := rebuild(pos, m, lg, i, opts, left)
			if !ok {
				continue
			}
			found = append(found, r)
			if len(found) == 2 {
				break
			}
		}
		if len(found) == 0 {
			continue
		}
		r := found[0]
		if len(found) > 1 && found[1].Complete && !sameRecovery(found[0], found[1]) {
			r.Aligned = true
		}
		return r, nil
	}
	if now == pos[n].Placement() && len(log.Entries) == 0 {
		return Recovery{Ply: n, Complete: true}, nil // no log, and the board shows the record: nothing missing that it can tell
	}
	return Recovery{}, gap
}

// sameRecovery reports whether two recoveries give the same record.
func sameRecovery(a, b Recovery) bool {
	if a.Ply != b.Ply || len(a.Moves) != len(b.Moves) {
		return false
	}
	for i := range a.Moves {
		if a.Moves[i].Move != b.Moves[i].Move {
			return false
		}
	}
	return true
}

// logView is a board's log with what the board showed after each of its
// steps (a change or a whole placement).
type logView struct {
	log   game.BoardLog
	steps []int // the entry index of each step
	// shown[k] is what the board showed after step k in the game's frame,
	// known[k] which squares the log tells about by then: a square the log
	// never set shows what the board shows now (nothing changed it), one
	// it set only later is unknown before.
	shown []rules.Placement
	known [][rules.MaxSquares]bool
	// before is the board before the first step, with what is known.
	before      rules.Placement
	beforeKnown [rules.MaxSquares]bool
	rot         bool
	size        int
}

func newLogView(log game.BoardLog, now rules.Placement, rotated bool) *logView {
	v := &logView{log: log, rot: rotated, size: now.Geo.Size()}
	var set [rules.MaxSquares]bool // set by some step
	for i, e := range log.Entries {
		switch e := e.(type) {
		case game.LogChange:
			set[v.frame(e.Square)] = true
			v.steps = append(v.steps, i)
		case game.LogBoard:
			for sq := 0; sq < v.size; sq++ {
				set[sq] = true
			}
			v.steps = append(v.steps, i)
		case game.LogPress:
			// Not a step: the board shows the same.
		}
	}
	v.before = rules.Placement{Geo: now.Geo}
	for sq := 0; sq < v.size; sq++ {
		if !set[sq] {
			v.before.Sq[sq], v.beforeKnown[sq] = now.Sq[v.frame(rules.Square(sq))], true
		}
	}
	cur, known := v.before, v.beforeKnown
	for _, i := range v.steps {
		switch e := log.Entries[i].(type) {
		case game.LogChange:
			sq := v.frame(e.Square)
			cur.Sq[sq], known[sq] = e.Piece, true
		case game.LogBoard:
			for sq := 0; sq < v.size; sq++ {
				cur.Sq[sq], known[sq] = e.Placement.Sq[v.frame(rules.Square(sq))], true
			}
		case game.LogPress:
			// Steps are changes and placements only.
		}
		v.shown = append(v.shown, cur)
		v.known = append(v.known, known)
	}
	return v
}

// frame maps a square of the board's frame to the game's.
func (v *logView) frame(s rules.Square) rules.Square {
	if v.rot {
		return rules.Square(v.size-1) - s
	}
	return s
}

// fits reports whether the board may have shown want after step k (-1:
// before the first): every square the log tells about shows want's piece.
func (v *logView) fits(k int, want *rules.Placement) bool {
	at, known := &v.before, &v.beforeKnown
	if k >= 0 {
		at, known = &v.shown[k], &v.known[k]
	}
	for sq := 0; sq < v.size; sq++ {
		if known[sq] && at.Sq[sq] != want.Sq[sq] {
			return false
		}
	}
	return true
}

// rebuild reads the log after change i with a tracker started at the
// record's position m: its completed moves must be the record's moves
// m+1…, then the new ones follow.
func rebuild(pos []rules.Position, m int, v *logView, i int, opts TrackerOptions, left rules.Color) (Recovery, bool) {
	opts.Start = pos[m]
	opts.Setup = nil // a set-up is no move
	opts.KingsCentre = false
	// The log is replayed as a board that reports as it scans, with the
	// times below (a polled board's answers are not).
	opts.Polled, opts.ScanPeriod, opts.Settle, opts.PressGrace = false, 0, 0, 0
	tr, err := New(opts)
	if err != nil {
		return Recovery{}, false
	}
	tr.SetClockSides(left)
	// A log is read for the moves it holds, not reread from earlier
	// plies: what it cannot read is the arbiter's (and rereading every
	// candidate alignment of a long log costs seconds).
	tr.heal.off = true
	from := 0
	if i >= 0 {
		from = v.steps[i] + 1
	}
	evs := replayLog(tr, v.log.Entries[from:], left)
	// The log ends with the board showing the last move made, or with a
	// hand in the middle of a move (pieces lifted off it: inHand).
	shown := tr.board.sensed == tr.line.top().place || tr.state.phase == inHand
	return recovered(pos, m, evs, shown)
}

// The log has no times: the rebuild gives each entry one. With presses in
// the log, the board is judged at the presses: the changes between two
// presses come closer together than the tracker's Settle (a slide's
// intermediate square is not a move); a placement right after a press (or
// a change the board marked fast) finishes the mover's move, which the
// lever beat the scan to, and comes before the board's next scan; a lift
// after a press starts the opponent's move and comes after the press's
// grace (the press is judged on what the board showed). Without presses,
// every change is left to settle. A change the board marked fast comes
// shortly after the one before.
const (
	logGap        = 700 * time.Millisecond // > Settle + the press's grace
	logHandGap    = 400 * time.Millisecond // < Settle
	logFastGap    = 80 * time.Millisecond
	logPressGap   = 100 * time.Millisecond
	logAfterPress = 40 * time.Millisecond
)

// logReplay feeds a log's entries to a tracker in order, with times as
// above.
type logReplay struct {
	tr      *Tracker
	at      time.Time
	evs     []game.Event
	face    game.ClockFace
	slow    time.Duration // the gap between changes of one move
	pressed bool          // the entry before was a press
	shown   bool          // at that press, the board showed a whole move
	follow  bool          // the next change goes on with the mover's move
	mover   rules.Color   // the colour of the last piece put down, then of the presser
	left    rules.Color   // the colour on the clock's left display, if known
	air     []lifted      // pieces lifted and not put down, latest last
	presses int
	scratch []rules.Move
}

// lifted is a piece in the air, and how many presses there were before its
// lift.
type lifted struct {
	p       rules.Piece
	presses int
}

// replayLog feeds entries to tr and returns the events.
func replayLog(tr *Tracker, entries []game.LogEntry, left rules.Color) []game.Event {
	r := &logReplay{tr: tr, at: time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC), face: game.ClockFace{LeftIs: left}, left: left}
	entries = r.clock(entries)
	for i, e := range entries {
		switch e := e.(type) {
		case game.LogChange:
			r.change(e, entries[i+1:])
		case game.LogBoard:
			r.pressed, r.follow = false, false
			r.sense(logGap, game.FullRead(e))
		case game.LogPress:
			r.face = r.face.Pressed(e)
			r.wait(logPressGap)
			r.pressed, r.shown = true, r.moveShown()
			r.presses++
			// What was lifted before the last press and not put down
			// was captured.
			r.air = slices.DeleteFunc(r.air, func(l lifted) bool { return l.presses < r.presses-1 })
			if r.left != rules.NoColor {
				r.mover = r.left
				if e.Display == game.RightDisplay {
					r.mover = r.left.Other()
				}
			}
			r.sense(0, r.face)
		}
	}
	r.settle(logSettle)
	return r.evs
}

// logSettle is how long the replay lets time pass after the log's last
// entry (the board was read right after it): the windows the last presses
// and changes opened fall due in it.
const logSettle = 30 * time.Second

// settle lets up to d pass after the log's end, the tracker's deadlines in
// it, but not the hold of a hand in the middle of a move: the log ends
// when the board was read, with the hand possibly still moving (a piece
// lifted and not put down yet is a move in progress, not pieces held off
// the board for [TrackerOptions.HandHold]).
func (r *logReplay) settle(d time.Duration) {
	end := r.at.Add(d)
	for {
		next, ok := r.tr.NextDeadline()
		if !ok || next.After(end) {
			break
		}
		if r.tr.state.phase == inHand && !next.Before(r.tr.state.since.Add(r.tr.opts.HandHold)) {
			return
		}
		r.at = next
		r.evs = append(r.evs, r.tr.Tick(next)...)
	}
	if r.tr.state.phase == inHand {
		return
	}
	r.at = end
	r.evs = append(r.evs, r.tr.Tick(end)...)
}

// clock sets the clock up: presses before the first change are those of
// the record's last moves and set the displays; otherwise the clock runs
// for the side to move, and the first press says whose display that is.
// It returns the entries after those presses.
func (r *logReplay) clock(entries []game.LogEntry) []game.LogEntry {
	lead := 0
	for ; lead < len(entries); lead++ {
		p, ok := entries[lead].(game.LogPress)
		if !ok {
			break
		}
		r.face = r.face.Pressed(p)
	}
	entries = entries[lead:]
	r.slow = logGap
	for _, e := range entries {
		if p, ok := e.(game.LogPress); ok {
			if lead == 0 {
				r.face.Running = p.Display
			}
			r.slow = logHandGap
			break
		}
	}
	if r.face.Running != game.NoDisplay {
		r.sense(0, r.face)
	}
	return entries
}

// change feeds one change; rest are the entries after it.
func (r *logReplay) change(e game.LogChange, rest []game.LogEntry) {
	if !r.tr.geo.Contains(e.Square) {
		return
	}
	old := r.tr.board.raw.Sq[e.Square]
	gap := r.gap(e, old, rest)
	if e.Piece == rules.NoPiece && old == rules.NoPiece && len(r.air) > 0 {
		// A lift from an empty square: the board overwrote the record of
		// the piece put there with that of its lift (one field changing
		// twice in a row). The piece put there was the one in the hand of
		// the player who moved last (a captured piece stays off).
		k := len(r.air) - 1
		for j := k; j >= 0; j-- {
			if r.air[j].p.Color == r.mover {
				k = j
				break
			}
		}
		old = r.air[k].p
		r.air = slices.Delete(r.air, k, k+1)
		r.sense(gap, game.SquareChange{Square: e.Square, Piece: old})
		gap = r.slow
	}
	if old != rules.NoPiece && old != e.Piece {
		r.air = append(r.air, lifted{old, r.presses})
	}
	if e.Piece != rules.NoPiece {
		r.mover = e.Piece.Color
		if k := slices.IndexFunc(r.air, func(l lifted) bool { return l.p == e.Piece }); k >= 0 {
			r.air = slices.Delete(r.air, k, k+1)
		}
	}
	r.sense(gap, game.SquareChange{Square: e.Square, Piece: e.Piece})
}

// gap returns the time before change e (old: the piece its square held).
// After a press, the mover's move goes on (the lever beat the scan to its
// last changes) with a placement of his piece, with his piece lifted to be
// put down next (a slide), and with any change when the board did not
// show a whole move at the press (a captured pawn taken off late);
// otherwise the opponent's move starts.
func (r *logReplay) gap(e game.LogChange, old rules.Piece, rest []game.LogEntry) time.Duration {
	pressed, follow := r.pressed, r.follow
	r.pressed, r.follow = false, false
	switch {
	case follow:
		return logAfterPress
	case pressed && e.Piece != rules.NoPiece && e.Piece.Color == r.mover:
		return logAfterPress
	case pressed && !r.shown:
		return logAfterPress
	case pressed && old != rules.NoPiece && old.Color == r.mover && r.putDownNext(old, rest):
		r.follow = true
		return logAfterPress
	case pressed:
		return logGap
	case e.Fast:
		return logFastGap
	}
	return r.slow
}

// moveShown reports whether the board shows the position the tracker's
// record is in or one a legal move leads to from it.
func (r *logReplay) moveShown() bool {
	top := r.tr.line.top()
	if r.tr.board.sensed == top.place {
		return true
	}
	top.expand(&r.scratch)
	for i := range top.kids {
		if top.leadsTo(i, &r.tr.board.sensed) {
			return true
		}
	}
	return false
}

// putDownNext reports whether the next entry puts piece p down: a
// placement of p, or the lift from an empty square that an overwritten
// placement leaves (see change).
func (r *logReplay) putDownNext(p rules.Piece, rest []game.LogEntry) bool {
	if len(rest) == 0 {
		return false
	}
	c, ok := rest[0].(game.LogChange)
	if !ok || !r.tr.geo.Contains(c.Square) {
		return false
	}
	return c.Piece == p || c.Piece == rules.NoPiece && r.tr.board.raw.Sq[c.Square] == rules.NoPiece
}

// wait lets gap pass, the tracker's deadlines in it.
func (r *logReplay) wait(gap time.Duration) {
	r.at = r.at.Add(gap)
	for {
		d, ok := r.tr.NextDeadline()
		if !ok || !d.Before(r.at) {
			return
		}
		r.evs = append(r.evs, r.tr.Tick(d)...)
	}
}

// sense feeds s after gap.
func (r *logReplay) sense(gap time.Duration, s game.Sensed) {
	r.wait(gap)
	r.evs = append(r.evs, r.tr.Sense(r.at, s)...)
}

// trouble reports whether e says the tracker could not read the board:
// what it read from then on is not trusted.
func trouble(e game.Event) bool {
	switch e.(type) {
	case game.Unexplained, game.DisplacedPieces, game.IllegalMove, game.Correction:
		return true
	case game.TurnStarted, game.MoveMade, game.MoveRetracted, game.MoveCompleted, game.Ambiguous,
		game.TouchEvidence, game.Explained, game.ClockChanged, game.ClockWithoutMove,
		game.SetupDetected, game.SetupMismatch, game.ResultGesture, game.OrientationChanged,
		game.BoardMismatch, game.BoardsAgree, game.DeviceLost, game.DeviceBack:
	}
	return false
}

// recovered reads the line the rebuild's events leave: the record's moves
// m+1… must be its first moves (made; the log may miss the press that
// completed one), then the moves completed meanwhile follow.
func recovered(pos []rules.Position, m int, evs []game.Event, explained bool) (Recovery, bool) {
	n := len(pos) - 1
	var line []game.MoveMade // made after ply m, as the board went
	done := 0                // plies of line completed
	clocks := map[int]*game.ClockReading{}
	var amb []game.Ambiguous
	complete := explained
	for _, e := range evs {
		if trouble(e) {
			// Nothing after it is trusted, nor the last move completed
			// before it: a misread move often shows only in the next.
			complete = false
			done = max(0, min(done, len(line))-1)
			break
		}
		switch e := e.(type) {
		case game.MoveMade:
			line = append(line[:min(len(line), e.Ply-1)], e)
		case game.MoveRetracted:
			line = line[:min(len(line), e.Ply)]
		case game.MoveCompleted:
			done = max(done, e.Ply)
			clocks[e.Ply] = e.Clock
		case game.Correction:
			line = line[:min(len(line), e.Ply)]
			done = min(done, e.Ply)
		case game.Ambiguous:
			amb = append(amb, e)
		case game.TurnStarted, game.TouchEvidence, game.Explained, game.ClockChanged, game.ClockWithoutMove,
			game.SetupDetected, game.SetupMismatch, game.ResultGesture, game.OrientationChanged,
			game.BoardMismatch, game.BoardsAgree, game.DeviceLost, game.DeviceBack,
			game.Unexplained, game.DisplacedPieces, game.IllegalMove:
			// Nothing the record takes (the troubles stop the reading above).
		}
	}
	if len(line) < n-m {
		return Recovery{}, false
	}
	for k := 0; k < n-m; k++ {
		if line[k].Position.FEN() != pos[m+k+1].FEN() {
			return Recovery{}, false
		}
	}
	r := Recovery{Ply: n, Ambiguous: amb, Complete: complete}
	for k := n - m; k < min(done, len(line)); k++ {
		mm := line[k]
		rm := Recovered{Ply: m + k + 1, Side: mm.Side, Move: mm.Move, SAN: mm.SAN, UCI: mm.UCI, Position: mm.Position}
		if c := clocks[k+1]; c != nil {
			rm.HasClock = true
			rm.Clock = c.White
			if mm.Side == rules.Black {
				rm.Clock = c.Black
			}
		}
		r.Moves = append(r.Moves, rm)
	}
	return r, true
}

// ClockFromLog takes, when the tracker's clock waits for its reference
// after [Tracker.ClockBack] (the board heard again, the daemon started
// with a game under way), the running side the board's log ends with as
// that reference: the side whose clock the log's last lever press
// started. The first live reading is then read against it: one that shows
// the other side's clock running is a press, made after the log was read,
// and it completes its move once the board shows it. Without it, that
// reading would be taken as the reference, the press lost with it, and
// the move, made in the instant the board was read again, left to wait
// for a press that never comes (each later ply completed by the next
// one's press, the last never). Nothing changes when the clock's sides
// are not known, the log holds no press, or the clock is heard already.
func (t *Tracker) ClockFromLog(log game.BoardLog) {
	if t.clk.phase != clockReturning || t.clk.left == rules.NoColor || t.opts.Completion != ClockPress {
		return
	}
	for i := len(log.Entries) - 1; i >= 0; i-- {
		p, ok := log.Entries[i].(game.LogPress)
		if !ok {
			continue
		}
		running := t.clk.left // the right display halted: the left one runs
		if p.Display == game.LeftDisplay {
			running = t.clk.left.Other()
		}
		t.toClock(clockReturned)
		t.clk.lastRun = running
		return
	}
}
