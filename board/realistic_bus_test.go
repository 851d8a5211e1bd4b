package board_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/board"
	"github.com/dgtbridge/dgtbridge/board/dgtfeed"
	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/adjudicator"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/clock"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// A DGT board on a bus line (docs/dgt-boards.md) is polled: every cycle
// (≈ 0.8 s on a line of 32 boards at 9600 baud) the host fetches the
// change records the board wrote since its previous answer (square
// changes as its scan saw them, and a clock record at each lever press
// that halted a display, in the order they happened), and between two
// polls of its changes it reads the board's clock when the cycle has time
// for it (dgt/bus: clocks fitted into the cycle, each about every second
// cycle). busPoll models that on top of a game the emulator played: the
// board's scan and the players' hands are the emulator's; what the host
// gets, and when, is the line's.

// busLine is how the line polls one board.
type busLine struct {
	cycle  time.Duration // the mean poll cycle
	jitter time.Duration // each cycle is longer by up to this
	// records: the answers carry the board's press records (false: as
	// the daemon read bus boards before, presses only from clock reads).
	records bool
	// clockEvery: the clock read at one cycle in clockEvery (an
	// overloaded line of that many boards reads one clock a round);
	// 0: two cycles in three.
	clockEvery int
	// repoll: an answer that held a press record is followed by another
	// poll of the board this long after it (0: none), as dgt/bus does
	// when its cycle has time for it.
	repoll time.Duration
}

// busFeed is one thing the host gets from the line: an answer's sensed
// reports (all stamped with the answer's time), or a clock reading.
type busFeed struct {
	at     time.Time
	sensed []game.Sensed
	tick   bool // an answer: Answered at its time once fed (the hall's glue)
}

// busPoll turns what the emulated board saw into what a bus line hands
// the host: answers at each poll with the records since the previous
// one, and clock readings between the polls.
func busPoll(p emu.Played, l busLine, seed uint64) []busFeed {
	r := rand.New(rand.NewPCG(seed, 0xb05))
	type rec struct {
		at time.Time
		s  game.Sensed
	}
	var recs []rec
	var clocks []rec
	for _, h := range p.Heard {
		switch m := h.Msg.(type) {
		case dgt.FieldUpdate:
			for _, s := range dgtfeed.Append(nil, m) {
				recs = append(recs, rec{h.At, s})
			}
		case dgt.ClockTimes:
			if !m.IsZero() {
				clocks = append(clocks, rec{h.At, dgtfeed.Face(m)})
			}
		}
	}
	if l.records {
		// At each press that halted the mover's display, the board's
		// record with the time it shows (White plays on the left).
		for _, ply := range p.Plies {
			if ply.Press.IsZero() {
				continue
			}
			d := game.LeftDisplay
			if ply.Ply%2 == 0 {
				d = game.RightDisplay
			}
			lp := game.LeverPress{Display: d}
			for _, c := range clocks {
				if f := c.s.(game.ClockFace); c.at.After(ply.Press) && f.Running != d {
					lp.Time = f.Left
					if d == game.RightDisplay {
						lp.Time = f.Right
					}
					break
				}
			}
			recs = append(recs, rec{ply.Press, lp})
		}
		sort.SliceStable(recs, func(i, j int) bool { return recs[i].at.Before(recs[j].at) })
	}
	var out []busFeed
	q := p.PowerUp.Add(time.Duration(r.Int64N(int64(l.cycle))))
	ri, ci, cycles := 0, 0, 0
	var lastFace game.Sensed
	answer := func(at time.Time) busFeed {
		a := busFeed{at: at, tick: true}
		for ; ri < len(recs) && !recs[ri].at.After(at); ri++ {
			a.sensed = append(a.sensed, recs[ri].s)
		}
		return a
	}
	for ri < len(recs) || q.Before(p.End) {
		a := answer(q)
		out = append(out, a)
		k := len(out)
		next := q.Add(l.cycle + time.Duration(r.Int64N(int64(l.jitter)+1)))
		from := q // the clock is read after the line's changes
		for pressed := a; l.repoll > 0 && from.Add(l.repoll).Before(next) && slices.ContainsFunc(pressed.sensed, isPress); {
			from = from.Add(l.repoll)
			pressed = answer(from)
			out = append(out, pressed)
		}
		cycles++
		read := k%3 != 2
		if l.clockEvery > 0 {
			read = cycles%l.clockEvery == 1
		}
		if read { // the clock read this cycle
			at := from.Add(time.Duration(r.Int64N(int64(next.Sub(from)) * 9 / 10)))
			for ; ci < len(clocks) && !clocks[ci].at.After(at); ci++ {
			}
			if ci > 0 && clocks[ci-1].s != lastFace {
				lastFace = clocks[ci-1].s
				out = append(out, busFeed{at: at, sensed: []game.Sensed{lastFace}})
			}
		}
		q = next
	}
	return out
}

func isPress(s game.Sensed) bool {
	_, ok := s.(game.LeverPress)
	return ok
}

// playBus plays moves with hands on an emulated board polled on a bus
// line and follows it with a tracker set up as the hall sets up a bus
// board (Polled, ScanPeriod the poll cycle; polled false: as before, the
// tracker's defaults). latency[i] is from the first answer that held both
// ply i+1's press and its whole move (emu Ply.Settled) to its
// MoveCompleted.
func playBus(t testing.TB, start rules.Position, moves []rules.Move, hands emu.Hands, seed uint64, l busLine, polled bool) realGame {
	t.Helper()
	p, err := emu.Play(emu.Game{Start: start, Moves: moves, Hands: hands, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := ruleset.Lookup("fide2018-standard")
	if err != nil {
		t.Fatal(err)
	}
	o := board.TrackerOptions{Start: start, AutoOrientation: true, KingsCentre: true, Setup: board.ChessSetup(chess.Standard)}
	if polled {
		o.Polled, o.ScanPeriod = true, l.cycle+l.jitter
	}
	tr, err := board.New(o)
	if err != nil {
		t.Fatal(err)
	}
	// White plays on the left display (emu's default), as the hall knows
	// once the clock has run before the first move; a clock read every
	// other cycle may first show it running after White's first press.
	tr.SetClockSides(rules.White)
	adj := adjudicator.New(adjudicator.GameInfo{ID: game.ID{Event: "bus", Round: 1, Board: 1}}, rs,
		adjudicator.Options{TimeControl: clock.MustParse("5400+30"), Start: start})
	g := realGame{played: p, latency: make([]time.Duration, len(moves))}
	completedAt := make([]time.Time, len(moves))
	handle := func(at time.Time, evs []game.Event) { g.take(at, evs, adj, completedAt) }
	until := func(end time.Time) { tickUntil(tr, end, handle) }
	feed := busPoll(p, l, seed)
	var answers []time.Time
	for _, f := range feed {
		until(f.at)
		for _, s := range f.sensed {
			handle(f.at, tr.Sense(f.at, s))
		}
		if f.tick {
			answers = append(answers, f.at)
			handle(f.at, tr.Answered(f.at, f.at))
		}
	}
	until(p.End)
	handle(p.End, tr.Finish(p.End))
	g.moves = record(g.evs)
	for i, ply := range p.Plies {
		g.latency[i] = -1
		if completedAt[i].IsZero() || ply.Press.IsZero() {
			continue
		}
		from := ply.Press
		if ply.Settled.After(from) {
			from = ply.Settled
		}
		k := sort.Search(len(answers), func(j int) bool { return !answers[j].Before(from) })
		if k < len(answers) {
			g.latency[i] = max(completedAt[i].Sub(answers[k]), 0)
		}
	}
	return g
}

// TestBusBoardPressJudgedOnItsAnswer plays real games with realistic,
// lawful hands on boards polled on a bus line (a poll every 0.8–0.86 s,
// the clock read two cycles in three): every record must be exact, the
// tracker raise no alert (the clock model's reading of the sparse clock
// readings, clock_setting and clock_defect, is left to rules/clock), and a
// move be completed on the answer that holds its press and its whole move
// (the board reports everything it saw up to the poll: no scan to wait
// for), or on the next one when that answer cannot tell (the move's last
// square may not be scanned yet: a slide's resting square, pieces in the
// air, a reply made too): at least 70 % on their own answer, 99 % within
// one poll cycle more. The same games as the daemon read bus boards
// before (presses only from clock readings, the tracker's defaults) are
// logged for comparison.
func TestBusBoardPressJudgedOnItsAnswer(t *testing.T) {
	line := busLine{cycle: 800 * time.Millisecond, jitter: 60 * time.Millisecond, records: true}
	var before corpusResult
	lat := playBusCorpus(t, line, "bus line, press records", corpusGames(40, 150), &before)
	onTime := 0
	for _, l := range lat {
		if l == 0 {
			onTime++
		}
	}
	cycle := line.cycle + line.jitter
	if p99 := percentile(lat, 0.99); onTime*10 < len(lat)*7 || p99 > cycle*11/10 {
		t.Errorf("%d of %d moves completed on the answer that held their press and move (want ≥ 70 %%); p99 %v after it (want ≤ %v)", onTime, len(lat), p99, cycle*11/10)
	}
	t.Logf("%d of %d moves completed on their answer; the others: p99 %v, max %v after it", onTime, len(lat), percentile(lat, 0.99), percentile(lat, 1))
	t.Logf("as before (clock reads only, tracker defaults): %d of %d games exact, %d problems; answer → MoveCompleted p50 %v, p99 %v, max %v",
		before.exact, before.games, len(before.problems), percentile(before.latencies, 0.5), percentile(before.latencies, 0.99), percentile(before.latencies, 1))
}

// TestBusBoardRepolledAfterPress: the same games on the same line, where
// an answer that held a press is followed by another poll of the board
// 300 ms later (dgt/bus does so when its cycle has room). A move its own
// answer could not tell (a piece a sliding hand may have carried on: the
// lever may have beaten the scan of its last square) is judged on that
// second answer (Tracker.Answered), one board scan later, instead of one
// poll cycle later: every record exact, no alert, and 99 % of the moves
// completed within 400 ms of the first answer that held their press and
// their whole move (before Answered: 859 ms, the next poll).
func TestBusBoardRepolledAfterPress(t *testing.T) {
	line := busLine{cycle: 800 * time.Millisecond, jitter: 60 * time.Millisecond, records: true, repoll: 300 * time.Millisecond}
	lat := playBusCorpus(t, line, "bus line, press records, re-polled", corpusGames(40, 150), nil)
	if p99 := percentile(lat, 0.99); p99 > 400*time.Millisecond {
		t.Errorf("p99 %v from the first answer that held a move's press and whole move to its completion (want ≤ 400 ms: the re-poll 300 ms after it)", p99)
	}
	t.Logf("%d moves: p50 %v, p99 %v, max %v after the first answer that held their press and move", len(lat), percentile(lat, 0.5), percentile(lat, 0.99), percentile(lat, 1))
}

// playBusCorpus plays n corpus games with realistic
// lawful hands on line and checks every record exact and no alert but the
// clock model's one (below). It returns the latencies of the moves (from
// the first answer that held their press and whole move to their
// completion), the games' last moves left out (Finish may complete them).
// before, when not nil, gets the same games read as the daemon read bus
// boards before press records (clock readings only, tracker defaults).
func playBusCorpus(t *testing.T, line busLine, what string, n int, before *corpusResult) []time.Duration {
	games := board.LoadCorpus(t, n)
	var res corpusResult
	// No alert is allowed (the clock model places each press in the window
	// between two readings, rules/clock) but one: the clock's first
	// running reading, read every other cycle, may come after White's
	// first press, and the clock model then judges its time (with the
	// increment) against the control at ply 0 (game 147 of the full run;
	// in DECISIONS.md for rules/clock).
	clockModel := func(a game.Alert, _ emu.Ply) bool { return a.Kind == game.KindClockSetting && a.Ply == 0 }
	var mu sync.Mutex
	var lat []time.Duration
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Go(func() {
			for i := w; i < len(games); i += 2 {
				g := games[i]
				moves, want := board.MainLine(t, g)
				name := fmt.Sprintf("game %d (seed %d)", g.Index, i+1)
				rg := playBus(t, g.Start, moves, lawfulHands(), uint64(i+1), line, true)
				res.add(name, want, rg, clockModel)
				mu.Lock()
				for ply, l := range rg.latency {
					if l >= 0 && ply+1 < len(want) { // the last move may be completed by Finish
						lat = append(lat, l)
					}
				}
				mu.Unlock()
				if before != nil {
					old := line
					old.records = false
					before.add(name, want, playBus(t, g.Start, moves, lawfulHands(), uint64(i+1), old, false), func(game.Alert, emu.Ply) bool { return true })
				}
			}
		})
	}
	wg.Wait()
	res.report(t, what)
	return lat
}

// TestBusBoardClockReadSeldom (no false alert under overload):
// the games of TestBusBoardPressJudgedOnItsAnswer on a bus line that
// reads a board's clock once every 32 cycles (about 26 s: a line of 32
// boards whose polls fill the cycle reads one clock a round, as dgt/bus
// does on a host overloaded by the 2,000-board load test and six busy
// loops), the presses still in every answer's records. Every record is
// exact and no alert is raised: the clock model counts the moves
// completed since its last reading as the presses that reading shows.
// Before, it found the dozen presses of a reading's gap from the times
// alone, up to six, and reported both sides' increments as time gained
// (the load test's 1,516 false clock_setting warnings).
func TestBusBoardClockReadSeldom(t *testing.T) {
	line := busLine{cycle: 800 * time.Millisecond, jitter: 60 * time.Millisecond, records: true, clockEvery: 32}
	playBusCorpus(t, line, "bus line, clock read every 32 cycles", corpusGames(20, 60), nil)
}

// corpusGames is how many corpus games a test plays: short with -short,
// else full.
func corpusGames(short, full int) int {
	if testing.Short() {
		return short
	}
	return full
}
