package hall

import "time"

// sweepEvery bounds how long a board goes without a Tick when its session
// names no deadline: a safety net, cheap (one Tick a second per board
// against twenty at the 50 ms tick).
const sweepEvery = time.Second

// tickDue reports whether board br needs a Tick at now: a window of its
// tracker or its clock watch falls due (Session.nextDeadline), new input
// came since its last Tick, or sweepEvery has passed. Ticking every board
// every 50 ms was 15 % of the daemon's CPU at 2,000 boards, nearly every
// Tick with nothing to do.
func (br *boardRun) tickDue(now time.Time) bool {
	return br.due.IsZero() || !now.Before(br.due)
}

// ticked notes a Tick of br at now: the next one is due at its session's
// next deadline, or sweepEvery later at the latest.
func (br *boardRun) ticked(now time.Time) {
	br.h.pace.ticks.Add(1)
	if br.s.everyTick() {
		br.due = time.Time{}
		return
	}
	next := now.Add(sweepEvery)
	if d, ok := br.s.nextDeadline(); ok && d.Before(next) {
		next = d
	}
	br.due = next
}

// fed notes input to br: its next Tick comes at the next tick.
func (br *boardRun) fed() { br.due = time.Time{} }

// nextDeadline returns the earliest time after the last input at which
// a Tick of the session can change something: the tracker's next window
// (board.Tracker.NextDeadline) or a running clock's silence (clockwatch.go).
// ok false: none.
func (s *Session) nextDeadline() (at time.Time, ok bool) {
	at, ok = s.tr.NextDeadline()
	if w := s.cw; w.seen && !w.lost && !w.boardDown && w.running && s.o.ClockSilence >= 0 {
		if d := w.last.Add(s.o.ClockSilence); !ok || d.Before(at) {
			at, ok = d, true
		}
	}
	return at, ok
}

// everyTick reports whether every Tick of the session must run: a relayed
// blind game's and a team match's have windows of their own (the relay,
// the match's pocket grace) that nextDeadline does not name.
func (s *Session) everyTick() bool { return s.relay != nil || s.team != nil || s.tr == nil }
