package hall

import (
	"time"

	"github.com/dgtbridge/dgtbridge/board/dgtfeed"
	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// logArrived keeps the board's event log until its position follows (a
// link and a bus line send the log right after a (re)connection, before
// the position). A log that could not be read (no EEPROM, damaged every
// time) is dropped: the position is then caught up as before, or the
// arbiter told.
func (br *boardRun) logArrived(l dgt.EELog, err error) {
	if err != nil {
		br.log.Info("board's event log not read", "err", err)
		br.boardLog = nil
		return
	}
	gl := dgtfeed.Log(l)
	br.boardLog = &gl
}

// recoverOn rebuilds, before the board's position is read, the moves the
// log kept (Session.Recover), when a log waits and m is the full position.
// When the log explained the position it feeds it itself, as a live read
// (Session.reread: a hand may be in the middle of a move), and reports
// true; otherwise the caller feeds m (a catch-up read).
func (br *boardRun) recoverOn(at time.Time, m dgt.Message) bool {
	if br.boardLog == nil {
		if br.awaitLog && isFullRead(m) {
			// Heard again without a log: what the board shows is caught
			// up as it comes, and what nothing explains is told as
			// moves missing.
			br.awaitLog = false
			br.s.Unlogged()
		}
		return false
	}
	for _, r := range dgtfeed.Append(nil, m) {
		if fr, ok := r.(game.FullRead); ok {
			br.awaitLog = false
			lg := br.boardLog
			br.boardLog = nil
			st, explained := br.s.RecoverLog(br.mono(at), *lg, fr.Placement, false)
			if n := len(st.Out); n > 0 {
				br.log.Info("moves rebuilt from the board's log", "payloads", n)
			}
			br.apply(st)
			if explained {
				br.apply(br.s.Reread(br.mono(at), fr.Placement))
			}
			return explained
		}
	}
	return false
}

// isFullRead reports whether m is a read of the whole board.
func isFullRead(m dgt.Message) bool {
	for _, r := range dgtfeed.Append(nil, m) {
		if _, ok := r.(game.FullRead); ok {
			return true
		}
	}
	return false
}
