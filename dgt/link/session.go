package link

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
)

// session is one connection: from open to the first read or write error.
// It runs on the Run goroutine; only readLoop runs beside it.
type session struct {
	l      *Link
	ctx    context.Context
	rwc    io.ReadWriteCloser
	in     chan chunk
	dec    *dgt.Decoder
	queue  []Event
	lastRx time.Time
	polled time.Time // watchdog poll outstanding since, zero if none
	clock  bool

	pending []request
	cur     *inflight
	replies []func() // answers to send once the queued events are out

	rs resync     // what the link knows of the board, to notice and repair damage
	cg clockGuard // clock readings held back until confirmed
}

// inflight is the exclusive request on the line: a clock command waiting
// for its ACK, or a log read waiting for the EEPROM dump.
type inflight struct {
	req   request
	cmd   dgt.ClockCmd
	wire  []byte
	tries int
	timer *time.Timer
}

var errTimeout = errors.New("link: timeout")

// session serves one connection; connected reports whether the board was
// identified (and Connected emitted).
func (l *Link) session(ctx context.Context, rwc io.ReadWriteCloser) (connected bool, err error) {
	s, end := l.start(ctx, rwc)
	defer end()
	info, err := s.identify(!l.opts.NoLog)
	if err != nil {
		return false, err
	}
	l.opts.Logger.Info("dgt board connected", "serial", info.Serial, "version", fmt.Sprintf("%d.%02d", info.Version.Major, info.Version.Minor), "clock", info.Clock)
	l.emit(ctx, info)
	s.flush()
	if s.rs.badLog {
		s.requestLog() // the connection's log arrived damaged: once more
	}
	return true, s.serve()
}

// start begins a session on rwc: its reader goroutine runs until end is
// called, which closes rwc, joins the reader and fails outstanding clock
// commands. When ctx is done rwc is closed at once, so that a write the
// device does not take (a full pseudo-terminal, a stuck USB line) cannot
// keep Run from returning.
func (l *Link) start(ctx context.Context, rwc io.ReadWriteCloser) (*session, func()) {
	stop := make(chan struct{})
	s := &session{l: l, ctx: ctx, rwc: rwc, in: make(chan chunk, 16), dec: dgt.NewDecoder(dgt.SingleBoard), lastRx: time.Now()}
	var wg sync.WaitGroup
	wg.Go(func() { readLoop(rwc, s.in, stop) })
	unwatch := context.AfterFunc(ctx, func() { rwc.Close() })
	return s, func() {
		unwatch()
		close(stop)
		rwc.Close()
		wg.Wait()
		s.failAll()
	}
}

// write sends a command.
func (s *session) write(c dgt.Command) error {
	b, err := c.AppendBinary(nil)
	if err != nil {
		return err
	}
	_, err = s.rwc.Write(b)
	return err
}

// identify runs the connection sequence (see the package comment), with
// the EEPROM log read when readLog is set.
func (s *session) identify(readLog bool) (Connected, error) {
	o := s.l.opts
	var info Connected
	if err := s.write(dgt.CmdReset); err != nil {
		return info, err
	}
	found := false
	for try := 0; try < o.IdentifyTries && !found; try++ {
		if err := s.write(dgt.CmdSendVersion); err != nil {
			return info, err
		}
		m, err := s.await(o.IdentifyInterval, func(m dgt.Message) bool { _, ok := m.(dgt.Version); return ok })
		switch {
		case err == nil:
			info.Version, found = m.(dgt.Version), true
		case !errors.Is(err, errTimeout):
			return info, err
		}
	}
	if !found {
		return info, ErrNoBoard
	}
	if err := s.write(dgt.CmdReturnSerialNr); err != nil {
		return info, err
	}
	m, err := s.await(o.ReplyTimeout, func(m dgt.Message) bool { _, ok := m.(dgt.SerialNumber); return ok })
	if err != nil {
		return info, fmt.Errorf("%w: no serial number: %w", ErrNoBoard, err)
	}
	info.Serial = m.(dgt.SerialNumber).Serial
	if err := s.write(dgt.CmdReturnLongSerialNr); err != nil {
		return info, err
	}
	m, err = s.await(o.ReplyTimeout/4, func(m dgt.Message) bool { _, ok := m.(dgt.LongSerialNumber); return ok })
	switch {
	case err == nil:
		info.LongSerial = m.(dgt.LongSerialNumber).Serial
	case !errors.Is(err, errTimeout):
		return info, err
	}
	if readLog {
		if err := s.readLogAtConnect(); err != nil {
			return info, err
		}
	}
	if err := s.write(dgt.CmdSendUpdateNice); err != nil {
		return info, err
	}
	if err := s.write(dgt.ClockRequest{Cmd: dgt.ClockCmdVersion}); err != nil {
		return info, err
	}
	m, err = s.await(o.ReplyTimeout, func(m dgt.Message) bool {
		switch m := m.(type) {
		case dgt.ClockAck:
			_, _, ok := m.Version()
			return ok
		case dgt.ClockTimes:
			return m.Status.NoClock()
		}
		return false
	})
	switch {
	case err == nil:
		if a, ok := m.(dgt.ClockAck); ok {
			maj, min, _ := a.Version()
			info.Clock, info.ClockVersion = true, [2]uint8{maj, min}
		}
	case !errors.Is(err, errTimeout):
		return info, err
	}
	s.clock = info.Clock
	if err := s.write(dgt.CmdSendBoard); err != nil {
		return info, err
	}
	if _, err := s.await(o.ReplyTimeout, func(m dgt.Message) bool { _, ok := m.(dgt.BoardDump); return ok }); err != nil {
		return info, fmt.Errorf("%w: no board dump: %w", ErrNoBoard, err)
	}
	info.At = time.Now()
	return info, nil
}

// readLogAtConnect reads the board's EEPROM log during the connection
// sequence; a board that has none gives a Log event with ErrNoLog.
func (s *session) readLogAtConnect() error {
	o := s.l.opts
	// In IDLE mode the dump is alone on the line; changes made while
	// it is sent are in the board dump at the end of the sequence.
	asked := time.Now()
	if err := s.write(dgt.CmdSendEEMoves); err != nil {
		return err
	}
	s.rs.expectLog, s.rs.logTries, s.rs.logEnded = true, 1, false
	// A board with an EEPROM starts its dump at once; one without
	// never answers: silence for ReplyTimeout means no log, rather
	// than a whole LogTimeout (15 s) of IDLE mode at every connection
	// while the game goes on unseen.
	if _, err := s.awaitCond(o.ReplyTimeout, nil, func() bool { return s.rs.logEnded || s.lastRx.After(asked) }); err != nil {
		if !errors.Is(err, errTimeout) {
			return err
		}
		s.l.opts.Logger.Warn("no EEPROM log from the board (it does not answer the request)", "timeout", o.ReplyTimeout)
		s.queue = append(s.queue, Log{At: time.Now(), Err: ErrNoLog})
		s.rs.logEnded = true
	}
	for !s.rs.logEnded {
		tries := s.rs.logTries
		_, err := s.awaitCond(o.LogTimeout, nil, func() bool { return s.rs.logEnded })
		switch {
		case s.rs.logEnded:
		case errors.Is(err, errTimeout) && s.rs.logTries > tries:
			// asked again after damage: a full LogTimeout for it
		case errors.Is(err, errTimeout):
			s.l.opts.Logger.Warn("no EEPROM log from the board", "timeout", o.LogTimeout)
			s.queue = append(s.queue, Log{At: time.Now(), Err: ErrNoLog})
			s.rs.logEnded = true
		default:
			return err
		}
	}
	s.rs.expectLog = false
	return nil
}

// await queues messages until one satisfies pred, for at most d; it
// returns errTimeout, or the read error that ended the connection.
func (s *session) await(d time.Duration, pred func(dgt.Message) bool) (dgt.Message, error) {
	return s.awaitCond(d, pred, nil)
}

// awaitCond is await that also returns (nil, nil) as soon as cond holds.
func (s *session) awaitCond(d time.Duration, pred func(dgt.Message) bool, cond func() bool) (dgt.Message, error) {
	t := time.NewTimer(d)
	defer t.Stop()
	stall := time.NewTicker(frameStall / 2)
	defer stall.Stop()
	for {
		if m, ok := s.decode(time.Now(), pred); ok {
			return m, nil
		}
		if err := s.rs.err; err != nil {
			return nil, err
		}
		if cond != nil && cond() {
			return nil, nil
		}
		select {
		case <-s.ctx.Done():
			return nil, s.ctx.Err()
		case <-t.C:
			return nil, errTimeout
		case now := <-stall.C:
			s.unstall(now)
		case c := <-s.in:
			if err := s.take(c); err != nil {
				return nil, err
			}
		}
	}
}

// take feeds a chunk to the decoder.
func (s *session) take(c chunk) error {
	if len(c.b) > 0 {
		s.lastRx, s.polled = c.at, time.Time{}
		s.dec.Feed(c.b)
	}
	if c.err != nil {
		return c.err
	}
	return nil
}

// decode queues the buffered messages as events, stopping after the first
// one pred accepts (pred may be nil), which it returns.
func (s *session) decode(at time.Time, pred func(dgt.Message) bool) (dgt.Message, bool) {
	spill := int64(-1) // where the last message queued ended
	chunk := len(s.queue)
	s.reask(at)
	for {
		m, err := s.dec.Next()
		if errors.Is(err, dgt.ErrNeedMore) {
			return nil, false
		}
		if err != nil {
			s.dropSpilled(err, spill)
			s.dropSquares(chunk)
			spill = -1
			s.queue = append(s.queue, Resync{At: at, Err: err})
			if !s.logCut(at, err) { // a log cut short is asked again
				s.fault(at)
			}
			continue
		}
		switch m := m.(type) {
		case dgt.ClockAck:
			s.ack(m)
		case dgt.EEMoves:
			if s.gotLog(at, m) && pred != nil && pred(m) {
				return m, true
			}
			continue
		case dgt.FieldUpdate:
			s.updated(at, m)
			if s.holding(at) {
				s.rs.held = true
				continue // a repair is on its way: the dump it asked for tells
			}
		case dgt.BoardDump:
			if !s.dumped(at, m) {
				continue // a check that agreed: nothing new
			}
		case dgt.ClockTimes:
			out, ask, dropped := s.cg.take(at, Message{At: at, Msg: m}, m)
			if dropped != nil {
				s.queue = append(s.queue, Resync{At: at, Err: errUnconfirmed(*dropped)})
			}
			if ask && s.clock {
				s.l.opts.Logger.Debug("a clock reading no clock could show, asking the clock again", "times", m)
				s.repairWrite(dgt.CmdSendClock)
			}
			if len(out) == 0 {
				continue
			}
			for _, h := range out[:len(out)-1] {
				s.queue = append(s.queue, h)
			}
		}
		s.queue = append(s.queue, Message{At: at, Msg: m})
		spill = s.dec.Offset()
		if pred != nil && pred(m) {
			return m, true
		}
	}
}

// dropSquares takes back the field updates and dumps queued since from
// (the bytes read with a damaged frame): noise rarely garbles one byte
// alone, and a flipped bit can leave a message well-formed and wrong (a
// field update naming another square, a piece code changed). The repair
// that the damage asks for (fault) reads the whole board, which tells the
// truth about every square; until it comes, field updates are held back
// too (decode).
func (s *session) dropSquares(from int) {
	if from >= len(s.queue) {
		return
	}
	kept := s.queue[:from]
	for _, e := range s.queue[from:] {
		if m, ok := e.(Message); ok {
			switch m.Msg.(type) {
			case dgt.FieldUpdate, dgt.BoardDump:
				s.rs.held = true
				continue
			}
		}
		kept = append(kept, e)
	}
	s.queue = kept
}

// dropSpilled takes back the message queued last when err is stray data
// bytes right after its end (spill): a byte doubled inside a message
// pushes its last byte out of the frame, and what is left in the frame is
// shifted by one (a dump with every piece one square off, a field update
// naming another square, a clock time with its digits moved). It has the
// right length and valid content, so only the byte it spilled gives it
// away. The damage is repaired like any other (fault asks the board
// again).
func (s *session) dropSpilled(err error, spill int64) {
	var fe *dgt.FrameError
	if spill < 0 || !errors.As(err, &fe) || !errors.Is(err, dgt.ErrGarbage) || fe.Offset != spill {
		return
	}
	if n := len(s.queue); n > 0 {
		if m, ok := s.queue[n-1].(Message); ok {
			s.queue = s.queue[:n-1]
			s.rs.held = true
			s.l.opts.Logger.Debug("message dropped: a stray byte right after it", "msg", fmt.Sprintf("%T", m.Msg))
		}
	}
}

// flush emits the queued events, then sends the answers that had to wait
// for them.
func (s *session) flush() {
	for _, e := range s.queue {
		s.l.emit(s.ctx, e)
	}
	s.queue = s.queue[:0]
	for _, r := range s.replies {
		r()
	}
	s.replies = s.replies[:0]
}

// serve is the connected state: messages out, commands in, the watchdog.
func (s *session) serve() error {
	o := s.l.opts
	wd := time.NewTicker(o.Watchdog / 4)
	defer wd.Stop()
	for {
		var ackC <-chan time.Time
		if s.cur != nil {
			ackC = s.cur.timer.C
		}
		select {
		case <-s.ctx.Done():
			return s.ctx.Err()
		case c := <-s.in:
			if err := s.input(c); err != nil {
				return err
			}
		case r := <-s.l.reqs:
			if !r.clock && !r.log {
				r.reply <- s.write(r.cmd)
				continue
			}
			if r.clock && !s.clock {
				r.reply <- &ClockError{Cmd: clockCmdOf(r.cmd), Err: ErrNoClock}
				continue
			}
			s.pending = append(s.pending, r)
			if err := s.pump(); err != nil {
				return err
			}
		case <-ackC:
			// The ACK may have come while the link was busy: what has
			// arrived is read first, so an acknowledged command is not
			// sent again (a second SetNRun would set the clock back).
			c := s.cur
			if err := s.drainInput(); err != nil {
				return err
			}
			if s.cur != c {
				continue
			}
			err := s.retry()
			s.flush()
			if err != nil {
				return err
			}
		case now := <-wd.C:
			s.unstall(now)
			s.flush()
			if err := s.check(now); err != nil {
				return err
			}
			switch {
			case !s.polled.IsZero() && now.Sub(s.polled) >= o.Watchdog:
				return ErrDead
			case s.polled.IsZero() && now.Sub(s.lastRx) >= o.Watchdog:
				s.polled = now
				if err := s.write(dgt.CmdReturnSerialNr); err != nil {
					return err
				}
			}
		}
	}
}

// input handles one chunk from the board: decoded, queued as events,
// handed on.
func (s *session) input(c chunk) error {
	err := s.take(c)
	s.decode(c.at, nil)
	s.dropPollReplies()
	s.flush()
	if err != nil {
		return err
	}
	return s.rs.err
}

// drainInput handles every chunk already received, without waiting.
func (s *session) drainInput() error {
	for {
		select {
		case c := <-s.in:
			if err := s.input(c); err != nil {
				return err
			}
		default:
			return nil
		}
	}
}

// dropPollReplies removes the serial-number replies to watchdog polls
// from the queue: they are the link's business, not news.
func (s *session) dropPollReplies() {
	q := s.queue[:0]
	for _, e := range s.queue {
		if m, ok := e.(Message); ok {
			if _, serial := m.Msg.(dgt.SerialNumber); serial {
				continue
			}
		}
		q = append(q, e)
	}
	s.queue = q
}

// pump sends the next clock command when none is in flight.
func (s *session) pump() error {
	if s.cur != nil || len(s.pending) == 0 {
		return nil
	}
	r := s.pending[0]
	s.pending = s.pending[1:]
	b, err := r.cmd.AppendBinary(nil)
	if err != nil {
		r.reply <- err
		return s.pump()
	}
	wait := s.l.opts.AckTimeout
	if r.log {
		wait = s.l.opts.LogTimeout
	}
	s.cur = &inflight{req: r, cmd: clockCmdOf(r.cmd), wire: b, tries: 1, timer: time.NewTimer(wait)}
	if r.log {
		s.rs.logTries = 1
	}
	_, err = s.rwc.Write(b)
	return err
}

// logArrived completes the log read in flight with err (nil, or
// ErrBadLog).
func (s *session) logArrived(err error) {
	s.rs.logEnded = true
	c := s.cur
	if c == nil || !c.req.log {
		return
	}
	s.cur = nil
	c.timer.Stop()
	s.replies = append(s.replies, func() { c.req.reply <- err })
	if s.rs.logAgain {
		s.rs.logAgain = false
		s.requestLog()
	}
	if err := s.pump(); err != nil {
		s.l.opts.Logger.Warn("clock command write failed", "err", err)
	}
}

// retry re-sends the clock command in flight after an ACK time-out, or
// fails it; a log read that timed out fails with ErrNoLog.
func (s *session) retry() error {
	c := s.cur
	if c.req.log {
		s.cur = nil
		s.queue = append(s.queue, Log{At: time.Now(), Err: ErrNoLog})
		s.replies = append(s.replies, func() { c.req.reply <- ErrNoLog })
		return s.pump()
	}
	if c.tries >= s.l.opts.AckTries {
		s.cur = nil
		c.req.reply <- &ClockError{Cmd: c.cmd, Tries: c.tries, Err: ErrAckTimeout}
		return s.pump()
	}
	c.tries++
	s.l.opts.Logger.Warn("clock ACK missing, re-sending", "cmd", c.cmd, "try", c.tries)
	c.timer.Reset(s.l.opts.AckTimeout)
	_, err := s.rwc.Write(c.wire)
	return err
}

// ack completes the command in flight when a matches it.
func (s *session) ack(a dgt.ClockAck) {
	cmd, ok := a.Command()
	if !ok || s.cur == nil || cmd != s.cur.cmd {
		return
	}
	c := s.cur
	s.cur = nil
	c.timer.Stop()
	if a.OK() {
		c.req.reply <- nil
	} else {
		c.req.reply <- &ClockError{Cmd: c.cmd, Tries: c.tries, Ack: &a, Err: ErrRejected}
	}
	if err := s.pump(); err != nil {
		s.l.opts.Logger.Warn("clock command write failed", "err", err)
	}
}

// failAll answers every outstanding request with ErrNotConnected (a
// *ClockError for clock commands).
func (s *session) failAll() {
	for _, r := range s.replies {
		r()
	}
	s.replies = nil
	if s.cur != nil {
		s.cur.timer.Stop()
		s.cur.req.reply <- failed(s.cur.req, s.cur.tries)
		s.cur = nil
	}
	for _, r := range s.pending {
		r.reply <- failed(r, 0)
	}
	s.pending = nil
}

// failed is the answer to a request whose connection was lost.
func failed(r request, tries int) error {
	if r.log {
		return ErrNotConnected
	}
	return &ClockError{Cmd: clockCmdOf(r.cmd), Tries: tries, Err: ErrNotConnected}
}
