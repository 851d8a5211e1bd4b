package board

import (
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestPolledClockSidesFromAFaceAfterThePress (issue 13): a bus line reads
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
	start := chess.StartPosition(chess.Standard)
	tr, err := New(TrackerOptions{Start: start, Polled: true, ScanPeriod: 800 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	sq := func(s string) rules.Square {
		q, err := start.Geometry().ParseSquare(s)
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	const base = 90 * time.Minute
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	var evs []game.Event
	feed := func(ms int, s ...game.Sensed) {
		for _, x := range s {
			evs = append(evs, tr.Sense(at(ms), x)...)
		}
	}
	answer := func(ms int, s ...game.Sensed) {
		feed(ms, s...)
		evs = append(evs, tr.Tick(at(ms))...)
	}
	wp := rules.Piece{Color: rules.White, Kind: rules.Pawn}
	bp := rules.Piece{Color: rules.Black, Kind: rules.Pawn}
	answer(0)
	// White (left display) moves e2e4 and presses at 1.3 s; the line reads
	// the clock at 1.5 s, the board's changes at 1.6 s.
	feed(1500, game.ClockFace{Left: base - 1300*time.Millisecond, Right: base, Running: game.RightDisplay, LeftIs: rules.NoColor})
	answer(1600, game.SquareChange{Square: sq("e2")}, game.SquareChange{Square: sq("e4"), Piece: wp},
		game.LeverPress{Display: game.LeftDisplay, Time: base - 1300*time.Millisecond})
	answer(2400)
	feed(2500, game.ClockFace{Left: base - 1300*time.Millisecond, Right: base - 1200*time.Millisecond, Running: game.RightDisplay, LeftIs: rules.NoColor})
	answer(3200)
	// Black moves e7e5 and presses at 3.9 s.
	answer(4000, game.SquareChange{Square: sq("e7")}, game.SquareChange{Square: sq("e5"), Piece: bp},
		game.LeverPress{Display: game.RightDisplay, Time: base - 2600*time.Millisecond})
	feed(4100, game.ClockFace{Left: base - 1500*time.Millisecond, Right: base - 2600*time.Millisecond, Running: game.LeftDisplay, LeftIs: rules.NoColor})
	answer(4800)
	evs = append(evs, tr.Tick(at(8000))...)

	if got := tr.ClockSides(); got != rules.White {
		t.Errorf("clock's left display taken for %v's, want White's", got)
	}
	var done []string
	for _, ev := range evs {
		switch ev := ev.(type) {
		case game.MoveCompleted:
			done = append(done, ev.Side.String()+" "+ev.UCI)
		case game.ClockWithoutMove:
			t.Errorf("%v's press read as one without a move at %v", ev.Side, ev.At.Sub(t0))
		}
	}
	if want := []string{"white e2e4", "black e7e5"}; len(done) != 2 || done[0] != want[0] || done[1] != want[1] {
		t.Errorf("completed %q, want %q", done, want)
	}
}

// TestPolledPressRecordsWithNoReading (issue 13): a polled board's press
// records complete its moves when no running reading has been heard yet
// (its clock not read yet on a busy line, or a board just read as a log):
// before, they were dropped and each move waited for a clock reading, the
// game's last one for good. The moves get no clock reading (none heard).
func TestPolledPressRecordsWithNoReading(t *testing.T) {
	start := chess.StartPosition(chess.Standard)
	tr, err := New(TrackerOptions{Start: start, Polled: true, ScanPeriod: 800 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	sq := func(s string) rules.Square {
		q, err := start.Geometry().ParseSquare(s)
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	var evs []game.Event
	answer := func(ms int, s ...game.Sensed) {
		for _, x := range s {
			evs = append(evs, tr.Sense(at(ms), x)...)
		}
		evs = append(evs, tr.Tick(at(ms))...)
	}
	const base = 90 * time.Minute
	wn := rules.Piece{Color: rules.White, Kind: rules.Knight}
	bn := rules.Piece{Color: rules.Black, Kind: rules.Knight}
	answer(0)
	answer(1600, game.SquareChange{Square: sq("g1")}, game.SquareChange{Square: sq("f3"), Piece: wn},
		game.LeverPress{Display: game.LeftDisplay, Time: base - time.Second})
	answer(2400)
	answer(4000, game.SquareChange{Square: sq("g8")}, game.SquareChange{Square: sq("f6"), Piece: bn},
		game.LeverPress{Display: game.RightDisplay, Time: base - 2*time.Second})
	answer(4800)
	evs = append(evs, tr.Tick(at(8000))...)
	var done []string
	for _, ev := range evs {
		switch ev := ev.(type) {
		case game.MoveCompleted:
			done = append(done, ev.Side.String()+" "+ev.UCI)
			if ev.Clock != nil {
				t.Errorf("ply %d completed with reading %+v, none was heard", ev.Ply, *ev.Clock)
			}
		case game.ClockWithoutMove:
			t.Errorf("%v's press read as one without a move at %v", ev.Side, ev.At.Sub(t0))
		}
	}
	if want := []string{"white g1f3", "black g8f6"}; len(done) != 2 || done[0] != want[0] || done[1] != want[1] {
		t.Errorf("completed %q, want %q", done, want)
	}
}
