package clock

import (
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// DefaultTolerance is how far a reading may be from the model's expectation
// before it counts as an inconsistency: DGT clocks report whole seconds and
// messages arrive up to a few hundred milliseconds late.
const DefaultTolerance = 1500 * time.Millisecond

// Options configures a [Model]. The zero value is valid.
type Options struct {
	// Tolerance: see DefaultTolerance (used when zero).
	Tolerance time.Duration
	// MidGame: the first reading comes from a game already under way (a
	// restart), so it is not checked against the control's start times;
	// the moves completed before it ([Model.MoveCompleted], e.g. the
	// record replayed) count for the periods, as presses would have.
	MidGame bool
	// HostControlled: the clock was put under host control (SetNRun)
	// before a restart, so it adds no increments (see
	// [Model.AdjustHost]); the record keeps it across restarts.
	HostControlled bool
	// NoTiming: the reading times are not real (replays of raw or base64
	// captures, which carry no timestamps). The model then only checks
	// what the readings show by themselves: time a side gains is still
	// checked against the control, time it loses is accepted, freezes and
	// jumps are not detected, and a missing period addition is not
	// reported (time used may hide it).
	NoTiming bool
}

// Model follows a game's clock through its readings. It is a pure state
// machine: not safe for concurrent use, no goroutines, time passed in.
//
// A reading shows the clock at the time it is observed at, but a press is
// only seen in the first reading after it: a board alone on its port sends
// every change of the display at once, a board on a DGT bus line has its
// clock read every second or so. The press is therefore taken to lie
// anywhere between the reading that shows it and the one before: the
// presser's halted time and the time the other side has run since are
// checked against that window (so a defect smaller than the window plus
// the tolerance can go unseen on a bus line); two to six presses between
// two readings (fast replies: the other side's halted time changed, both
// sides' times show their increments) count as that many moves
// (hiddenPresses).
type Model struct {
	tc       TimeControl
	tol      time.Duration
	midGame  bool
	noTiming bool

	started    bool
	last       Reading
	lastAt     time.Time
	running    rules.Color // side whose run the model is timing, NoColor when stopped
	lastRunner rules.Color // the side that ran before a stop
	runStart   time.Time
	runBase    time.Duration    // running side's time at runStart
	base       [2]time.Duration // each side's time as last accepted
	moves      [2]int           // completed moves (presses) per side
	period     [2]int
	due        [2]int  // period boundaries passed (time additions owed)
	credited   [2]int  // period time additions seen
	missing    [2]bool // PeriodTimeMissing raised and not resolved
	flagged    [2]bool
	flagAt     [2]time.Time
	both       bool
	adjust     *Reading // an arbiter-set reading the clock is expected to show
	host       bool     // the clock is host-controlled (SetNRun): it adds nothing at presses
	resync     bool     // readings were interrupted: take the next one as it is
	// completed: the moves completed (MoveCompleted) at a time after the
	// last reading: presses the next reading shows, at least (a move is
	// completed at its press, which a reading may show before it is).
	completed int
	firstDone rules.Color // the side of the first of them
	// settling: the readings since the first one (or a resync) may be a
	// burst buffered while nobody read the port, all arriving at once.
	settling bool
}

// burstGap: readings that arrive closer than this are one burst read from
// the port's buffer at once (live, a DGT clock reports once a second, or
// on a press); after a (re)start the earlier ones are stale.
const burstGap = 50 * time.Millisecond

// NewModel returns a model for time control tc.
func NewModel(tc TimeControl, opts Options) *Model {
	tol := opts.Tolerance
	if tol <= 0 {
		tol = DefaultTolerance
	}
	return &Model{tc: tc, tol: tol, midGame: opts.MidGame, noTiming: opts.NoTiming, host: opts.HostControlled,
		running: rules.NoColor, lastRunner: rules.NoColor}
}

// TimeControl returns the model's time control.
func (m *Model) TimeControl() TimeControl { return m.tc }

// Moves returns the moves side c has completed by pressing the clock.
func (m *Model) Moves(c rules.Color) int { return m.moves[c&1] }

// Period returns the 0-based period side c is in.
func (m *Model) Period(c rules.Color) int { return m.period[c&1] }

// Last returns the last reading and its time (zero before the first).
func (m *Model) Last() (Reading, time.Time) { return m.last, m.lastAt }

// Remaining returns the times the model expects the clock to show at t.
func (m *Model) Remaining(t time.Time) (white, black time.Duration) {
	w, b := m.base[0], m.base[1]
	if m.running == White {
		w = m.expectRun(t)
	} else if m.running == Black {
		b = m.expectRun(t)
	}
	return w, b
}

// Adjust tells the model that the arbiter set the clock to white/black
// (running: which side runs afterwards): the next reading that shows these
// times (within the tolerance) is accepted without an inconsistency. Used
// for time penalties sent with SetNRun and arbiter clock adjustments.
func (m *Model) Adjust(white, black time.Duration, running rules.Color) {
	m.adjust = &Reading{White: white, Black: black, Running: running}
}

// AdjustHost is [Model.Adjust] for a setting sent with SetNRun
// (docs/dgt-boards.md, "The protocol in brief"): the clock is then in its
// PC-controlled mode and counts down without increment, delay or period
// additions, which no clock command undoes. From then on the model expects
// presses to add nothing (an increment is still accepted: it means the arbiter
// has put the clock back into its own program by hand, and the model follows
// the clock again), so the missing increments are not reported as
// inconsistencies.
func (m *Model) AdjustHost(white, black time.Duration, running rules.Color) {
	m.Adjust(white, black, running)
	m.host = true
}

// Resync tells the model that readings were interrupted (the board or
// the clock was disconnected): presses and time used meanwhile were not
// seen, so the next reading is accepted as it is and timing restarts from
// it, as after the first reading of a game under way. Before the first
// reading (a polled board's readings held back until its clock sides were
// known) it says that both clocks may have run: that reading's setting
// check finds only a time above the setting.
func (m *Model) Resync() { m.resync = true }

// HostControlled reports whether the model believes the clock runs under
// host control since an [Model.AdjustHost] (no increments).
func (m *Model) HostControlled() bool { return m.host }

// MoveCompleted tells the model that side completed a move at t. A move
// completed while the clock is stopped (after it was started) gives an
// [Inconsistency] of kind MoveWithClockStopped. In a resumed game (MidGame)
// the moves completed before the first reading are counted as presses:
// the periods and their additions are then where the clock has them.
func (m *Model) MoveCompleted(side rules.Color, t time.Time) []Event {
	if !m.started && m.midGame {
		m.countMove(side)
		return nil
	}
	if m.started && t.After(m.lastAt) {
		if m.completed++; m.completed == 1 {
			m.firstDone = side
		}
	}
	if m.started && m.last.Running == rules.NoColor && m.lastRunner != rules.NoColor {
		return []Event{Inconsistency{At: t, Kind: MoveWithClockStopped, Side: side,
			Detail: fmt.Sprintf("%s completed a move while the clock was stopped", side)}}
	}
	return nil
}

// countMove counts side's completed move without judging the clock: its
// period advances, and a period addition due now is taken as made (it
// cannot be checked: the move was not seen with the clock).
func (m *Model) countMove(side rules.Color) {
	xi := side & 1
	m.moves[xi]++
	n := m.moves[xi]
	if _, end := m.tc.PeriodAt(n - 1); m.tc.Timed() && end > 0 && n == end {
		m.due[xi]++
		m.credited[xi]++
	}
	m.period[xi], _ = m.tc.PeriodAt(n)
}

// expectRun is the running side's expected time at t: the main time runs
// once the period's delay has passed (6.3.2); it never goes below zero.
func (m *Model) expectRun(t time.Time) time.Duration {
	if m.noTiming {
		return m.runBase
	}
	used := t.Sub(m.runStart)
	if !m.host {
		used -= m.tc.Period(m.period[m.running&1]).Delay
	}
	if used < 0 {
		used = 0
	}
	if e := m.runBase - used; e > 0 {
		return e
	}
	return 0
}

// Observe feeds one reading taken at t and returns what it implies.
func (m *Model) Observe(r Reading, t time.Time) []Event {
	var out []Event
	switch {
	case !m.started:
		m.started, m.settling = true, true
		out = m.first(r, t, m.resync)
		m.resync = false
	case m.resync:
		m.resync, m.settling = false, true
		m.base = [2]time.Duration{r.White, r.Black}
		m.restart(r.Running, t, r)
	case m.settling && t.Sub(m.lastAt) < burstGap:
		// A burst after a (re)start: the port's buffer held readings
		// taken while nobody read it; the latest counts (a press in it
		// still counts as a move).
		if m.running != rules.NoColor && r.Running == m.running.Other() {
			m.countMove(m.running)
		}
		m.base = [2]time.Duration{r.White, r.Black}
		m.restart(r.Running, t, r)
	case m.adjust != nil && near(r.White, m.adjust.White, m.tol) && near(r.Black, m.adjust.Black, m.tol):
		m.settling = false
		m.adjust = nil
		m.base = [2]time.Duration{r.White, r.Black}
		m.restart(r.Running, t, r)
	default:
		m.settling = false
		out = m.step(r, t)
	}
	out = m.flags(r, t, out)
	m.last, m.lastAt = r, t
	m.completed, m.firstDone = 0, rules.NoColor
	return out
}

// first handles the first reading: it checks the setting (7.1, 6.10.2).
// After a Resync (ran: the readings before it were not passed on) both
// sides' clocks may have run already: only a time above the setting is
// wrong then.
func (m *Model) first(r Reading, t time.Time, ran bool) []Event {
	m.base = [2]time.Duration{r.White, r.Black}
	m.restart(r.Running, t, r)
	if m.midGame || !m.tc.Timed() || m.tc.Periods[0].Sandclock {
		return nil
	}
	var out []Event
	b := m.tc.Base()
	// DGT clocks in Fischer mode add the first increment at set-up (a 3+2
	// game starts at 3:02), so base + increment is a correct start too.
	inc := m.tc.Periods[0].Increment
	for _, c := range [2]rules.Color{White, Black} {
		got := r.Time(c)
		// A side whose clock already ran may show less; more is always wrong.
		if got > b+inc+m.tol || (!ran && c != r.Running && !near(got, b, m.tol) && !near(got, b+inc, m.tol)) {
			out = append(out, Inconsistency{At: t, Kind: SettingMismatch, Side: c, Expected: b, Reported: got,
				Detail: fmt.Sprintf("%s's clock shows %s, the control %s gives %s", c, fmtDur(got), m.tc, fmtDur(b))})
		}
	}
	return out
}

// restart starts timing side c (NoColor: stopped) from reading r at t.
func (m *Model) restart(c rules.Color, t time.Time, r Reading) {
	if m.running != rules.NoColor {
		m.lastRunner = m.running
	}
	m.running = c
	if c != rules.NoColor {
		m.runStart, m.runBase = t, r.Time(c)
		m.lastRunner = c
	}
}

// step compares reading r at t with the expectation and updates the state.
func (m *Model) step(r Reading, t time.Time) []Event {
	var out []Event
	prev := m.running
	var exp [2]time.Duration
	exp[0], exp[1] = m.Remaining(t)
	sand := m.tc.Timed() && m.tc.Periods[0].Sandclock
	if sand && prev != rules.NoColor {
		// Sandclock: what the runner used flows to the other side.
		exp[prev.Other()&1] = m.base[prev.Other()&1] + (m.runBase - exp[prev&1])
	}
	hidden, fit := 0, false
	if prev != rules.NoColor && r.Running != rules.NoColor && !sand {
		hidden, fit = m.hiddenPresses(prev, exp, r, t)
	}
	switch {
	case hidden > 0 && !fit:
		// The moves completed since the last reading say how many
		// presses it shows, and the times do not fit them: judged
		// against them.
		out = m.judgeHidden(out, prev, hidden, exp, r, t)
		m.countPresses(prev, hidden)
		m.base = [2]time.Duration{r.White, r.Black}
		m.restart(r.Running, t, r)
	case r.Running == prev && prev != rules.NoColor && hidden > 0:
		// Both players pressed between two readings (a bus line reads a
		// clock every second or so): the moves, timed by this reading.
		m.countPresses(prev, hidden)
		m.base = [2]time.Duration{r.White, r.Black}
		m.restart(prev, t, r)
	case r.Running == prev && prev != rules.NoColor:
		out = m.check(out, prev, exp[prev&1], r, t, "")
		out = m.check(out, prev.Other(), exp[prev.Other()&1], r, t, "")
		if sand {
			m.base[prev.Other()&1] = r.Time(prev.Other())
			m.runStart, m.runBase = t, r.Time(prev)
		}
	case prev != rules.NoColor && r.Running == prev.Other() && hidden > 0:
		// Three or more presses between two readings (a fast reply and
		// its answer): the moves, timed by this reading.
		m.countPresses(prev, hidden)
		m.base = [2]time.Duration{r.White, r.Black}
		m.restart(r.Running, t, r)
	case prev != rules.NoColor && r.Running == prev.Other():
		out = m.press(out, prev, exp, r, t)
	case prev != rules.NoColor && r.Running == rules.NoColor:
		out = m.check(out, prev, exp[prev&1], r, t, " when the clock stopped")
		out = m.check(out, prev.Other(), exp[prev.Other()&1], r, t, " when the clock stopped")
		m.base = [2]time.Duration{r.White, r.Black}
		m.restart(rules.NoColor, t, r)
	default: // stopped → stopped, or stopped → running (start or resume)
		if m.resetLike(r, exp) {
			out = append(out, Inconsistency{At: t, Kind: ClockReset, Side: rules.NoColor,
				Reported: r.White, Expected: exp[0],
				Detail: fmt.Sprintf("both clocks went back to %s/%s after %d moves", fmtDur(r.White), fmtDur(r.Black), m.moves[0]+m.moves[1])})
		} else if k, fit := m.startedHidden(exp, r, t); k > 0 {
			// The game started (or resumed) and the players pressed k
			// times between two readings far apart, the first mover
			// first (the moves completed meanwhile).
			if !fit {
				out = m.judgeHidden(out, m.firstDone, k, exp, r, t)
			}
			m.countPresses(m.firstDone, k)
		} else if m.startedAndPressed(exp, r, t) {
			// The game started and the first mover pressed between two
			// readings: his move is counted, his time taken as shown.
			m.countMove(r.Running.Other())
		} else {
			out = m.check(out, White, exp[0], r, t, " while the clock was stopped")
			out = m.check(out, Black, exp[1], r, t, " while the clock was stopped")
		}
		m.base = [2]time.Duration{r.White, r.Black}
		m.restart(r.Running, t, r)
	}
	return out
}

// maxHidden bounds the presses looked for between two readings when the
// moves completed do not tell them.
const maxHidden = 6

// hiddenPresses returns how many presses since the last reading explain
// reading r at t where x ran before, when one press (the running side
// changed) or none (the same side runs) does not: x pressed first, then
// the sides in turn (hiddenWant). fit is false when none fits but the
// moves completed since the last reading say that presses were made:
// their number is returned, for the reading to be judged against it
// (judgeHidden). 0: none of 2..maxHidden fits and the moves completed
// tell nothing (or this model cannot tell: no timing, host control);
// under an unknown control see hiddenUnknown.
//
// A bus line may read a clock half a minute apart (a line whose polls
// fill its cycle reads one clock a round: an overloaded host, a slow
// adapter) while the players press a dozen times: the moves completed
// since the last reading (MoveCompleted, stamped at their presses) then
// give the count to try first (hiddenCounts). Guessed from the times
// alone it is not found past maxHidden, and a window longer than an
// increment fits more than one.
func (m *Model) hiddenPresses(x rules.Color, exp [2]time.Duration, r Reading, t time.Time) (k int, fit bool) {
	if m.noTiming || m.host || !m.lastAt.Before(t) || m.lastAt.Before(m.runStart) {
		return 0, false
	}
	y := x.Other()
	if r.Time(y) == exp[y&1] {
		return 0, false // y's halted display did not change: y never ran
	}
	if !m.tc.Timed() {
		return m.hiddenUnknown(x, exp, r, t)
	}
	fits := func(k int) bool { return m.hiddenFits(x, k, exp, r, t) }
	first := 2 // the same side runs: an even number of presses
	if r.Running != x {
		first = 3
		if fits(1) {
			return 0, false // one press explains it
		}
	}
	known := 0
	if c := m.completed; c >= 2 {
		known = c
		if (c-first)%2 != 0 {
			known++ // of first's parity
		}
	}
	for _, k := range hiddenCounts(known, first) {
		if fits(k) {
			return k, true
		}
	}
	if known > 0 && (first == 3 || !fits(0)) {
		return known, false
	}
	return 0, false
}

// startedHidden returns how many presses made between two readings
// explain reading r at t, the clock stopped at the last one and running
// now, when the moves completed meanwhile are two or more (a game started
// or resumed while a bus line read its clock seldom): the first of them
// pressed first. fit: as in hiddenPresses. 0: the moves completed do
// not tell, or r shows the clock as it stood (no press made).
func (m *Model) startedHidden(exp [2]time.Duration, r Reading, t time.Time) (k int, fit bool) {
	x := m.firstDone
	if m.noTiming || !m.tc.Timed() || m.host || r.Running == rules.NoColor || m.running != rules.NoColor || !m.lastAt.Before(t) ||
		m.completed < 2 || x == rules.NoColor || near(r.White, exp[0], m.tol) && near(r.Black, exp[1], m.tol) {
		return 0, false
	}
	k = m.completed
	if (k%2 == 1) != (r.Running == x.Other()) {
		k++ // of the running side's parity
	}
	for _, n := range hiddenCounts(k, 2-k%2) {
		if m.hiddenFits(x, n, exp, r, t) {
			return n, true
		}
	}
	return k, false
}

// hiddenUnknown is hiddenPresses under an unknown control (the event's
// default, "?"): what a press adds cannot be judged (as in press), so
// presses are taken as made when the halted side y's display moved (the
// same side runs: y ran, and both pressed) or went up (the running side
// changed: y pressed too, and its press added time), as long as neither
// side shows less than running the whole gap leaves it (that is still a
// defect). The count is the moves completed since the last reading, or
// the fewest possible.
func (m *Model) hiddenUnknown(x rules.Color, exp [2]time.Duration, r Reading, t time.Time) (k int, fit bool) {
	y := x.Other()
	ran := max(t.Sub(m.lastAt)-m.tc.Period(m.period[y&1]).Delay, 0)
	if r.Time(x) < exp[x&1]-m.tol || r.Time(y) < exp[y&1]-ran-m.tol {
		return 0, false
	}
	first := 2
	if r.Running != x {
		first = 3
		if r.Time(y) <= exp[y&1]+m.tol {
			return 0, false // one press explains it
		}
	}
	k = max(m.completed, first)
	if (k-first)%2 != 0 {
		k++
	}
	return k, true
}

// hiddenCounts returns the press counts to try, in order, when the moves
// completed since the last reading give known (0: they tell nothing) and
// the count is first or more, of first's parity: known, then the others
// nearest to it first, up to maxHidden more; then first to maxHidden.
// The moves completed are an estimate: they lag the presses (a press is
// judged on its board's answer or later, a fast reply's once the board
// settles) and a press the last reading showed is stamped at its record
// when that came in a later answer.
func hiddenCounts(known, first int) []int {
	var ks []int
	if known > 0 {
		ks = append(ks, known)
		for d := 2; d <= known-first || d <= maxHidden; d += 2 {
			if d <= maxHidden {
				ks = append(ks, known+d)
			}
			if known-d >= first {
				ks = append(ks, known-d)
			}
		}
	}
	for k := first; k <= maxHidden; k += 2 {
		ks = append(ks, k)
	}
	return ks
}

// hiddenFits reports whether k presses in turn from x's since the last
// reading explain reading r at t: each side's time is within what it can
// show (hiddenWant), and, from two presses on, the time both used adds up
// to the time the clock ran between the readings (less the delays), to
// within half a round of increments: the count is then the only one that
// fits, however long the gap (each side's own window fits a count two
// more or fewer once the gap is longer than an increment), and a clock
// that adds nothing fits none. (Half a round: the readings' stamps, taken
// when the line reads them, may be late on a loaded host.)
func (m *Model) hiddenFits(x rules.Color, k int, exp [2]time.Duration, r Reading, t time.Time) bool {
	y := x.Other()
	wx, wy := m.hiddenWant(x, k, exp, r, t)
	if !near(r.Time(x), wx, m.tol) || !near(r.Time(y), wy, m.tol) {
		return false
	}
	px, py := m.tc.Period(m.period[x&1]), m.tc.Period(m.period[y&1])
	half := (px.Increment + py.Increment) / 2
	if k < 2 || half == 0 {
		return true
	}
	hi := exp[x&1] // x's display at the last reading
	if m.running == x {
		hi = m.expectRun(m.lastAt)
	}
	used := hi - (r.Time(x) - m.hiddenAdded(x, (k+1)/2)) + exp[y&1] - (r.Time(y) - m.hiddenAdded(y, k/2))
	ran := t.Sub(m.lastAt)
	lo := ran - time.Duration(k+1)*max(px.Delay, py.Delay)
	if m.running != x {
		lo = 0 // the clock was stopped: started at some time since
	}
	return used > lo-half && used < ran+half
}

// hiddenWant returns what x and its opponent y should show at t after k
// presses in turn from x's since the last reading, nearest to reading r:
// x got ceil(k/2) additions and y floor(k/2) (hiddenAdded); y's halted
// display moved by what it ran (less its delay) and x's shows what it
// used outside y's runs.
func (m *Model) hiddenWant(x rules.Color, k int, exp [2]time.Duration, r Reading, t time.Time) (wantX, wantY time.Duration) {
	y := x.Other()
	ax, ay := m.hiddenAdded(x, (k+1)/2), m.hiddenAdded(y, k/2)
	ran := func(c rules.Color) time.Duration { return max(t.Sub(m.lastAt)-m.tc.Period(m.period[c&1]).Delay, 0) }
	lo, hi := exp[x&1], m.expectRun(m.lastAt) // x ran from the last reading
	if m.running != x {
		lo, hi = exp[x&1]-ran(x), exp[x&1] // the clock was stopped
	}
	wantX = within(r.Time(x)-ax, lo, hi) + ax
	wantY = within(r.Time(y)-ay, exp[y&1]-ran(y), exp[y&1]) + ay
	return wantX, wantY
}

// hiddenAdded returns what side c's clock adds at its next n presses:
// each press's increment, and the next period's time at the press that
// completes a period's moves.
func (m *Model) hiddenAdded(c rules.Color, n int) time.Duration {
	var a time.Duration
	done := m.moves[c&1]
	for i := range n {
		idx, end := m.tc.PeriodAt(done + i)
		a += m.tc.Period(idx).Increment
		if end > 0 && done+i+1 == end {
			a += m.tc.Period(idx + 1).Time
		}
	}
	return a
}

// judgeHidden reports the sides whose times do not fit k presses made in
// turn from x's since the last reading (hiddenPresses).
func (m *Model) judgeHidden(out []Event, x rules.Color, k int, exp [2]time.Duration, r Reading, t time.Time) []Event {
	wx, wy := m.hiddenWant(x, k, exp, r, t)
	when := fmt.Sprintf("over the %d presses since the last reading", k)
	for _, c := range [2]rules.Color{x, x.Other()} {
		want := wx
		if c != x {
			want = wy
		}
		if !near(r.Time(c), want, m.tol) {
			out = m.mismatch(out, c, want, r.Time(c), t, when)
		}
	}
	return out
}

// countPresses counts k presses made in turn from x's.
func (m *Model) countPresses(x rules.Color, k int) {
	for i := range k {
		if i%2 == 0 {
			m.countMove(x)
		} else {
			m.countMove(x.Other())
		}
	}
}

// startedAndPressed reports whether reading r at t, the clock running
// after the model last saw it stopped, shows the side that is not running
// now having run and pressed since the last reading: its time moved from
// where it stood by what it can have used in the window plus its press's
// addition (a game started and its first move pressed between two
// readings of a bus line).
func (m *Model) startedAndPressed(exp [2]time.Duration, r Reading, t time.Time) bool {
	if m.noTiming || !m.tc.Timed() || m.host || r.Running == rules.NoColor || m.running != rules.NoColor || !m.lastAt.Before(t) {
		return false
	}
	x := r.Running.Other()
	got := r.Time(x)
	if near(got, exp[x&1], m.tol) {
		return false
	}
	p := m.tc.Period(m.period[x&1])
	ran := max(t.Sub(m.lastAt)-p.Delay, 0)
	return near(got, within(got, exp[x&1]+p.Increment-ran, exp[x&1]+p.Increment), m.tol)
}

// resetLike reports whether r looks like a clock reset: both sides back at
// least near the first period's time and both above expectation.
func (m *Model) resetLike(r Reading, exp [2]time.Duration) bool {
	if !m.tc.Timed() || m.moves[0]+m.moves[1] == 0 {
		return false
	}
	b := m.tc.Base()
	return near(r.White, b, m.tol) && near(r.Black, b, m.tol) && r.White > exp[0]+m.tol && r.Black > exp[1]+m.tol
}

// check compares side c's reported time with want; on a mismatch it
// reports and re-bases on the reported time.
func (m *Model) check(out []Event, c rules.Color, want time.Duration, r Reading, t time.Time, when string) []Event {
	got := r.Time(c)
	if near(got, want, m.tol) {
		return out
	}
	if m.noTiming && got < want {
		if c == m.running {
			m.runBase = got
		} else {
			m.base[c&1] = got
		}
		return out
	}
	kind, what := TimeJump, "lost"
	switch {
	case c == m.running && got == m.last.Time(c) && t.Sub(m.lastAt) > m.tol:
		kind, what = TimeFrozen, "did not count down"
	case got > want:
		kind, what = TimeAdded, "gained"
	}
	out = append(out, Inconsistency{At: t, Kind: kind, Side: c, Expected: want, Reported: got,
		Detail: fmt.Sprintf("%s's clock %s%s: expected %s, shows %s", c, what, when, fmtDur(want), fmtDur(got))})
	if c == m.running {
		m.runStart, m.runBase = t, got
	} else {
		m.base[c&1] = got
	}
	return out
}

// press handles side x pressing the clock (x's clock stops, the other's
// runs). Period additions are counted as credits against the boundaries
// passed, so a clock whose move counter differs from the moves completed
// is reported once, where it differs.
func (m *Model) press(out []Event, x rules.Color, exp [2]time.Duration, r Reading, t time.Time) []Event {
	xi := x & 1
	m.moves[xi]++
	n := m.moves[xi]
	idx, end := m.tc.PeriodAt(n - 1)
	p := m.tc.Period(idx)
	boundary := m.tc.Timed() && end > 0 && n == end
	if boundary {
		m.due[xi]++
	}
	got := r.Time(x)
	// The press happened between the last reading and this one: x's
	// display halted then, anywhere in that window (a bus line reads a
	// clock every second or so, not at the press). What x shows is
	// compared with the expectation at the moment of the window that
	// explains it best.
	early := exp[xi]
	if m.running == x && !m.noTiming && !m.lastAt.Before(m.runStart) && m.lastAt.Before(t) {
		early = m.expectRun(m.lastAt)
	}
	next := m.tc.Period(m.credited[xi] + 1)
	canAdd := m.tc.Timed() && (len(m.tc.Periods) > m.credited[xi]+1 || m.tc.Periods[len(m.tc.Periods)-1].Moves > 0)
	inc := p.Increment
	if m.host {
		// A host-controlled clock adds nothing; the increment itself
		// means the clock runs its own program again.
		if inc > m.tol && near(got-within(got-inc, exp[xi], early), inc, m.tol) {
			m.host = false
		} else {
			inc, canAdd = 0, false
			if boundary {
				// Nor the next period's time: the arbiter sets it by hand.
				m.credited[xi]++
				boundary = false
			}
		}
	}
	m.period[xi], _ = m.tc.PeriodAt(n)
	delta := got - within(got-inc, exp[xi], early)
	// Without real times the time x used is unknown: any loss is
	// accepted, a gain above the increment up to the next period's time
	// is read as the period's addition.
	deltaAdd := got - within(got-inc-next.Time, exp[xi], early)
	addsPeriod := canAdd && near(deltaAdd, inc+next.Time, m.tol)
	plain := near(delta, inc, m.tol) || (exp[xi] == 0 && got == 0)
	if m.noTiming {
		addsPeriod = canAdd && delta > inc+m.tol && delta <= inc+next.Time+m.tol
		plain = !addsPeriod && delta <= inc+m.tol
	}
	if !m.tc.Timed() {
		// Unknown control: what a press adds cannot be judged.
		addsPeriod, plain = false, true
	}
	switch {
	case addsPeriod:
		m.credited[xi]++
		newIdx := min(m.credited[xi], len(m.tc.Periods)-1)
		if m.credited[xi] > m.due[xi] {
			out = append(out, Inconsistency{At: t, Kind: TimeAdded, Side: x, Expected: exp[xi] + inc, Reported: got,
				Detail: fmt.Sprintf("the clock added the next period's %s after %s's move %d, before the period's moves were completed: its move counter differs (6.10.2, 8.6)", fmtDur(next.Time), x, n)})
		} else {
			m.missing[xi] = false
			out = append(out, PeriodChange{At: t, Side: x, Period: newIdx, Added: deltaAdd - inc, AfterMove: n})
		}
	case plain:
		if boundary && m.credited[xi] < m.due[xi] && !m.noTiming {
			m.missing[xi] = true
			out = append(out, Inconsistency{At: t, Kind: PeriodTimeMissing, Side: x, Expected: exp[xi] + inc + next.Time, Reported: got,
				Detail: fmt.Sprintf("%s completed move %d but the clock did not add %s for the next period (6.10.2; its move counter may differ, 8.6)", x, n, fmtDur(next.Time))})
		}
	default:
		out = m.mismatch(out, x, within(got-inc, exp[xi], early)+inc, got, t, "at the clock press")
	}
	y := x.Other()
	if !m.tc.Timed() || !m.tc.Periods[0].Sandclock {
		// y's time has run since the press, up to the whole window.
		want := exp[y&1]
		if !m.noTiming && m.lastAt.Before(t) {
			ran := t.Sub(m.lastAt)
			if !m.host {
				ran -= m.tc.Period(m.period[y&1]).Delay
			}
			want = within(r.Time(y), max(want-max(ran, 0), 0), want)
		}
		out = m.check(out, y, want, r, t, " at the clock press")
	}
	m.base = [2]time.Duration{r.White, r.Black}
	m.restart(y, t, r)
	return out
}

// mismatch reports side c showing got where want was expected.
func (m *Model) mismatch(out []Event, c rules.Color, want, got time.Duration, t time.Time, when string) []Event {
	kind, what := TimeJump, "lost"
	if got > want {
		kind, what = TimeAdded, "gained"
	}
	return append(out, Inconsistency{At: t, Kind: kind, Side: c, Expected: want, Reported: got,
		Detail: fmt.Sprintf("%s's clock %s time %s: expected %s, shows %s", c, what, when, fmtDur(want), fmtDur(got))})
}

// flags detects flag falls and both flags after reading r at t.
func (m *Model) flags(r Reading, t time.Time, out []Event) []Event {
	if m.tc.Untimed {
		return out
	}
	newly := 0
	for _, c := range [2]rules.Color{White, Black} {
		ci := c & 1
		down := r.Time(c) <= 0 || r.Flag(c)
		if !down {
			m.flagged[ci] = false
			continue
		}
		if m.flagged[ci] {
			continue
		}
		m.flagged[ci] = true
		newly++
		est := t
		if m.last.Running == c && m.lastAt.Before(t) {
			// The side ran from the last reading: it hit zero when its
			// expected time did.
			d := m.tc.Period(m.period[ci]).Delay
			if z := m.lastAt.Add(m.last.Time(c) + d); z.Before(t) {
				est = z
			}
		}
		m.flagAt[ci] = est
		idx, end := m.tc.PeriodAt(m.moves[ci])
		out = append(out, FlagFall{At: t, Estimated: est, Side: c, Period: idx,
			MovesDone: m.moves[ci], MovesRequired: end, PeriodTimeMissing: m.missing[ci]})
	}
	if !m.flagged[0] || !m.flagged[1] {
		m.both = false
		return out
	}
	if m.both {
		return out
	}
	m.both = true
	first := rules.NoColor
	d := m.flagAt[0].Sub(m.flagAt[1])
	if newly < 2 || d > m.tol || d < -m.tol {
		if d < 0 {
			first = White
		} else {
			first = Black
		}
	}
	return append(out, BothFlags{At: t, First: first, WhiteAt: m.flagAt[0], BlackAt: m.flagAt[1],
		LastPeriod: m.tc.IsLastPeriod(m.moves[0]) && m.tc.IsLastPeriod(m.moves[1])})
}

// within returns the value of [lo, hi] (in either order) nearest to v.
func within(v, lo, hi time.Duration) time.Duration {
	if lo > hi {
		lo, hi = hi, lo
	}
	return min(max(v, lo), hi)
}

// near reports whether a and b differ by at most tol.
func near(a, b, tol time.Duration) bool {
	d := a - b
	return d <= tol && d >= -tol
}

// fmtDur writes d as h:mm:ss (or m:ss), rounding down to the second.
func fmtDur(d time.Duration) string {
	neg := d < 0
	if neg {
		d = -d
	}
	s := int64(d / time.Second)
	out := fmt.Sprintf("%d:%02d", s/60, s%60)
	if s >= 3600 {
		out = fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	if neg {
		return "-" + out
	}
	return out
}

// FormatDuration writes d as the clock shows it: h:mm:ss, or m:ss below an
// hour.
func FormatDuration(d time.Duration) string { return fmtDur(d) }
