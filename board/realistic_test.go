package board_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
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

// take keeps the tracker's events at time at, the alerts the adjudicator
// raises on them, and when each ply was completed.
func (g *realGame) take(at time.Time, evs []game.Event, adj *adjudicator.Adjudicator, completedAt []time.Time) {
	for _, ev := range evs {
		g.evs = append(g.evs, ev)
		if mc, ok := ev.(game.MoveCompleted); ok && mc.Ply <= len(completedAt) {
			completedAt[mc.Ply-1] = at
		}
		for _, v := range adj.Handle(ev) {
			if a, ok := v.(game.Alert); ok {
				g.alerts = append(g.alerts, a)
			}
		}
	}
}

// tickUntil lets time pass as the tracker asks (NextDeadline) up to end,
// handing each tick's events to handle: the figures are the tracker's
// own, not a wiring's tick.
func tickUntil(tr *board.Tracker, end time.Time, handle func(time.Time, []game.Event)) {
	for {
		d, ok := tr.NextDeadline()
		if !ok || !d.Before(end) {
			return
		}
		handle(d, tr.Tick(d))
	}
}

// realGame is one game played by emulated hands on an emulated board
// (dgt/emu: a real board's scan, real players' habits) and followed by a
// tracker and an adjudicator as the daemon follows a board.
type realGame struct {
	moves  []string // the record, UCI
	alerts []game.Alert
	evs    []game.Event
	// latency[i]: from the moment ply i+1 was both reported by the board
	// and pressed (the later of the two) to its MoveCompleted, in
	// simulated time; -1 when it was never completed.
	latency []time.Duration
	played  emu.Played
	scan    time.Duration // the scan period the tracker learnt
}

// playReal plays moves from start with hands and seed and follows them.
func playReal(t testing.TB, start rules.Position, moves []rules.Move, hands emu.Hands, seed uint64, rsName string) realGame {
	t.Helper()
	p, err := emu.Play(emu.Game{Start: start, Moves: moves, Hands: hands, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return followReal(t, start, moves, p, p.Heard, nil, rsName)
}

// followReal follows the game p played with a tracker and an adjudicator,
// fed heard (p.Heard, or the same messages delivered otherwise); time
// passes as the tracker asks up to each message, or only up to
// ticksTo[k] before message k when given (a reader stalled since then: no
// tick either until it delivers).
func followReal(t testing.TB, start rules.Position, moves []rules.Move, p emu.Played, heard []emu.Heard, ticksTo []time.Time, rsName string) realGame {
	t.Helper()
	rs, err := ruleset.Lookup(rsName)
	if err != nil {
		t.Fatal(err)
	}
	v := chess.Standard
	if start.Variant() == "chess960" {
		v = chess.Chess960
	}
	tr, err := board.New(board.TrackerOptions{Start: start, AutoOrientation: true, KingsCentre: true,
		Setup: board.ChessSetup(v), IllegalStands: rs.IllegalMovesStand()})
	if err != nil {
		t.Fatal(err)
	}
	adj := adjudicator.New(adjudicator.GameInfo{ID: game.ID{Event: "corpus", Round: 1, Board: 1}}, rs,
		adjudicator.Options{TimeControl: clock.MustParse("5400+30"), Start: start})
	g := realGame{played: p, latency: make([]time.Duration, len(moves))}
	completedAt := make([]time.Time, len(moves))
	handle := func(at time.Time, evs []game.Event) { g.take(at, evs, adj, completedAt) }
	// Time passes as the tracker asks (NextDeadline): the figures are the
	// tracker's own, not a wiring's tick.
	until := func(end time.Time) { tickUntil(tr, end, handle) }
	if ticksTo != nil {
		handle(p.PowerUp, tr.Tick(p.PowerUp)) // a wiring that ticks (the hall: every 50 ms)
	}
	for k, h := range heard {
		if ticksTo != nil {
			until(ticksTo[k])
		} else {
			until(h.At)
		}
		for _, s := range dgtfeed.Append(nil, h.Msg) {
			handle(h.At, tr.Sense(h.At, s))
		}
	}
	until(p.End)
	handle(p.End, tr.Finish(p.End))
	g.moves = record(g.evs)
	g.scan = tr.ScanPeriodLearnt()
	reported := reportTimes(p)
	for i := range moves {
		g.latency[i] = -1
		if completedAt[i].IsZero() {
			continue
		}
		from := reported[i]
		if pr := p.Plies[i].Press; pr.After(from) {
			from = pr
		}
		g.latency[i] = max(completedAt[i].Sub(from), 0)
	}
	return g
}

// reportTimes returns, per ply, when the host heard the last square change
// of the move: the first message heard once the board's scan had caught
// up with the move (emu Ply.Settled), or the last change heard before.
func reportTimes(p emu.Played) []time.Time {
	out := make([]time.Time, len(p.Plies))
	for i, ply := range p.Plies {
		for _, h := range p.Heard {
			if _, ok := h.Msg.(dgt.FieldUpdate); !ok {
				continue
			}
			if h.At.After(ply.Settled.Add(10 * time.Millisecond)) {
				break
			}
			if !h.At.Before(ply.Touch) {
				out[i] = h.At
			}
		}
		if out[i].IsZero() {
			out[i] = ply.Settled
		}
	}
	return out
}

// record returns the completed moves the events leave in the record.
func record(evs []game.Event) []string {
	var out []string
	for _, e := range evs {
		switch e := e.(type) {
		case game.MoveCompleted:
			out = append(out[:min(len(out), e.Ply-1)], e.UCI)
		case game.Correction:
			out = out[:min(len(out), e.Ply)]
		}
	}
	return out
}

// lawfulHands are DefaultHands without the habits that break the letter
// of the Laws (castling rook first, castling or capturing with two hands:
// FIDE 2018 4.4.2, 4.1), which a tracker rightly notes as touch-move
// evidence.
func lawfulHands() emu.Hands {
	h := emu.DefaultHands()
	h.RookFirst, h.CastleBoth, h.CaptureBoth = 0, 0, 0
	return h
}

// corpusResult sums a corpus run.
type corpusResult struct {
	mu        sync.Mutex
	games     int
	exact     int
	plies     int
	latencies []time.Duration
	problems  []string
}

func (r *corpusResult) add(name string, want []string, g realGame, allowed func(game.Alert, emu.Ply) bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.games++
	r.plies += len(want)
	if slices.Equal(g.moves, want) {
		r.exact++
	} else {
		d := 0
		for d < len(want) && d < len(g.moves) && want[d] == g.moves[d] {
			d++
		}
		r.problems = append(r.problems, fmt.Sprintf("%s: the record differs at ply %d: got %v, want %v", name, d+1, around(g.moves, d), around(want, d)))
	}
	for _, a := range g.alerts {
		if a.Severity == game.Info {
			continue
		}
		var ply emu.Ply
		if a.Ply >= 1 && a.Ply <= len(g.played.Plies) {
			ply = g.played.Plies[a.Ply-1]
		}
		if endOfGame(a, len(want)) {
			continue // the game really ended so: a true alert
		}
		if allowed == nil || !allowed(a, ply) {
			r.problems = append(r.problems, fmt.Sprintf("%s: %s %s at ply %d (habits %s): %s", name, a.Severity, a.Kind, a.Ply, ply.Habits, a.Message))
		}
	}
	for _, l := range g.latency {
		if l >= 0 {
			r.latencies = append(r.latencies, l)
		}
	}
}

// endOfGame reports whether a is the alert of how a game of n plies really
// ended (checkmate, stalemate, an automatic draw) at its last ply.
func endOfGame(a game.Alert, n int) bool {
	switch a.Kind {
	case game.KindCheckmate, game.KindStalemate, game.KindDeadPosition, game.KindFivefold, game.KindSeventyFive:
		return a.Ply == n
	}
	return false
}

func around(s []string, i int) []string { return s[max(0, i-2):min(len(s), i+3)] }

// percentile returns the p-th percentile of ds (sorted in place).
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[min(len(ds)-1, int(p*float64(len(ds))))]
}

func (r *corpusResult) report(t *testing.T, label string) {
	t.Helper()
	for i, p := range r.problems {
		if i == 30 {
			t.Errorf("… %d more", len(r.problems)-30)
			break
		}
		t.Error(p)
	}
	t.Logf("%s: %d of %d games exact, %d plies; report → MoveEvent p50 %v, p99 %v, max %v", label, r.exact, r.games, r.plies,
		percentile(r.latencies, 0.5), percentile(r.latencies, 0.99), percentile(r.latencies, 1))
}

// corpusSize is how many real games the realistic corpus plays: a sample
// under -short, every one in the full suite.
func corpusSize() int {
	if testing.Short() {
		return 60
	}
	return 400
}

// TestRealisticCorpus plays real games (the corpus of corpus_test.go)
// with realistic hands on a board with a real board's scan (dgt/emu:
// DefaultHands without the habits that break the Laws; the lever often
// beats the scan) through the tracker and the adjudicator: every game's
// record must be exact and no crit or warn alert may be raised.
func TestRealisticCorpus(t *testing.T) {
	games := board.LoadCorpus(t, corpusSize())
	var res corpusResult
	const workers = 2
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(games); i += workers {
				g := games[i]
				moves, want := board.MainLine(t, g)
				res.add(fmt.Sprintf("game %d (seed %d)", g.Index, i+1), want, playReal(t, g.Start, moves, lawfulHands(), uint64(i+1), "fide2018-standard"), nil)
			}
		})
	}
	wg.Wait()
	res.report(t, "lawful hands")
}

// TestRealisticCorpusAllHabits: the same games with every habit of real
// players (castling rook first, two hands): every record exact; the only
// crit or warn alerts are the touch-move evidence those habits are.
func TestRealisticCorpusAllHabits(t *testing.T) {
	games := board.LoadCorpus(t, corpusSize())
	var res corpusResult
	allowed := func(a game.Alert, ply emu.Ply) bool {
		return a.Kind == game.KindTouchMove && ply.Habits&(emu.HabitRookFirst|emu.HabitCastleBoth|emu.HabitCaptureBoth) != 0
	}
	const workers = 2
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(games); i += workers {
				g := games[i]
				moves, want := board.MainLine(t, g)
				res.add(fmt.Sprintf("game %d (seed %d)", g.Index, i+1001), want, playReal(t, g.Start, moves, emu.DefaultHands(), uint64(i+1001), "fide2018-standard"), allowed)
			}
		})
	}
	wg.Wait()
	res.report(t, "all habits")
}

var _ = strings.Join

// randomGame plays plies legal moves from start, chosen by seed: castling
// whenever it is legal (so that Chess960 castling, with the king held in
// the hand, comes up in most games), captures often, otherwise any move.
func randomGame(t testing.TB, start rules.Position, plies int, seed uint64) []rules.Move {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 960))
	var moves []rules.Move
	pos := start
	var buf []rules.Move
	for len(moves) < plies && pos.Status() == rules.Ongoing {
		buf = pos.LegalMoves(buf[:0])
		var castles, captures []rules.Move
		for _, m := range buf {
			switch {
			case m.IsCastle():
				castles = append(castles, m)
			case m.IsCapture():
				captures = append(captures, m)
			}
		}
		m := buf[r.IntN(len(buf))]
		switch {
		case len(castles) > 0:
			m = castles[r.IntN(len(castles))]
		case len(captures) > 0 && r.IntN(3) == 0:
			m = captures[r.IntN(len(captures))]
		}
		next, err := pos.Play(m)
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, m)
		pos = next
	}
	return moves
}

// TestRealisticChess960: Chess960 games (random play from drawn start
// arrays, castling whenever it is legal) with realistic hands, the king
// held in the hand during castling as the FIDE guidelines recommend: every
// record exact, no crit or warn alert.
func TestRealisticChess960(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 12
	}
	var res corpusResult
	holds := 0
	for i := range n {
		seed := uint64(9600 + i)
		start := chess.Chess960Start(int(seed % 960))
		moves := randomGame(t, start, 60, seed)
		want := make([]string, len(moves))
		pos := rules.Position(start)
		for j, m := range moves {
			want[j] = pos.UCI(m)
			pos, _ = pos.Play(m)
		}
		g := playReal(t, start, moves, lawfulHands(), seed, "bgo2026-960")
		for _, p := range g.played.Plies {
			if p.Habits&emu.HabitKingHold != 0 {
				holds++
			}
		}
		res.add(fmt.Sprintf("960 game %d (seed %d)", i, seed), want, g, nil)
	}
	res.report(t, "chess960")
	if holds < n/3 {
		t.Errorf("only %d castlings with the king held in the hand", holds)
	}
}

// TestLeverBeforeScan: players who press the clock 10–40 ms after
// releasing the piece, always before the board's next scan has reported
// where it landed, on boards with real scan periods (200–250 ms) and
// phases: the tracker learns each board's period from its reports (until
// it has, a DGT board's longest, 250 ms), judges each press once the scan
// that followed it has reported the board, and reads every game exactly,
// without a false alert, completing each move within one scan period (and
// a little for the line) of the later of the press and the board's
// report.
func TestLeverBeforeScan(t *testing.T) {
	games := board.LoadCorpus(t, 24)
	hands := emu.TidyHands()
	hands.Press = emu.Span{Min: 10 * time.Millisecond, Max: 40 * time.Millisecond}
	var res corpusResult
	learnt := 0
	const defaultScan = 250 * time.Millisecond // TrackerOptions.ScanPeriod's default
	for i, g := range games {
		moves, want := board.MainLine(t, g)
		seed := uint64(500 + i)
		rg := playReal(t, g.Start, moves, hands, seed, "fide2018-blitz")
		res.add(fmt.Sprintf("game %d (seed %d)", g.Index, seed), want, rg, nil)
		scan := rg.played.Board.ScanPeriod
		if rg.scan != 0 {
			learnt++
			if d := rg.scan - scan; d < -time.Millisecond || d > time.Millisecond {
				t.Errorf("game %d: learnt a scan period of %v, the board's is %v", g.Index, rg.scan, scan)
			}
		}
		late := 0
		// A scan period, the tracker's margin for the reports to cross
		// the line, and the clock message's own 10 bytes at 9600 baud.
		bound := defaultScan + defaultScan/10 + 11*time.Millisecond
		for j, l := range rg.latency {
			if rg.played.Plies[j].Press.Before(rg.played.Plies[j].Settled) {
				late++
			}
			if l > bound {
				t.Errorf("game %d ply %d: completed %v after the board reported it (scan %v)", g.Index, j+1, l, scan)
			}
		}
		if late*2 < len(moves) {
			t.Errorf("game %d: only %d of %d presses beat the scan", g.Index, late, len(moves))
		}
	}
	res.report(t, "lever before the scan")
	if learnt < len(games)*3/4 {
		t.Errorf("the scan period was learnt on %d of %d boards", learnt, len(games))
	}
}
