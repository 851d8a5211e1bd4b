package hall

import (
	"time"

	"github.com/dgtbridge/dgtbridge/board/dgtfeed"
	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// manyAnswerPresses is how many lever presses in one answer of a bus
// board make it read as a log (manyPresses): as many as the deepest search
// the tracker makes from one placement (board.TrackerOptions.MaxDepth, at
// most 4 plies); fewer are judged live on the answer.
const manyAnswerPresses = 4

// maxAnswerTail bounds the records a bus board keeps since it last showed
// its record's position (noteAnswer; a 40-s stall at a ply every 2 s is
// about 100): a board whose hand stays busy longer is read live only
// until it is at rest again.
const maxAnswerTail = 1024

// noteAnswer keeps the records of a bus board's answers since the board
// last showed its record's position with nothing pending (atRest): the
// start of a log that manyPresses can align with the record.
func (br *boardRun) noteAnswer(recs []dgt.EEEvent) {
	if br.atRest() {
		return
	}
	if br.tailLost || len(br.tail)+len(recs) > maxAnswerTail {
		br.tail, br.tailLost = br.tail[:0], true
		return
	}
	br.tail = append(br.tail, recs...)
}

// atRest reports whether a bus board shows its record's last position
// with nothing pending (the tracker's last completed ply, no press, no
// window open), and then forgets the records kept since the last time:
// an answer read as a log starts there. The line's tick asks it of the
// boards that keep records.
func (br *boardRun) atRest() bool {
	tr := br.s.Tracker()
	if tr == nil {
		return false
	}
	if _, busy := tr.NextDeadline(); busy || tr.Completed() != tr.Ply() || tr.Sensed() != tr.Position().Placement() {
		return false
	}
	br.tail, br.tailLost = br.tail[:0], false
	return true
}

// heldAnswer is a bus answer held for the board's next one (manyPresses).
type heldAnswer struct {
	at   time.Time
	recs []dgt.EEEvent
	n    int // the answers held
}

// maxHeldAnswers bounds the answers held for the next one (manyPresses).
const maxHeldAnswers = 3

// manyPresses handles an answer of a bus board that holds several lever
// presses: the line did not poll the board for seconds (a daemon starved
// of CPU, a line slowed down), and the players went on meanwhile. Judged
// as one answer, the moves would have to be found from its last placement
// alone, several plies deep (which the tracker's search does not reach,
// and which several sequences of moves may explain); the answer's records
// hold them in the order they were made, with the presses between them.
// So the answer is read as a board's log is after an outage
// (Session.Recover): the records since the board last showed its record's
// position, this answer's included, are aligned with the record and the
// moves they hold are appended with the clock times of their presses; the
// tracker then goes on from what the board shows. It reports false (the
// answer is to be fed as usual) when the answer holds fewer presses, the
// game is not one a log rebuilds (relayed, team), the records since the
// board was last at rest were not kept, or they do not read to their end
// as moves continuing the record (nothing is made up: the board is then
// read live, its presses judged one by one).
//
// An answer polled while a hand was over the board ends in the middle of a
// move, which does not read to its end: it is held (reported true) and
// read with the board's next answer, which completes the move, as one log;
// if the two do not read whole either, the held answer is fed live, then
// the next one (reported false).
func (br *boardRun) manyPresses(at time.Time, recs []dgt.EEEvent) bool {
	n := 0
	for _, r := range recs {
		if r.Kind == dgt.EEClock {
			n++
		}
	}
	s := br.s
	held := br.held
	br.held = nil
	if held == nil && n < manyAnswerPresses || s.Tracker() == nil || s.Relayed() || s.InTeam() || br.tailLost {
		br.feedHeld(held)
		return false
	}
	var answers []dgt.EEEvent
	if held != nil {
		answers = append(answers, held.recs...)
	}
	answers = append(answers, recs...)
	now := s.Tracker().Sensed()
	if s.Tracker().Rotated() {
		now = session.Rotated(now)
	}
	log := append(append([]dgt.EEEvent(nil), br.tail...), answers...)
	for _, e := range dgtfeed.Log(dgt.EELog{Entries: answers}).Entries {
		switch e := e.(type) {
		case game.LogChange:
			now.Sq[e.Square] = e.Piece
		case game.LogBoard:
			now = e.Placement
		case game.LogPress:
			// a press changes no square
		}
	}
	st, ok := s.RecoverLog(at, dgtfeed.Log(dgt.EELog{Entries: log}), now, true)
	if !ok {
		if held == nil || held.n < maxHeldAnswers {
			br.log.Info("bus answer with several presses does not read as the board's log; held for the next answer", "presses", n, "records", len(log))
			if held == nil {
				held = &heldAnswer{at: at}
			}
			held.recs, held.n = append(held.recs, recs...), held.n+1
			br.held = held
			return true
		}
		br.log.Info("bus answers with several presses do not read as the board's log; read live", "presses", n, "records", len(log))
		br.feedHeld(held)
		return false
	}
	br.log.Info("bus answer with several presses read as the board's log", "presses", n, "records", len(log))
	br.apply(st)
	br.apply(s.Reread(at, now))
	br.apply(s.Tick(at))
	br.tail = br.tail[:0]
	return true
}

// feedHeld feeds a held answer (manyPresses) live, as it would have been,
// its records noted (noteAnswer); nil: none.
func (br *boardRun) feedHeld(h *heldAnswer) {
	if h == nil {
		return
	}
	for _, r := range dgtfeed.Records(nil, h.recs) {
		br.apply(br.s.Sense(h.at, r))
	}
	br.apply(br.s.Tick(h.at))
	br.noteAnswer(h.recs)
}
