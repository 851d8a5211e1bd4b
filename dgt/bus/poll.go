package bus

import (
	"errors"
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
)

// discover finds boards: expected and lost ones by direct ping, new ones
// by broadcast rounds. Found boards are registered and read.
func (l *line) discover() error {
	o := l.b.opts
	var candidates []uint16
	for _, a := range o.Addresses {
		if bd := l.known(a); bd == nil || bd.lost {
			candidates = append(candidates, a)
		}
	}
	for _, bd := range l.boards {
		if bd.lost && !contains(candidates, bd.addr) {
			candidates = append(candidates, bd.addr)
		}
	}
	for _, a := range candidates {
		_, err := exchange(l, dgt.BusCmdPing, dgt.BusCmdPing, a, func(p dgt.BusPing) uint16 { return p.Address })
		if isPort(err) {
			return err
		}
		if err == nil {
			if err := l.register(a); err != nil {
				return err
			}
		}
	}
	if o.NoBroadcast {
		return nil
	}
	for round := 0; round < o.DiscoverRounds; round++ {
		found, err := l.broadcastRound()
		if err != nil {
			return err
		}
		if len(found) == 0 {
			return nil
		}
		for _, a := range found {
			if err := l.register(a); err != nil {
				return err
			}
		}
	}
	return nil
}

// broadcastRound tells every known board to ignore the next broadcast,
// pings address 0 and collects the answers of the others.
func (l *line) broadcastRound() ([]uint16, error) {
	for _, bd := range l.boards {
		if bd.lost {
			continue
		}
		_, err := exchange(l, dgt.BusCmdIgnoreNextBusPing, dgt.BusCmdIgnoreNextBusPing, bd.addr, func(p dgt.BusPing) uint16 { return p.Address })
		if isPort(err) {
			return nil, err
		}
	}
	if err := l.send(dgt.BusCmdPing, 0); err != nil {
		return nil, errPort{err}
	}
	deadline := time.Now().Add(pingWindow)
	var found []uint16
	for {
		m, ferr, ok, err := l.next(&deadline, false)
		if err != nil {
			return nil, err
		}
		if !ok {
			return found, nil
		}
		if ferr != nil {
			l.b.opts.Logger.Debug("bus ping collision", "err", ferr)
			continue
		}
		if p, isPing := m.(dgt.BusPing); isPing && p.Address != 0 {
			if bd := l.known(p.Address); (bd == nil || bd.lost) && !contains(found, p.Address) {
				found = append(found, p.Address)
			}
		}
	}
}

// register reads a newly found (or returning) board: version, its log
// (or, with NoLog, its pending changes), full position, clock.
func (l *line) register(a uint16) error {
	now := time.Now
	v, err := exchange(l, dgt.BusCmdSendVersion, dgt.BusCmdSendVersion, a, func(v dgt.BusVersion) uint16 { return v.Address })
	if err != nil {
		return l.boardErr(a, err)
	}
	bd := l.known(a)
	if bd == nil {
		bd = &board{addr: a, cost: l.changesCost}
		l.boards = append(l.boards, bd)
		l.sortBoards()
	}
	bd.lost, bd.haveClock, bd.version = false, false, v
	l.busy = true
	l.b.opts.Logger.Info("dgt bus board found", "addr", a)
	l.b.emit(l.ctx, BoardFound{At: now(), Address: a, Version: v})
	if l.b.opts.NoLog {
		err = l.changes(bd)
	} else {
		err = l.readLog(bd)
	}
	if err != nil {
		return l.boardErr(a, err)
	}
	d, err := exchange(l, dgt.BusCmdSendBoard, dgt.BusCmdSendBoard, a, func(d dgt.BusBoardDump) uint16 { return d.Address })
	if err != nil {
		return l.boardErr(a, err)
	}
	l.b.emit(l.ctx, Position{At: l.rxAt, Address: a, Board: d.Board})
	if err := l.readClock(bd); !errors.Is(err, ErrBadReply) {
		return err
	}
	return nil
}

// poll reads one board's changes. A board whose changes could not be
// read intact (ErrBadReply after every retry: the board may have given up
// a packet that never arrived) is resynchronised instead: its log and its
// position are read, as when it is found again. A lever press among the
// changes has the clock read when the schedule finds room (schedule.go).
func (l *line) poll(bd *board) error {
	if !bd.resync {
		err := l.changes(bd)
		if !errors.Is(err, ErrBadReply) {
			if err != nil {
				return l.boardErr(bd.addr, err)
			}
			return nil
		}
		// Read the log and the position now, not a cycle later: a press
		// may be waiting on the changes lost.
		bd.resync = true
	}
	l.b.opts.Logger.Info("dgt bus: changes may have been lost, reading log and position", "addr", bd.addr)
	err := l.resync(bd)
	if errors.Is(err, ErrBadReply) && bd.resyncTries < l.b.opts.Retries {
		bd.resyncTries++ // still garbled: again next cycle
		return nil
	}
	if err != nil {
		return l.boardErr(bd.addr, err)
	}
	return nil
}

// changes reads a board's changes and reports them; a begin position
// among them gets a start tag (unless NoStartTags), records that did not
// parse a fresh read of the position. It returns the board's error.
func (l *line) changes(bd *board) error {
	u, err := l.fetchChanges(bd)
	if err != nil {
		return err
	}
	bd.repollAt = time.Time{}
	if u.Data == "" {
		if l.b.opts.EmptyChanges {
			l.b.emit(l.ctx, Changes{At: l.rxAt, Asked: l.asked, Address: bd.addr})
		}
		return nil
	}
	log := u.Log(l.b.opts.EEFBit)
	if log.Err != nil {
		l.b.opts.Logger.Warn("bus: bad EEPROM records", "addr", bd.addr, "err", log.Err)
	}
	begin := false
	for _, r := range log.Entries {
		switch r.Kind {
		case dgt.EEBeginPos, dgt.EEBeginPosRot, dgt.EEFourRows:
			begin = true
		case dgt.EEStartTag:
			l.busy = true // a start tag and every piece: a long packet
		case dgt.EEClock:
			if !bd.pressed {
				l.pressSeq++
				bd.pressed, bd.pressSeq = true, l.pressSeq
			}
			if l.b.opts.RepollAfter > 0 {
				bd.repollAt = l.rxAt.Add(l.b.opts.RepollAfter)
			}
		}
	}
	if len(log.Entries) > 0 || l.b.opts.EmptyChanges {
		l.b.emit(l.ctx, Changes{At: l.rxAt, Asked: l.asked, Address: bd.addr, Records: log.Entries})
	}
	if log.Err != nil {
		// Records were lost: re-read the whole position.
		d, err := exchange(l, dgt.BusCmdSendBoard, dgt.BusCmdSendBoard, bd.addr, func(d dgt.BusBoardDump) uint16 { return d.Address })
		if err != nil {
			return err
		}
		l.b.emit(l.ctx, Position{At: l.rxAt, Address: bd.addr, Board: d.Board})
	}
	if begin && !l.b.opts.NoStartTags {
		if _, err := exchange(l, dgt.BusCmdSetStartGame, dgt.BusCmdSetStartGame, bd.addr, func(w dgt.BusStartGameWritten) uint16 { return w.Address }); err != nil {
			return err
		}
	}
	return nil
}

// resync reads a board's log and position after changes may have been
// lost.
func (l *line) resync(bd *board) error {
	l.busy = true
	if !l.b.opts.NoLog {
		if err := l.readLog(bd); err != nil {
			return err
		}
	}
	d, err := exchange(l, dgt.BusCmdSendBoard, dgt.BusCmdSendBoard, bd.addr, func(d dgt.BusBoardDump) uint16 { return d.Address })
	if err != nil {
		return err
	}
	l.b.emit(l.ctx, Position{At: l.rxAt, Address: bd.addr, Board: d.Board})
	bd.resync, bd.resyncTries = false, 0
	return nil
}

// fetchChanges reads a board's changes: SEND_CHANGES, and REPEAT_CHANGES
// after a garbled reply (the board has already given the packet up, so
// asking anew would lose it). After a time-out it cannot tell whether the
// command or the reply was lost: if REPEAT_CHANGES then returns the packet
// taken last time, the command was lost (the board repeated the old
// packet) and SEND_CHANGES is sent again. Either way what the board says
// for ReplyTimeout after the repeated packet is dropped: a board that
// heard SEND_CHANGES late sends its packet twice.
func (l *line) fetchChanges(bd *board) (dgt.BusUpdate, error) {
	o := l.b.opts
	cmd := dgt.BusCmdSendChanges
	timedOut := false
	var last error = ErrNoReply
	for try := 0; try <= o.Retries; try++ {
		if try == 0 {
			l.polled(bd, time.Now())
		}
		if cmd == dgt.BusCmdSendChanges {
			// REPEAT_CHANGES gets the packet made for the last
			// SEND_CHANGES: the board looked no earlier than that.
			l.asked = time.Now()
		}
		if err := l.send(cmd, bd.addr); err != nil {
			return dgt.BusUpdate{}, errPort{err}
		}
		u, ferr, err := l.await(bd.addr, func(m dgt.Message) (uint16, bool) {
			u, ok := m.(dgt.BusUpdate)
			return u.Address, ok
		})
		switch {
		case err != nil:
			return dgt.BusUpdate{}, err
		case ferr != nil:
			last, cmd, timedOut = fmt.Errorf("%w: %w", ErrBadReply, ferr), dgt.BusCmdRepeatChanges, false
		case u == nil:
			last, cmd, timedOut = ErrNoReply, dgt.BusCmdRepeatChanges, true
		default:
			up := u.(dgt.BusUpdate)
			if cmd == dgt.BusCmdRepeatChanges && timedOut {
				// The board may have heard SEND_CHANGES late rather than
				// not at all (a board, or a line, held up past the
				// time-out): it then answers it and REPEAT_CHANGES one
				// after the other with the same packet. The second copy
				// is let pass here: taken as the reply to the next
				// command, it would stand in for that reply, whose
				// records would be dropped as a stray frame and lost.
				if err := l.drain(time.Now().Add(o.ReplyTimeout)); err != nil {
					return dgt.BusUpdate{}, err
				}
			}
			if cmd == dgt.BusCmdRepeatChanges && timedOut && up.Data == bd.lastPkt {
				cmd, timedOut = dgt.BusCmdSendChanges, false // the old packet: ask anew
				continue
			}
			bd.lastPkt = up.Data
			return up, nil
		}
	}
	return dgt.BusUpdate{}, last
}

// readLog reads a board's log (SEND_FROM_START, then SEND_CHANGES for what
// was not fetched yet) and reports it. It returns the board's error.
func (l *line) readLog(bd *board) error {
	l.busy = true
	fs, err := exchange(l, dgt.BusCmdSendFromStart, dgt.BusCmdSendFromStart, bd.addr, func(m dgt.BusFromStart) uint16 { return m.Address })
	if err != nil {
		return err
	}
	u, err := l.fetchChanges(bd)
	if err != nil {
		return err
	}
	log := dgt.ParseEELog([]byte(fs.Data+u.Data), l.b.opts.EEFBit)
	if log.Err != nil {
		l.b.opts.Logger.Warn("bus: bad EEPROM records in the log", "addr", bd.addr, "err", log.Err)
	}
	l.b.emit(l.ctx, Log{At: l.rxAt, Address: bd.addr, Log: log})
	return nil
}

// readClock reads the clock and reports it when it changed. A reply that
// stayed garbled is returned as ErrBadReply (the board is not lost for
// it); other failures go through boardErr.
func (l *line) readClock(bd *board) error {
	l.b.stats.clockReads.Add(1)
	bd.lastRead = time.Now()
	c, err := exchange(l, dgt.BusCmdSendClock, dgt.BusCmdSendClock, bd.addr, func(c dgt.BusClock) uint16 { return c.Address })
	if errors.Is(err, ErrBadReply) {
		return err
	}
	if err != nil {
		return l.boardErr(bd.addr, err)
	}
	t, ok := c.Clock.(dgt.ClockTimes)
	if !ok || (bd.haveClock && t == bd.lastClock) {
		return nil
	}
	bd.lastClock, bd.haveClock = t, true
	l.b.emit(l.ctx, Clock{At: l.rxAt, Address: bd.addr, Clock: t})
	return nil
}

// boardErr turns a board's failure into BoardLost (nil: polling goes on);
// port failures are returned.
func (l *line) boardErr(a uint16, err error) error {
	if isPort(err) {
		return err
	}
	if bd := l.known(a); bd != nil && !bd.lost {
		bd.lost, bd.pressed = true, false
		bd.pingGap, bd.pingAt = l.b.opts.RepingLost, time.Time{}
		if bd.pingGap > 0 {
			bd.pingAt = time.Now().Add(bd.pingGap)
		}
		l.b.opts.Logger.Warn("dgt bus board lost", "addr", a, "err", err)
		l.b.emit(l.ctx, BoardLost{At: time.Now(), Address: a, Err: err})
	}
	if errors.Is(err, ErrNoReply) || errors.Is(err, ErrBadReply) {
		return nil
	}
	return err
}

func contains(s []uint16, a uint16) bool {
	for _, x := range s {
		if x == a {
			return true
		}
	}
	return false
}

// reping pings lost board bd once (no retry: it is lost already) and
// registers it again if it answers; otherwise its next ping waits twice
// as long, up to Rediscover (Settings.RepingLost).
func (l *line) reping(bd *board) error {
	if err := l.send(dgt.BusCmdPing, bd.addr); err != nil {
		return errPort{err}
	}
	m, _, err := l.await(bd.addr, func(m dgt.Message) (uint16, bool) {
		p, ok := m.(dgt.BusPing)
		return p.Address, ok
	})
	if err != nil {
		return err
	}
	if m != nil {
		if err := l.register(bd.addr); err != nil || !bd.lost {
			return err
		}
		// It answered the ping but not what followed: still lost.
	}
	bd.pingGap = min(2*bd.pingGap, l.b.opts.Rediscover)
	bd.pingAt = time.Now().Add(bd.pingGap)
	return nil
}
