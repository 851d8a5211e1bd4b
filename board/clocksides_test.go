package board

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestPolledClockSidesFromAFaceAfterThePress: a bus line reads
// a board's clock and its changes apart, so the first clock face of a game
// may come after White's first move and press, before the answer that
// holds them (the right display, Black's, running). The clock's sides are
// not guessed from that face (the record's side to move, White, would be
// taken for the running side: the sides the wrong way round for the whole
// game, every later press read as the opponent's), but from a face read
// with the board at rest and confirmed by the next answer; the press
// records complete the moves meanwhile, with no reading heard (none made
// up). No press is read as one without a move.
func TestPolledClockSidesFromAFaceAfterThePress(t *testing.T) {
	p := newPolledScript(t)
	const base = 90 * time.Minute
	wp := rules.Piece{Color: rules.White, Kind: rules.Pawn}
	bp := rules.Piece{Color: rules.Black, Kind: rules.Pawn}
	p.answer(0)
	// White (left display) moves e2e4 and presses at 1.3 s; the line reads
	// the clock at 1.5 s, the board's changes at 1.6 s.
	p.face(1500, base-1300*time.Millisecond, base, game.RightDisplay)
	p.answer(1600, game.SquareChange{Square: p.sq("e2")}, game.SquareChange{Square: p.sq("e4"), Piece: wp},
		game.LeverPress{Display: game.LeftDisplay, Time: base - 1300*time.Millisecond})
	p.answer(2400)
	p.face(2500, base-1300*time.Millisecond, base-1200*time.Millisecond, game.RightDisplay)
	p.answer(3200)
	// Black moves e7e5 and presses at 3.9 s.
	p.answer(4000, game.SquareChange{Square: p.sq("e7")}, game.SquareChange{Square: p.sq("e5"), Piece: bp},
		game.LeverPress{Display: game.RightDisplay, Time: base - 2600*time.Millisecond})
	p.face(4100, base-1500*time.Millisecond, base-2600*time.Millisecond, game.LeftDisplay)
	p.answer(4800)
	p.tick(8000)

	if got := p.tr.ClockSides(); got != rules.White {
		t.Errorf("clock's left display taken for %v's, want White's", got)
	}
	if done, want := p.completed(""), []string{"white e2e4", "black e7e5"}; strings.Join(done, ", ") != strings.Join(want, ", ") {
		t.Errorf("completed %q, want %q", done, want)
	}
}

// TestPolledPressRecordsWithNoReading: a polled board's press
// records complete its moves when no running reading has been heard yet
// (its clock not read yet on a busy line, or a board just read as a log):
// before, they were dropped and each move waited for a clock reading, the
// game's last one for good. The moves get no clock reading (none heard).
func TestPolledPressRecordsWithNoReading(t *testing.T) {
	p := newPolledScript(t)
	const base = 90 * time.Minute
	wn := rules.Piece{Color: rules.White, Kind: rules.Knight}
	bn := rules.Piece{Color: rules.Black, Kind: rules.Knight}
	p.answer(0)
	p.answer(1600, game.SquareChange{Square: p.sq("g1")}, game.SquareChange{Square: p.sq("f3"), Piece: wn},
		game.LeverPress{Display: game.LeftDisplay, Time: base - time.Second})
	p.answer(2400)
	p.answer(4000, game.SquareChange{Square: p.sq("g8")}, game.SquareChange{Square: p.sq("f6"), Piece: bn},
		game.LeverPress{Display: game.RightDisplay, Time: base - 2*time.Second})
	p.answer(4800)
	p.tick(8000)
	for _, ev := range p.evs {
		if ev, ok := ev.(game.MoveCompleted); ok && ev.Clock != nil {
			t.Errorf("ply %d completed with reading %+v, none was heard", ev.Ply, *ev.Clock)
		}
	}
	if done, want := p.completed(""), []string{"white g1f3", "black g8f6"}; strings.Join(done, ", ") != strings.Join(want, ", ") {
		t.Errorf("completed %q, want %q", done, want)
	}
}

// wantSides checks that tr took the clock's left display for White's when
// whiteLeft, else for Black's (when: said in the error after "white left").
func wantSides(t *testing.T, tr *Tracker, whiteLeft bool, when string) {
	t.Helper()
	want := rules.White
	if !whiteLeft {
		want = rules.Black
	}
	if got := tr.ClockSides(); got != want {
		t.Errorf("white left %v%s: clock's left display taken for %v's, want %v's", whiteLeft, when, got, want)
	}
}

// polledClockGame plays moves on a polled board whose clock is read
// every poll cycle between the board's answers, as a bus line does: the
// clock started at 0.5 s, each move made and pressed think(ply) after the
// previous press (the first move think(0) after the start), the board's
// changes answered every 800 ms (ScanPeriod) and the clock's face read
// 400 ms after each answer. whiteLeft says where White's display is; the
// press record of ply lost (0: none) is lost on the line. It returns the
// events and the tracker.
func polledClockGame(t *testing.T, moves []string, think func(ply int) time.Duration, whiteLeft bool, lost int) ([]game.Event, *Tracker) {
	t.Helper()
	start := chess.StartPosition(chess.Standard)
	tr, err := New(TrackerOptions{Start: start, Polled: true, ScanPeriod: 800 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	type input struct {
		at time.Time
		s  game.Sensed
	}
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	secs := func(d time.Duration) time.Duration { return (d + time.Second - 1).Truncate(time.Second) }
	// The clock: White's display runs from 0.5 s.
	const base = 90 * time.Minute
	rem := [2]time.Duration{base, base}
	running, since := rules.White, 500*time.Millisecond
	display := func(c rules.Color) game.Display {
		if (c == rules.White) == whiteLeft {
			return game.LeftDisplay
		}
		return game.RightDisplay
	}
	var changes []input
	pos := rules.Position(start)
	press := since
	for i, u := range moves {
		m, err := pos.ParseMove(u)
		if err != nil {
			t.Fatal(err)
		}
		from, to := m.From, m.To
		pc := pos.Placement().Sq[from]
		press += think(i)
		changes = append(changes,
			input{at(press - 600*time.Millisecond), game.SquareChange{Square: from}},
			input{at(press - 300*time.Millisecond), game.SquareChange{Square: to, Piece: pc}})
		mover := pos.Turn()
		rem[mover] -= press - since
		if i+1 != lost {
			changes = append(changes, input{at(press), game.LeverPress{Display: display(mover), Time: secs(rem[mover])}})
		}
		running, since = mover.Other(), press
		pos, _ = pos.Play(m)
		_ = running
	}
	// Replay the clock for the faces.
	face := func(d time.Duration) game.ClockFace {
		r := [2]time.Duration{base, base}
		run, from := rules.White, 500*time.Millisecond
		p := 500 * time.Millisecond
		for i := range moves {
			p += think(i)
			if p > d {
				break
			}
			r[run] -= p - from
			run, from = run.Other(), p
		}
		if d >= 500*time.Millisecond {
			r[run] -= d - from
		}
		f := game.ClockFace{Running: display(run), LeftIs: rules.NoColor}
		f.Left, f.Right = secs(r[rules.White]), secs(r[rules.Black])
		if !whiteLeft {
			f.Left, f.Right = f.Right, f.Left
		}
		return f
	}
	var evs []game.Event
	next := 0
	end := press + 4*time.Second
	for a := 800 * time.Millisecond; a <= end; a += 800 * time.Millisecond {
		for ; next < len(changes) && !changes[next].at.After(at(a)); next++ {
			evs = append(evs, tr.Sense(at(a), changes[next].s)...)
		}
		evs = append(evs, tr.Tick(at(a))...)
		evs = append(evs, tr.Sense(at(a+400*time.Millisecond), face(a+400*time.Millisecond))...)
	}
	return append(evs, tr.Tick(at(end+8*time.Second))...), tr
}

// TestPolledClockSidesOnABoardSeldomAtRest: a polled board
// whose players move 0.9 and 1.7 s after each other's press is never at rest
// for the two poll cycles a face's guess waits for; its clock's sides come
// from its press records' times (the presser's display stands at the
// record's time) once the players' times are apart by more than the
// displays' second, White on the left or on the right. Before, they were
// never known: no face was fed all game and every move went without a
// clock time. Once they are, the first reading passed on says the
// readings before it were not seen (Resync), and the moves get clock
// times; every press completes its move.
func TestPolledClockSidesOnABoardSeldomAtRest(t *testing.T) {
	moves := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5", "c2c3", "d7d6", "b1d2", "a7a6"}
	for _, whiteLeft := range []bool{true, false} {
		think := func(ply int) time.Duration { return time.Duration(900+800*(ply%2)) * time.Millisecond }
		evs, tr := polledClockGame(t, moves, think, whiteLeft, 0)
		wantSides(t, tr, whiteLeft, "")
		var done []string
		changed, resyncs := 0, 0
		for _, ev := range evs {
			switch ev := ev.(type) {
			case game.MoveCompleted:
				done = append(done, ev.UCI)
				if ev.Clock == nil && ev.Ply > len(moves)-4 {
					t.Errorf("white left %v: ply %d completed without a clock reading", whiteLeft, ev.Ply)
				}
			case game.ClockChanged:
				if changed++; ev.Resync {
					resyncs++
					if changed != 1 {
						t.Errorf("white left %v: reading %d passed on with Resync, want only the first", whiteLeft, changed)
					}
				}
			case game.ClockWithoutMove:
				t.Errorf("white left %v: %v's press read as one without a move at %v", whiteLeft, ev.Side, ev.At.Sub(t0))
			}
		}
		if strings.Join(done, " ") != strings.Join(moves, " ") {
			t.Errorf("white left %v: completed %q, want %q", whiteLeft, done, moves)
		}
		if resyncs != 1 {
			t.Errorf("white left %v: %d readings passed on with Resync, want the first one", whiteLeft, resyncs)
		}
	}
}

// TestPolledClockSidesReadEveryCycle: a polled board whose
// clock is read every poll cycle gets its sides from the faces read while
// it rests with nothing new for two cycles (the clock started, White
// thinking 3 s), however often the clock is read. Before, each face
// restarted the two cycles' wait, so a clock read every cycle never gave
// its sides and a line of a few boards fed no reading all game (a clock
// stopped at the game's end then judged against the start times: false
// clock_setting warnings in TestNoisyLinesEndToEnd).
func TestPolledClockSidesReadEveryCycle(t *testing.T) {
	moves := []string{"d2d4", "d7d5", "c2c4", "e7e6"}
	for _, whiteLeft := range []bool{true, false} {
		think := func(int) time.Duration { return 3 * time.Second }
		_, tr := polledClockGame(t, moves[:0], think, whiteLeft, 0)
		wantSides(t, tr, whiteLeft, ", before the first move")
		evs, tr := polledClockGame(t, moves, think, whiteLeft, 0)
		wantSides(t, tr, whiteLeft, "")
		for _, ev := range evs {
			if ev, ok := ev.(game.MoveCompleted); ok && ev.Clock == nil {
				t.Errorf("white left %v: ply %d completed without a clock reading", whiteLeft, ev.Ply)
			}
		}
	}
}

// TestPolledPressRecordLost: a polled board's press record lost
// on a noisy line (ply 6's, Black's) while the clock's sides are not
// known does not turn the later presses round: each player's records name
// the same display, so the records after the loss are credited to their
// pressers, every move is completed (the game's last one by its press),
// and the sides read from the records' times are right. Before, each later
// record went to the other player (the turns counted from the game's
// start), the sides were read the wrong way round from them, and the
// last press completed nothing (TestRunNoisyLines, game noise.1.2).
func TestPolledPressRecordLost(t *testing.T) {
	moves := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5", "c2c3", "d7d6", "b1d2", "a7a6", "h2h3", "h7h6"}
	think := func(ply int) time.Duration { return time.Duration(900+800*(ply%2)) * time.Millisecond }
	for _, whiteLeft := range []bool{true, false} {
		evs, tr := polledClockGame(t, moves, think, whiteLeft, 6)
		wantSides(t, tr, whiteLeft, "")
		var done []string
		for _, ev := range evs {
			switch ev := ev.(type) {
			case game.MoveCompleted:
				done = append(done, ev.Side.String()+" "+ev.UCI)
			case game.ClockWithoutMove:
				t.Errorf("white left %v: %v's press read as one without a move at %v", whiteLeft, ev.Side, ev.At.Sub(t0))
			}
		}
		var wantDone []string
		for i, u := range moves {
			wantDone = append(wantDone, [2]string{"white", "black"}[i%2]+" "+u)
		}
		if strings.Join(done, ", ") != strings.Join(wantDone, ", ") {
			t.Errorf("white left %v: completed %q, want %q", whiteLeft, done, wantDone)
		}
	}
}

// TestPolledReadingShowsThePressBeforeItsRecord: when a polled
// board's clock comes back (a board away, or read as a log after a stall),
// the first running reading may show the last mover's press before the
// board's record of it, completing his move; the record, in the board's
// next answer, is that press's. Before, it was credited by the turn to the
// opponent, whose press without a move was reported (a false
// clock_without_move, TestHallBusLineStarved32 seed 1 board 6). When the
// record came first (pending: the lever before the scan of the move's
// last square), the record completes the move, not the reading: before,
// the reading completed it and left the record without one (seed 1 board
// 3).
func TestPolledReadingShowsThePressBeforeItsRecord(t *testing.T) {
	for _, recordFirst := range []bool{false, true} {
		p := newPolledScript(t)
		p.tr.SetClockSides(rules.White)
		const base = 90 * time.Minute
		p.answer(0)
		p.face(300, base, base, game.LeftDisplay)
		p.answer(800)
		p.answer(1600, game.SquareChange{Square: p.sq("e2")}, game.SquareChange{Square: p.sq("e4"), Piece: rules.Piece{Color: rules.White, Kind: rules.Pawn}},
			game.LeverPress{Display: game.LeftDisplay, Time: base - time.Second})
		p.face(1700, base-time.Second, base, game.RightDisplay)
		p.answer(2400)
		p.evs = append(p.evs, p.tr.ClockLost(p.at(2500))...)
		press := game.LeverPress{Display: game.RightDisplay, Time: base - 2*time.Second}
		knight := rules.Piece{Color: rules.Black, Kind: rules.Knight}
		if recordFirst {
			// The clock back before Black's move, its lever before the
			// scan of its last square, the reading before the board's
			// next answer.
			p.evs = append(p.evs, p.tr.ClockBack(p.at(2550))...)
			p.answer(2600, game.SquareChange{Square: p.sq("g8")}, press, game.SquareChange{Square: p.sq("f6"), Piece: knight})
			p.tick(3600)
			p.face(3700, base-time.Second, base-2*time.Second, game.LeftDisplay)
			p.answer(4000)
		} else {
			// Black moves and presses while the clock is not heard.
			p.answer(2600, game.SquareChange{Square: p.sq("g8")}, game.SquareChange{Square: p.sq("f6"), Piece: knight})
			p.answer(3200)
			p.answer(4000)
			p.evs = append(p.evs, p.tr.ClockBack(p.at(4100))...)
			p.face(4200, base-time.Second, base-2*time.Second, game.LeftDisplay)
			p.answer(4800, press)
		}
		p.answer(5600)
		p.tick(9000)
		label := fmt.Sprintf("record first %v: ", recordFirst)
		if done, want := p.completed(label), []string{"white e2e4", "black g8f6"}; strings.Join(done, ", ") != strings.Join(want, ", ") {
			t.Errorf("%scompleted %q, want %q", label, done, want)
		}
	}
}

// TestPolledFirstPressRecordBeforeTheScan: the record of
// White's first press may come before the scan of his move (the lever
// beats the scan), the start position still on the board. It is White's:
// before, it was taken for the clock being started and dropped, so every
// later record went to the other player and the game's last press
// completed nothing. No clock is read on this board (a full line).
func TestPolledFirstPressRecordBeforeTheScan(t *testing.T) {
	p := newPolledScript(t)
	const base = 90*time.Minute + 30*time.Second
	piece := func(c rules.Color, k rules.Kind) rules.Piece { return rules.Piece{Color: c, Kind: k} }
	p.answer(0)
	// One answer after a stall: White's press before the scan of e2e4,
	// then Black's whole move and press.
	p.answer(3200, game.LeverPress{Display: game.LeftDisplay, Time: base + 29*time.Second},
		game.SquareChange{Square: p.sq("e2")}, game.SquareChange{Square: p.sq("e4"), Piece: piece(rules.White, rules.Pawn)},
		game.SquareChange{Square: p.sq("e7")}, game.SquareChange{Square: p.sq("e5"), Piece: piece(rules.Black, rules.Pawn)},
		game.LeverPress{Display: game.RightDisplay, Time: base + 28*time.Second})
	p.answer(4000)
	p.answer(4800, game.SquareChange{Square: p.sq("g1")}, game.SquareChange{Square: p.sq("f3"), Piece: piece(rules.White, rules.Knight)},
		game.LeverPress{Display: game.LeftDisplay, Time: base + 57*time.Second})
	p.answer(5600)
	p.answer(6400, game.SquareChange{Square: p.sq("b8")}, game.SquareChange{Square: p.sq("c6"), Piece: piece(rules.Black, rules.Knight)},
		game.LeverPress{Display: game.RightDisplay, Time: base + 56*time.Second})
	p.answer(7200)
	p.tick(12000)
	if done, want := p.completed(""), []string{"white e2e4", "black e7e5", "white g1f3", "black b8c6"}; strings.Join(done, ", ") != strings.Join(want, ", ") {
		t.Errorf("completed %q, want %q", done, want)
	}
}

// polledScript feeds a polled board's tracker (standard start, a poll
// cycle of 800 ms) in simulated time, ms after t0, and collects what it
// says.
type polledScript struct {
	t   *testing.T
	tr  *Tracker
	evs []game.Event
}

func newPolledScript(t *testing.T) *polledScript {
	t.Helper()
	tr, err := New(TrackerOptions{Start: chess.StartPosition(chess.Standard), Polled: true, ScanPeriod: 800 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return &polledScript{t: t, tr: tr}
}

func (p *polledScript) at(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }

func (p *polledScript) sq(s string) rules.Square {
	q, err := rules.Chess8x8.ParseSquare(s)
	if err != nil {
		p.t.Fatal(err)
	}
	return q
}

// feed passes s to the tracker at ms (a clock reading, say).
func (p *polledScript) feed(ms int, s ...game.Sensed) {
	for _, x := range s {
		p.evs = append(p.evs, p.tr.Sense(p.at(ms), x)...)
	}
}

// answer is a board's answer at ms: its records s, then a Tick.
func (p *polledScript) answer(ms int, s ...game.Sensed) {
	p.feed(ms, s...)
	p.tick(ms)
}

func (p *polledScript) tick(ms int) { p.evs = append(p.evs, p.tr.Tick(p.at(ms))...) }

// face is a clock reading at ms, the sides not known to the clock.
func (p *polledScript) face(ms int, w, b time.Duration, running game.Display) {
	p.feed(ms, game.ClockFace{Left: w, Right: b, Running: running, LeftIs: rules.NoColor})
}

// completed returns the moves completed ("white e2e4"), in order; each
// press read as one without a move is an error (prefixed with label).
func (p *polledScript) completed(label string) []string {
	var done []string
	for _, ev := range p.evs {
		switch ev := ev.(type) {
		case game.MoveCompleted:
			done = append(done, ev.Side.String()+" "+ev.UCI)
		case game.ClockWithoutMove:
			p.t.Errorf("%s%v's press read as one without a move at %v", label, ev.Side, ev.At.Sub(t0))
		}
	}
	return done
}
