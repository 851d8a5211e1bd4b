package hall

import (
	"strings"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// clockHold is how long the clock event of a press (the running side
// changed) waits for the move it completes. A move's MoveEvent carries the
// clock after the press and its FEN says whose clock runs: the clock event
// would only say it again, and cost two messages (it and its public copy)
// for every move. A DGT board on a bus reports the press before the move
// is complete (the next poll, a settle window): 2 s covers both.
const clockHold = 2 * time.Second

// heldClock is a clock event held back by clocksOut.
type heldClock struct {
	ev   game.ClockEvent
	at   time.Time // when it was held
	held bool
}

// clocksOut returns the payloads of one input to hand on, without the
// clock events of moves: a change of the running side to White or Black is
// held back (clockHold) for the MoveEvent that restates it, and left out
// when one comes, or when one just came. Everything else (a pause, a
// periodic reading, a press without a move) goes out, in order: a held
// event goes before the next clock event, correction, result or alert, or
// on its own once it waited clockHold (clockDue).
func (br *boardRun) clocksOut(out []game.Payload, now time.Time) []game.Payload {
	var keep []game.Payload
	release := func() {
		if br.heldClk.held {
			keep = append(keep, br.heldClk.ev)
			br.heldClk = heldClock{}
		}
	}
	for _, p := range out {
		switch v := p.(type) {
		case game.ClockEvent:
			release()
			flip := v.Running != br.running && br.running != "" && (v.Running == game.RunningWhite || v.Running == game.RunningBlack)
			br.running = v.Running
			switch {
			case !flip:
				keep = append(keep, v)
			case br.lastMove.Clock != nil && now.Sub(br.lastMoveAt) < clockHold && restates(v, br.lastMove):
				br.h.pace.clocksSaved.Add(1)
			default:
				br.heldClk = heldClock{ev: v, at: now, held: true}
			}
		case game.MoveEvent:
			keep = append(keep, v)
			br.lastMove, br.lastMoveAt = v, now
			if h := br.heldClk; h.held && v.Clock != nil && restates(h.ev, v) {
				br.heldClk = heldClock{}
				br.h.pace.clocksSaved.Add(1)
			}
		case game.Correction, game.Result, game.Alert:
			release()
			keep = append(keep, p)
		case game.Announcement:
			keep = append(keep, p)
		}
	}
	return keep
}

// clockDue hands on the held clock event once it has waited clockHold (or
// at once when final: the board's goroutine ends).
func (br *boardRun) clockDue(now time.Time, final bool) {
	h := br.heldClk
	if !h.held || !final && now.Sub(h.at) < clockHold {
		return
	}
	br.heldClk = heldClock{}
	br.h.w.submit(&change{br: br, game: br.s.Record().Info.Game, out: []game.Payload{h.ev}})
}

// restates reports whether clock event c says what MoveEvent m does: the
// times after the move, and the clock of the side to move running.
func restates(c game.ClockEvent, m game.MoveEvent) bool {
	return c.WhiteMS == m.Clock.WhiteMS && c.BlackMS == m.Clock.BlackMS && c.Running == toMove(m.FEN)
}

// toMove is the running side of a clock whose side to move has the turn in
// fen: "white" or "black" ("" when fen does not say).
func toMove(fen string) string {
	f := strings.Fields(fen)
	if len(f) < 2 {
		return ""
	}
	switch f[1] {
	case "w":
		return game.RunningWhite
	case "b":
		return game.RunningBlack
	}
	return ""
}
