package board

import (
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// pressStage is where a lever press not judged yet ([pendingPress]) is
// in its life. A press is heard from the clock's readings, or recorded by
// a polled board's answer (the board's own record of the press). A
// recorded press is first judged on the answer that recorded it, where
// only a board showing exactly the pressers' moves answers it
// (tentative); otherwise it waits for the board's next answer. Either way
// the board is looked at once the scan that follows the press has
// reported it (looked); a later answer of a polled board has the press
// judged on it anew (not looked at any more). Every change of stage goes
// through [pendingPress.to], which checks it against pressChanges.
type pressStage uint8

const (
	// pressHeard: heard from the clock; waits for the scan that follows.
	pressHeard pressStage = iota
	// pressHeardLooked: heard, and the board was looked at after the scan.
	pressHeardLooked
	// pressTentative: recorded; judged on the answer that recorded it if
	// the board shows exactly the pressers' moves.
	pressTentative
	// pressTentativeLooked: tentative, and the board was looked at.
	pressTentativeLooked
	// pressRecorded: recorded; waits for the board's next answer.
	pressRecorded
	// pressRecordedLooked: recorded, and the board was looked at after
	// the answer that holds it.
	pressRecordedLooked
)

func (s pressStage) String() string {
	return [...]string{"heard", "heard, looked at", "tentative", "tentative, looked at", "recorded", "recorded, looked at"}[s]
}

// pressChanges lists, per stage, the stages a press may change to. A
// heard press becomes recorded when the board's answer that records it
// comes; a tentative one is judged on its answer or waits for the next.
var pressChanges = [...][]pressStage{
	pressHeard:           {pressHeardLooked, pressTentative},
	pressHeardLooked:     {pressTentative},
	pressTentative:       {pressTentativeLooked, pressRecorded},
	pressTentativeLooked: {pressRecordedLooked, pressTentative},
	pressRecorded:        {pressRecordedLooked},
	pressRecordedLooked:  {pressRecorded},
}

// recorded reports whether a polled board's answer recorded the press.
func (s pressStage) recorded() bool { return s >= pressTentative }

// tentative reports whether the press is judged on the answer that
// recorded it.
func (s pressStage) tentative() bool { return s == pressTentative || s == pressTentativeLooked }

// looked reports whether the board was looked at once the scan that
// followed the press had reported it.
func (s pressStage) looked() bool {
	return s == pressHeardLooked || s == pressTentativeLooked || s == pressRecordedLooked
}

// lookedAt is the stage once the board is looked at.
func (s pressStage) lookedAt() pressStage {
	switch s {
	case pressHeard:
		return pressHeardLooked
	case pressTentative:
		return pressTentativeLooked
	case pressRecorded:
		return pressRecordedLooked
	}
	return s
}

// unlooked is the stage of a recorded press to be looked at anew (a
// later answer).
func (s pressStage) unlooked() pressStage {
	switch s {
	case pressRecordedLooked:
		return pressRecorded
	case pressTentativeLooked:
		return pressTentative
	}
	return s
}

// untentative is the stage of a tentative press whose answer has been fed
// whole: it waits for the next answer unless judged on this one.
func (s pressStage) untentative() pressStage {
	switch s {
	case pressTentative:
		return pressRecorded
	case pressTentativeLooked:
		return pressRecordedLooked
	}
	return s
}

// to moves the press to stage s. Moving to the stage it is in changes
// nothing; a change pressChanges does not list is a bug of the tracker.
func (p *pendingPress) to(s pressStage) {
	if s == p.stage {
		return
	}
	for _, q := range pressChanges[p.stage] {
		if q == s {
			p.stage = s
			return
		}
	}
	panic(fmt.Sprintf("board: a press %s cannot become %s", p.stage, s))
}

// lever is the presses not judged yet.
type lever struct {
	presses []pendingPress // oldest first
	// unpressed: the last ply completed without a press (0: none); a late
	// press by its mover belongs to it and is no ClockWithoutMove.
	unpressed int
	// heard: on a polled board, when presses were read from the clock's
	// running side that no press record has matched yet (the board's
	// record of a press may come after the clock reading that showed it).
	heard []heardPress
}

// heardPress is a press a polled board's clock reading showed before the
// board's record of it: when, and the presser's time the reading showed
// (0: not known).
type heardPress struct {
	at     time.Time
	halted time.Duration
}

// heardFrom is the press reading r showed at at: the presser is the side
// whose clock r does not run.
func heardFrom(at time.Time, r game.ClockReading) heardPress {
	h := heardPress{at: at}
	switch r.Running {
	case rules.White:
		h.halted = r.Black
	case rules.Black:
		h.halted = r.White
	}
	return h
}

// pendingPress is a lever press not judged yet (the scan may lag).
type pendingPress struct {
	at    time.Time
	side  rules.Color
	clock game.ClockReading
	// unread: no reading was heard before the press (its record's):
	// clock holds the presser's time only, and the move it completes
	// gets no reading.
	unread bool
	due    time.Time // the scan that follows the press has reported the board
	// stage: where the press is in its life (pressStage): heard or
	// recorded by a polled board's answer, judged on that answer
	// (tentative) or waiting for the next, looked at or not.
	stage   pressStage
	answer  time.Time // recorded: the answer that recorded it (read then)
	asked   time.Time // recorded: when that answer's poll was sent (Answered)
	burst   bool      // it was pending in a burst, or came in one (beforeInput)
	touches int       // recorded: the turn's touches logged before the record
}

// lookLater is the due time of a recorded press that waits for a later
// look at the board: no time reaches it; an answer to a poll sent a
// board scan after the press's own (Answered) brings the press's due
// time to that answer's.
var lookLater = time.Unix(1<<40, 0)

// reached reports whether press p may be judged: the scan that follows
// it has reported the board by at, or, for a press a polled board
// recorded, the answer that holds it has been fed whole. On a polled
// board a press heard from the clock is reached once a whole answer's
// poll was sent after that scan (polledNow): what the board shows is
// known as of its last poll, not as of the time an answer is read, and a
// line held up reads late an answer the board made early. (Counted by
// reading time, an answer read 1.5 s late judged the press before its
// contents were fed: a slide's resting square, shown by the answer
// before, was recorded as the move.)
func (t *Tracker) reached(p *pendingPress, at time.Time) bool {
	if p.stage.recorded() {
		if p.due == lookLater {
			// The opponent has made a move since the presser's: the
			// presser's move was done, whatever a later look would show.
			ply := t.line.firstPlyBy(p.side)
			return ply > 0 && ply < len(t.line.hist)-1
		}
		return !p.due.After(t.fedTo)
	}
	return !t.polledNow(at).Before(p.due)
}

// polledNow is the time as far as the board is known at at: on a polled
// board the poll of its last whole answer (never later than at), else at
// (and on a polled board fed no answer's end, [Tracker.Answered], only
// ticks).
func (t *Tracker) polledNow(at time.Time) time.Time {
	if t.opts.Polled && !t.board.asked.IsZero() && t.board.asked.Before(at) {
		return t.board.asked
	}
	return at
}
