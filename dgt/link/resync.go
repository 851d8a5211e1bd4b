package link

import (
	"errors"
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
)

// resync is what a session knows of the board to notice and repair damage
// on the line: a mirror of its position from dumps and field updates, and
// the repair in progress.
type resync struct {
	mirror    [dgt.NumFields]dgt.PieceCode
	mirrored  bool
	faults    int       // damage seen since the last repair
	logFaults int       // of which while a log was on the line (its own bytes)
	logUntil  time.Time // a log's bytes may still be arriving until then
	again     bool      // damage came right after a repair was asked: ask again
	held      bool      // reports were held back or dropped: the next dump is news
	asked     time.Time // when a repairing dump was last asked for; zero: none outstanding
	verifying bool      // a checking dump is outstanding
	checked   time.Time // when it was asked for
	verified  bool      // a check agreed with the mirror since the last change
	expectLog bool      // the connection sequence waits for the log
	logTries  int       // reads of the log asked for so far
	badLog    bool      // the last log read ended damaged
	logEnded  bool      // the log read waited for is over
	logAgain  bool      // damage came while a log read was on the line
	err       error     // a write error while repairing, returned by serve
}

// eeEOF is EE_EOF, the last byte of a dump.
const eeEOF = 0x6B

// repairGap is the least time between two repairing dumps: a burst of
// noise makes many frame errors, one dump repairs them all.
const repairGap = 200 * time.Millisecond

// fault notes damage at at and asks the board for its position and clock
// (unless a request went out just before).
func (s *session) fault(at time.Time) {
	s.rs.faults++
	if s.logOnLine(at) {
		s.rs.logFaults++
	}
	if !s.rs.asked.IsZero() && at.Sub(s.rs.asked) < repairGap {
		s.rs.again = true // the repair's reply may be what was damaged
		return
	}
	s.rs.asked, s.rs.again = at, false
	s.l.opts.Logger.Debug("damage on the line, asking for the position", "faults", s.rs.faults)
	s.repairWrite(dgt.CmdSendBoard)
	if s.clock {
		s.repairWrite(dgt.CmdSendClock)
	}
}

// reask asks for the position again when damage came right after the
// last request (repairGap suppressed it): a burst of noise may have
// garbled the repair's reply as well.
func (s *session) reask(now time.Time) {
	if s.rs.again && !s.rs.asked.IsZero() && now.Sub(s.rs.asked) >= repairGap {
		s.rs.asked = time.Time{}
		s.rs.faults--
		s.fault(now)
	}
}

// holding reports whether field updates are held back at at: a repair
// was asked for less than holdRepair ago (its dump tells the truth about
// every square; the board answers it within tens of milliseconds).
func (s *session) holding(at time.Time) bool {
	return !s.rs.asked.IsZero() && at.Sub(s.rs.asked) < holdRepair
}

// holdRepair bounds how long field updates wait for a repair's dump.
const holdRepair = time.Second

// logTail is how long the bytes of an EEPROM dump take on the line at
// 9600 baud (7,939 bytes of 10 bits), with a margin: after a dump was cut
// short by damage, its remaining bytes arrive as garbage for that long.
const logTail = 9 * time.Second

// logOnLine reports whether an EEPROM dump may be on the line at at: a log
// read is in flight or expected, or one was cut short less than logTail
// ago. Damage then is most likely to the dump's own bytes, which the log
// read asks again by itself: it is no sign of a missed move, so it does
// not ask for another read of the log (which, on a noisy line, would be
// damaged in turn, and so on without end).
func (s *session) logOnLine(at time.Time) bool {
	if s.rs.expectLog || s.cur != nil && s.cur.req.log {
		s.rs.logUntil = at.Add(logTail)
		return true
	}
	return at.Before(s.rs.logUntil)
}

func (s *session) repairWrite(c dgt.Command) {
	if err := s.write(c); err != nil && s.rs.err == nil {
		s.rs.err = err
	}
}

// frameStall is how long the bytes of a frame may pause: at 9600 baud a
// frame's bytes follow each other within milliseconds (USB adapters add
// tens), so a frame still incomplete after this lost a byte. Without
// this, the frame would wait for the next message's bytes (in IDLE mode:
// forever).
const frameStall = 300 * time.Millisecond

// unstall drops an incomplete frame whose bytes stopped coming, as damage.
func (s *session) unstall(now time.Time) {
	if s.dec.Buffered() == 0 || now.Sub(s.lastRx) < frameStall {
		return
	}
	err := s.dec.Flush()
	if err == nil {
		return
	}
	s.queue = append(s.queue, Resync{At: now, Err: err})
	if !s.logCut(now, err) {
		s.fault(now)
	}
}

// logCut handles a frame error: when it is an EEPROM dump cut short while
// a read waits for it, the log is asked again, or, the tries used up, the
// read ends with ErrBadLog. It reports whether it handled err (the damage
// was to the log alone, nothing else to repair).
func (s *session) logCut(at time.Time, err error) bool {
	var fe *dgt.FrameError
	if !errors.As(err, &fe) || fe.ID != byte(dgt.MsgEEMoves) {
		return false
	}
	if !s.rs.expectLog && (s.cur == nil || !s.cur.req.log) {
		return false
	}
	if s.retryLog(err) {
		return true
	}
	bad := fmt.Errorf("%w: %w", ErrBadLog, err)
	s.queue = append(s.queue, Log{At: at, Err: bad})
	s.rs.badLog = true
	s.logArrived(bad)
	return true
}

// eeDumpLen is the data length of a whole EEPROM dump.
const eeDumpLen = 0x1F00

// gotLog takes an EE_MOVES message. One nobody asked for is damage (a
// garbled header made it look like one). A damaged dump (cut short, no
// EE_EOF at its end, records that do not parse: noise during its 8 s on
// the line) is asked again, up to AckTries times, and then delivered with
// ErrBadLog. It reports whether the read asked for is complete.
func (s *session) gotLog(at time.Time, m dgt.EEMoves) bool {
	inflight := s.cur != nil && s.cur.req.log
	if !s.rs.expectLog && !inflight {
		s.queue = append(s.queue, Resync{At: at, Err: fmt.Errorf("%w: EE_MOVES of %d bytes", ErrUnexpected, len(m.Data))})
		s.fault(at)
		return false
	}
	lg := m.Log(s.l.opts.EEFBit)
	var bad error
	switch {
	case len(m.Data) != eeDumpLen || m.Data[len(m.Data)-1] != eeEOF:
		bad = fmt.Errorf("%w: %d bytes, want %d ending with EE_EOF", ErrBadLog, len(m.Data), eeDumpLen)
	case lg.Bad > 0:
		bad = fmt.Errorf("%w: %w", ErrBadLog, lg.Err)
	}
	if bad != nil {
		s.queue = append(s.queue, Resync{At: at, Err: bad})
		if s.retryLog(bad) {
			return false
		}
	}
	s.queue = append(s.queue, Log{At: at, Log: lg, Err: bad})
	s.rs.badLog = bad != nil
	s.logArrived(bad)
	return true
}

// retryLog asks for the log again after it arrived damaged (or cut short)
// while a read is waiting for it, up to AckTries reads; false when no read
// waits or the tries are used up.
func (s *session) retryLog(bad error) bool {
	inflight := s.cur != nil && s.cur.req.log
	if !s.rs.expectLog && !inflight || s.rs.logTries >= s.l.opts.AckTries {
		return false
	}
	s.rs.logTries++
	s.l.opts.Logger.Warn("EEPROM log damaged on the line, asking again", "err", bad, "try", s.rs.logTries)
	s.repairWrite(dgt.CmdSendEEMoves)
	if inflight {
		s.cur.timer.Reset(s.l.opts.LogTimeout)
	}
	return true
}

// updated follows a field update in the mirror.
func (s *session) updated(_ time.Time, u dgt.FieldUpdate) {
	if u.Field.Valid() {
		s.rs.mirror[u.Field] = u.Piece
	}
	s.rs.verified = false
}

// dumped takes a board dump and reports whether it is news for the
// consumer: a check that agrees with the mirror is not (the consumer has
// that position already). After damage (or when a check finds the
// position differing from the reports) moves may have been missed: a
// lost or wrong report can hide a whole position if the next move began
// before the repair, so the link reads the log, the board's own record of
// every change. A dump that differs is checked again after Settings.Verify
// (it may be the damaged one): the position counts as verified once a
// check agrees with the mirror.
func (s *session) dumped(at time.Time, d dgt.BoardDump) bool {
	diff := 0
	for f := range d.Fields {
		if d.Fields[f] != s.rs.mirror[f] {
			diff++
		}
	}
	known := s.rs.mirrored
	s.rs.mirror, s.rs.mirrored = d.Fields, true
	repairing, checking := !s.rs.asked.IsZero(), s.rs.verifying
	if !known || (!repairing && !checking) {
		s.rs.held = false
		if !known || diff > 0 {
			s.rs.verified = false // a new position: check it
		}
		return true
	}
	// Damage to a log's own bytes hides no move; a position that
	// differs from the reports does.
	faults := s.rs.faults - s.rs.logFaults
	s.rs.asked, s.rs.verifying, s.rs.faults, s.rs.logFaults = time.Time{}, false, 0, 0
	switch {
	case diff > 0:
		faults++
		if checking && !repairing {
			s.queue = append(s.queue, Resync{At: at, Err: ErrMismatch})
		}
		// Check it again soon: it may be the damaged one.
		s.rs.verified, s.rs.checked = false, at.Add(repairGap-s.l.opts.Verify)
	case checking:
		s.rs.verified = true
	}
	if faults > 0 {
		s.requestLog()
	}
	held := s.rs.held
	s.rs.held = false
	return repairing || diff > 0 || held
}

// requestLog queues a log read unless one is queued, or the link must not
// read it on its own. When one is on the line already it may have been
// taken before the damage: another follows it.
func (s *session) requestLog() {
	if s.l.opts.NoLog || s.rs.expectLog {
		return
	}
	if s.cur != nil && s.cur.req.log {
		s.rs.logAgain = true
		return
	}
	for _, r := range s.pending {
		if r.log {
			return
		}
	}
	s.l.opts.Logger.Info("moves may have been missed, reading the EEPROM log")
	s.pending = append(s.pending, request{cmd: dgt.CmdSendEEMoves, log: true, reply: make(chan error, 1)})
	if err := s.pump(); err != nil && s.rs.err == nil {
		s.rs.err = err
	}
}

// check runs on the watchdog's tick: a repairing dump that did not come
// is asked again; a position that changed is checked, at most every
// Settings.Verify (again, when the check's dump got lost).
func (s *session) check(now time.Time) error {
	o := s.l.opts
	s.reask(now)
	if s.rs.verifying && now.Sub(s.rs.checked) >= o.ReplyTimeout {
		s.rs.verifying = false // the check's dump got lost: check again
	}
	switch {
	case !s.rs.asked.IsZero() && now.Sub(s.rs.asked) >= o.ReplyTimeout:
		s.rs.asked = time.Time{}
		s.fault(now)
	case o.Verify > 0 && s.rs.asked.IsZero() && !s.rs.verifying && !s.rs.verified &&
		s.rs.mirrored && now.Sub(s.rs.checked) >= o.Verify:
		s.rs.verifying, s.rs.checked = true, now
		s.repairWrite(dgt.CmdSendBoard)
	}
	if m, ok := s.cg.expire(now, o.ReplyTimeout); ok {
		s.queue = append(s.queue, m) // nothing contradicted it
		s.flush()
	}
	err := s.rs.err
	s.rs.err = nil
	return err
}
