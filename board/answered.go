package board

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Answered tells the tracker of a polled board ([TrackerOptions.Polled])
// that the board answered, at at, a poll sent at asked, and that the
// answer has been fed whole: every change the board saw up to the poll,
// possibly none. It then lets time pass as [Tracker.Tick] does. A zero
// asked is taken as at.
//
// A press whose move the board showed only in the press's own answer,
// made by a piece a sliding hand might still have been carrying on
// (mayGoOn), waits for a later look at the board: the lever may have
// beaten the board's scan of the square the piece ended on. An answer to
// a poll sent at least [TrackerOptions.BoardScan] after the press's own
// answer was read is that look (the press came before that answer; the
// board's scan that followed it had reported by the time the poll was
// heard), so the press is judged on it rather than one poll cycle later.
// The poll's sending, not the answer's reading, is what counts: a line
// held up reads late an answer the board made early. For any other
// tracker Answered is Tick.
func (t *Tracker) Answered(at, asked time.Time) []game.Event {
	if asked.IsZero() || asked.After(at) {
		asked = at
	}
	if t.opts.Polled {
		for i := range t.lever.presses {
			p := &t.lever.presses[i]
			if p.recorded && !p.tentative && !p.scanned && p.due.After(at) && !asked.Before(p.answer.Add(t.opts.BoardScan)) {
				p.due = at
			}
		}
	}
	return t.Tick(at)
}
