package board

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Answered tells the tracker of a polled board ([TrackerOptions.Polled])
// that the board answered a poll at at and that the answer has been fed
// whole: every change the board saw up to the poll, possibly none. It
// then lets time pass as [Tracker.Tick] does.
//
// A press whose move the board showed only in the press's own answer,
// made by a piece a sliding hand might still have been carrying on
// (mayGoOn), waits for a later look at the board: the lever may have
// beaten the board's scan of the square the piece ended on. The first
// answer that comes at least [TrackerOptions.BoardScan] after the press's
// own answer is that look (the board's scan that followed the press had
// reported by then), so the press is judged on it rather than one poll
// cycle later. For any other tracker Answered is Tick.
func (t *Tracker) Answered(at time.Time) []game.Event {
	if t.opts.Polled {
		for i := range t.lever.presses {
			p := &t.lever.presses[i]
			if p.recorded && !p.tentative && !p.scanned && p.due.After(at) && !at.Before(p.answer.Add(t.opts.BoardScan)) {
				p.due = at
			}
		}
	}
	return t.Tick(at)
}
