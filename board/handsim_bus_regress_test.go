package board_test

import (
	"testing"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// busSoakGameExact follows game i of the bus soak and wants its record
// exact.
func busSoakGameExact(t *testing.T, i int) {
	t.Helper()
	g, scan := busSoakGame(i)
	if out := followBus(t, g, scan); !out.exact() {
		t.Fatalf("line %+v, tracker cycle %v: %s", g.Line, scan, out)
	}
}

// TestBusSlideRestBeforeThePressAnswer: on a short bus line (a poll
// every 212 ms), a rook slid h1–h2–h3: one answer showed it resting on
// h2, the next held the press and nothing else (the lever had beaten the
// board's scan of h2 and h3). The rest shown an answer earlier was taken
// for a move at rest, Rh2 completed on the press, and the rook reaching h3
// read as a second move (Rh3) a ply later: the record went on, one ply
// off, without an alert. A move shown less than two board scans before
// the press's answer was asked may be a rest: the press waits for a later
// look.
func TestBusSlideRestBeforeThePressAnswer(t *testing.T) { busSoakGameExact(t, 226) }

// TestBusSlideRestOnAFastLine: the same on a line polling every 40 ms,
// answers now and then read late: a queen slid d8–b6–a5 read as Qb6.
func TestBusSlideRestOnAFastLine(t *testing.T) { busSoakGameExact(t, 102) }

// TestBusSlideRestInBlitz: the same in blitz (a poll every 149 ms, a
// second look after a press): a rook slid a5–a6–a7 read as Ra6.
func TestBusSlideRestInBlitz(t *testing.T) { busSoakGameExact(t, 295) }

// TestBusPressHeardAnswerReadLate: a queen slid a1–a4–a5 on a line
// polling every 252 ms (the tracker's cycle the hall's 900 ms). An answer
// showed it resting on a4; the clock's reading then showed Black's press;
// the next answer, which held the press's record and the queen reaching
// a5, was read 1.5 s late (the line held up). Counted by reading time, the
// press's scan had long reported when that answer began to be fed, and the
// press was judged before its contents, on the board the answer before
// had shown: Qa4 recorded, without an alert. What the board shows is known
// as of its last poll: the press waits for an answer to a poll sent after
// its scan.
func TestBusPressHeardAnswerReadLate(t *testing.T) { busSoakGameExact(t, 628) }

// TestBusSlideRestLeftBeforeTheLook: a bishop slid d3–b5–a6 on a line
// polling every 77 ms. The answer before the press showed it resting on
// b5; the press's answer showed nothing more, so the press waited for a
// later look; the next answer, 84 ms after the press, reported b5 empty
// (the scan had not reached a6 yet) and, being a change, had the press
// judged at once: Bb5 recorded, the bishop then on a6 without a word. A
// change the board reports before a board scan has passed since the
// press's answer does not end the wait for the look.
func TestBusSlideRestLeftBeforeTheLook(t *testing.T) { busSoakGameExact(t, 1957) }

// TestBusOpponentMovedWhileALookWaits: three plies (Nh6 Qxh6 Rxh6) came
// in one late answer with the first two presses, the third press in the
// next, the rook still in the hand. The first press waited for a later
// look while the search made all three moves and completed the first
// without it; the look then came and the press completed the next of its
// presser's plies, the opponent's with it, and the two presses left were
// read as presses without a move (two false clock_without_move crits on
// an exact record). Once the opponent has made a move after the
// presser's, the presser's move was done: the press is judged without
// waiting for the look.
func TestBusOpponentMovedWhileALookWaits(t *testing.T) {
	g, scan := busSoakGame(907)
	out := followBus(t, g, scan)
	if !out.exact() {
		t.Fatalf("line %+v, tracker cycle %v: %s", g.Line, scan, out)
	}
	for _, ev := range out.evs {
		if c, ok := ev.(game.ClockWithoutMove); ok {
			t.Errorf("%v's press at %v read as one without a move", c.Side, c.At.Format("15:04:05.000"))
		}
	}
}

// TestBusReplyAfterAMoveAppended: a polled board's answer held Black's
// knight move, then White's press record: the press completed Black's
// waiting move (replyPressed), appending it to the record, which judged
// the press already; the press was then taken off the list a second time
// and the tracker panicked (a slice bound out of range), which in the
// daemon stops the line's goroutine. (The record then differs later, a
// slide f7-g7-h7 read as f7g7 on a line polling every 52 ms: an open
// record_lost covers it.)
func TestBusReplyAfterAMoveAppended(t *testing.T) {
	g, scan := busSoakGame(313)
	if out := followBus(t, g, scan); out.stuck() {
		t.Fatalf("line %+v, tracker cycle %v: %s", g.Line, scan, out)
	}
}
