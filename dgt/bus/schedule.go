package bus

import (
	"math"
	"slices"
	"time"
)

// The line's schedule: the package doc's "Polling schedule" says what it
// does; plan decides each step.

// stepKind is what the line does next.
type stepKind uint8

const (
	stepPoll  stepKind = iota // poll a board's changes
	stepClock                 // read a board's clock
	stepPing                  // ping a lost board (Settings.RepingLost)
	stepWait                  // nothing to do before until
)

// step is the line's next exchange.
type step struct {
	kind  stepKind
	bd    *board
	until time.Time
}

// Usual costs of the exchanges before any was timed: 4 + 6 bytes of
// changes, 4 + 13 of clock, at 960 bytes/s, and the boards' turnaround.
const (
	defaultChangesCost = 10 * time.Millisecond
	defaultClockCost   = 20 * time.Millisecond
)

// staleClock: a clock not read for this long goes before the presses
// waiting for a read, so that a line whose boards all play fast still
// reads the clocks of the boards that do not (a finished game's clock
// that runs on, a player thinking long).
const staleClock = 3 * time.Second

// plan returns the line's next exchange at now. live are the boards not
// lost, the longest unpolled first.
func (l *line) plan(now time.Time, live []*board) step {
	o := l.b.opts
	lost := l.lostToPing()
	if len(live) == 0 {
		if lost != nil && !now.Before(lost.pingAt) {
			return step{kind: stepPing, bd: lost}
		}
		return step{kind: stepWait, until: now.Add(o.Cycle)}
	}
	// A pressed board's second look (RepollAfter) before the clocks: the
	// move it may complete waits on it; the clock's reading does not (the
	// board's press record holds the time shown).
	re := l.repoll(live)
	if re != nil && !now.Before(re.repollAt) && l.slack(now, live) >= re.cost {
		return step{kind: stepPoll, bd: re}
	}
	if o.ClockEvery > 0 {
		// Clocks at their board's poll, whatever the cycle's length.
		for _, bd := range live {
			if bd.clockDue || bd.pressed {
				return step{kind: stepClock, bd: bd}
			}
		}
	} else if bd := l.clockToRead(now, live); bd != nil {
		return step{kind: stepClock, bd: bd}
	}
	// A lost board's ping may take ReplyTimeout (it may not answer).
	if lost != nil && !now.Before(lost.pingAt) && l.slack(now, live) >= o.ReplyTimeout {
		return step{kind: stepPing, bd: lost}
	}
	first := live[0]
	if at := first.lastPoll.Add(o.Cycle); now.Before(at) {
		if re != nil && re.repollAt.Before(at) {
			at = maxTime(now, re.repollAt)
		}
		return step{kind: stepWait, until: at}
	}
	return step{kind: stepPoll, bd: first}
}

// lostToPing returns the lost board whose ping (RepingLost) comes first,
// or nil.
func (l *line) lostToPing() *board {
	var p *board
	for _, bd := range l.boards {
		if bd.lost && !bd.pingAt.IsZero() && (p == nil || bd.pingAt.Before(p.pingAt)) {
			p = bd
		}
	}
	return p
}

// repoll returns the board whose re-poll (Settings.RepollAfter) comes
// first, or nil.
func (l *line) repoll(live []*board) *board {
	var re *board
	for _, bd := range live {
		if !bd.repollAt.IsZero() && (re == nil || bd.repollAt.Before(re.repollAt)) {
			re = bd
		}
	}
	return re
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// slack returns how long the line may spend now and still poll every
// live board, the longest unpolled first, before its deadline; negative
// when a poll is late already. Each poll to come is counted at its
// board's usual cost (a board in the middle of a move answers with more
// bytes for a poll or two: boards polled one after the other stay due one
// after the other, and a run of such boards counted at the line's mean
// would make the last of them late), plus twice the polls' usual
// deviation times the square root of their number (the spread of a sum of
// independent costs). On a line whose polls are spread out this costs
// nothing: the next board's deadline binds.
func (l *line) slack(now time.Time, live []*board) time.Duration {
	s := time.Duration(1<<63 - 1)
	var ahead time.Duration
	for i, bd := range live {
		spread := time.Duration(2 * math.Sqrt(float64(i)) * float64(l.changesDev))
		s = min(s, bd.lastPoll.Add(l.deadline()).Sub(now.Add(ahead+spread)))
		ahead += bd.cost
	}
	return s
}

// deadline is the longest the line lets a board go unpolled when it plans.
func (l *line) deadline() time.Duration { return l.b.opts.PollInterval * 9 / 10 }

// clockToRead returns the clock to read now, or nil (the order: the
// package doc).
func (l *line) clockToRead(now time.Time, live []*board) *board {
	var stale, pressed, other *board
	for _, bd := range live {
		switch {
		case now.Sub(bd.lastRead) >= staleClock:
			if stale == nil || bd.lastRead.Before(stale.lastRead) {
				stale = bd
			}
		case bd.pressed:
			if pressed == nil || bd.pressSeq < pressed.pressSeq {
				pressed = bd
			}
		case bd.lastRead.Before(bd.lastPoll):
			if other == nil || bd.lastRead.Before(other.lastRead) {
				other = bd
			}
		}
	}
	if l.owed {
		// No clock fitted in the last round: one is read anyway.
		for _, bd := range []*board{stale, pressed, other} {
			if bd != nil {
				return bd
			}
		}
	}
	s := l.slack(now, live)
	switch {
	case stale != nil && s+l.b.opts.PollInterval/20 >= l.clockCost:
		// A clock unread for long may take the margin kept for replies
		// that come late: on a line whose polls alone nearly fill the
		// deadline (a slow adapter), clocks would be read once a round.
		return stale
	case s < l.clockCost:
		return nil
	case pressed != nil:
		return pressed
	case other != nil && s >= 2*l.clockCost:
		return other
	}
	return nil
}

// liveBoards returns the boards not lost, the longest unpolled first.
func (l *line) liveBoards() []*board {
	live := l.live[:0]
	for _, bd := range l.boards {
		if !bd.lost {
			live = append(live, bd)
		}
	}
	slices.SortStableFunc(live, func(a, b *board) int { return a.lastPoll.Compare(b.lastPoll) })
	l.live = live
	return live
}

// polled notes that bd's changes were asked for at at: the interval since
// its previous poll is counted (unless busy work came in between), and
// the round ends when every live board has been polled in it.
func (l *line) polled(bd *board, at time.Time) {
	if !bd.lastPoll.IsZero() && !l.busy && bd.lastPoll.After(l.lastBusy) {
		l.b.stats.interval(at.Sub(bd.lastPoll))
	}
	bd.lastPoll = at
	if bd.round > l.round {
		return // polled again in this round
	}
	bd.round = l.round + 1
	if o := l.b.opts; o.ClockEvery > 0 && l.round%int64(o.ClockEvery) == 0 {
		bd.clockDue = true
	}
	for _, b := range l.boards {
		if !b.lost && b.round <= l.round {
			return
		}
	}
	// Every live board was polled: the round is over.
	l.b.stats.cycle(at.Sub(l.roundStart), l.busy || !l.roundStart.After(l.lastBusy))
	l.owed = l.b.opts.ClockEvery == 0 && l.roundClocks == 0
	l.round++
	l.roundStart, l.roundClocks = at, 0
}

// clockRead notes a clock exchange of d. The read owed by a round without
// any is that round's: the round it falls in still reads one of its own
// (at least one clock a round, the one unread longest first once clocks
// go unread for staleClock).
func (l *line) clockRead(bd *board, d time.Duration) {
	bd.pressed, bd.clockDue = false, false
	if l.owed {
		l.owed = false
	} else {
		l.roundClocks++
	}
	l.clockCost = (3*l.clockCost + d) / 4
}
