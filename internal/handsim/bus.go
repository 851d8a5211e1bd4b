package handsim

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Line is the bus line a polled board is on (Options.Polled), as Play drew
// it.
type Line struct {
	// Boards is how many boards the line polls in turn (1–32).
	Boards int
	// Cycle is the mean time from one poll of the board to the next
	// (40–400 ms, longer on a longer line); each cycle is longer by up to
	// a tenth of it.
	Cycle time.Duration
	// Repoll: an answer that held a lever press is followed by a second
	// poll 300 ms after it when the cycle has room for it (a second look
	// at a board whose lever may have beaten its scan).
	Repoll bool
	// Answers is how many answers the board gave; Late how many of them
	// were read late (the line held up 0.1–1.5 s).
	Answers, Late int
}

// record is an entry of the board's change log: a square's change as the
// scan saw it, or a lever press as the board recorded it.
type record struct {
	at time.Time
	s  game.Sensed
}

// clockAt returns the times left (White, Black) at at and the side whose
// time runs (0 White, 1 Black): 10 minutes each, the first mover's time
// running from the start, each press before at handing over to the other.
func (b *board) clockAt(first rules.Color, at time.Time) ([2]time.Duration, int) {
	left := [2]time.Duration{b.startTime(), b.startTime()}
	running := 0
	if first == rules.Black {
		running = 1
	}
	last := b.t0
	for _, p := range b.presses {
		if !p.Before(at) {
			break
		}
		left[running] -= p.Sub(last)
		last, running = p, 1-running
	}
	left[running] -= at.Sub(last)
	return left, running
}

// shown is a clock's time as its display shows it: whole seconds.
func shown(d time.Duration) time.Duration { return d.Truncate(time.Second) }

// faceAt is the clock as a reading at at shows it (White on the left).
func (b *board) faceAt(first rules.Color, at time.Time) game.ClockFace {
	left, running := b.clockAt(first, at)
	f := game.ClockFace{Left: shown(left[0]), Right: shown(left[1]), Running: game.LeftDisplay, LeftIs: rules.NoColor}
	if running == 1 {
		f.Running = game.RightDisplay
	}
	return f
}

// changeLog returns the board's log: the scan's reports and, at each
// press, a record of the display it halted and the time that display
// shows, in time order (a report before a press of the same instant).
func (b *board) changeLog(first rules.Color, reports []report) []record {
	out := make([]record, 0, len(reports)+len(b.presses))
	j := 0
	for _, p := range b.presses {
		for ; j < len(reports) && !reports[j].at.After(p); j++ {
			out = append(out, record{at: reports[j].at, s: game.SquareChange{Square: reports[j].sq, Piece: reports[j].pc}})
		}
		left, running := b.clockAt(first, p) // the presser's time still runs at p
		lp := game.LeverPress{Display: game.LeftDisplay, Time: shown(left[running])}
		if running == 1 {
			lp.Display = game.RightDisplay
		}
		out = append(out, record{at: p, s: lp})
	}
	for ; j < len(reports); j++ {
		out = append(out, record{at: reports[j].at, s: game.SquareChange{Square: reports[j].sq, Piece: reports[j].pc}})
	}
	return out
}

// poll reads the board as a bus line does until end and beyond, until
// its log is handed over whole: the line polls it every cycle; each
// answer holds the log's records since the previous answer, up to the
// poll, stamped with the time the answer is read, and ends with an
// input that carries the poll's time (Input.Asked). Between polls the
// line reads the board's clock when the cycle has room: right after an
// answer that held a press most often, else once a cycle on a short
// line, less often on a long one, at least every 3 s; a reading is handed
// over only when it differs from the previous one.
func (b *board) poll(r Rand, first rules.Color, reports []report, end time.Time) ([]Input, Line) {
	log := b.changeLog(first, reports)
	l := Line{Boards: 1 + r.IntN(32), Repoll: chance(r, 50)}
	l.Cycle = min(max(time.Duration(l.Boards)*11*time.Millisecond+between(r, 0, 40*time.Millisecond), 40*time.Millisecond), 400*time.Millisecond)
	var out []Input
	j := 0 // the first record not handed over
	// answer: the board is polled at asked; it returns when the answer
	// was read.
	answer := func(asked time.Time, mayBeLate bool) (time.Time, bool) {
		k := j
		for k < len(log) && !log[k].at.After(asked) {
			k++
		}
		// 10 bytes and 2 a changed square at 960 bytes/s, and the board's
		// turnaround.
		at := asked.Add(time.Duration(10+2*(k-j))*time.Millisecond + between(r, 2*time.Millisecond, 20*time.Millisecond))
		if mayBeLate && chance(r, 3) {
			at = at.Add(between(r, 100*time.Millisecond, 1500*time.Millisecond))
			l.Late++
		}
		pressed := false
		for ; j < k; j++ {
			out = append(out, Input{At: at, Sensed: log[j].s})
			if _, ok := log[j].s.(game.LeverPress); ok {
				pressed = true
			}
		}
		out = append(out, Input{At: at, Asked: asked})
		l.Answers++
		return at, pressed
	}
	var face game.ClockFace
	read := b.t0 // the clock's last reading
	asked := b.t0.Add(between(r, 0, l.Cycle))
	for asked.Before(end) || j < len(log) {
		at, pressed := answer(asked, true)
		next := asked.Add(l.Cycle + between(r, 0, l.Cycle/10))
		if !next.After(at) {
			// Held up: the line polls the board again as it catches up.
			next = at.Add(between(r, time.Millisecond, l.Cycle))
		}
		if re := asked.Add(300 * time.Millisecond); l.Repoll && pressed && re.After(at) && re.Add(30*time.Millisecond).Before(next) {
			at, _ = answer(re, false)
		}
		var clock time.Time
		switch gap := next.Sub(at); {
		case pressed && chance(r, 80):
			clock = at.Add(between(r, 5*time.Millisecond, min(40*time.Millisecond, gap*9/10)))
		case at.Sub(read) >= 3*time.Second || r.IntN(l.Boards) < 20:
			clock = at.Add(between(r, 5*time.Millisecond, gap*9/10))
		}
		if !clock.IsZero() && clock.Before(next) {
			read = clock
			if f := b.faceAt(first, clock); f != face {
				face = f
				out = append(out, Input{At: clock, Sensed: f})
			}
		}
		asked = next
	}
	return out, l
}
