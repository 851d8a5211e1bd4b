package bus

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/internal/evq"
	"github.com/dgtbridge/dgtbridge/port"
)

// Bus drives one bus line. Create it with [New], run [Bus.Run] in a
// goroutine and read [Bus.Events]. Run must be called at most once.
type Bus struct {
	open   port.Opener
	opts   Settings
	stats  lineStats
	events *evq.Queue[Event]
	reqs   chan logRequest
	done   chan struct{}
	once   sync.Once
}

// logRequest asks the Run goroutine to read a board's log.
type logRequest struct {
	addr  uint16
	reply chan error
}

// New returns a bus that opens its line with open.
func New(open port.Opener, opts Settings) *Bus {
	opts = opts.withDefaults()
	return &Bus{open: open, opts: opts, events: evq.New[Event](opts.EventBuffer),
		reqs: make(chan logRequest), done: make(chan struct{})}
}

// ReadLog reads the EEPROM log of the board at addr (SEND_FROM_START and
// SEND_CHANGES, between two polls) and returns once the [Log] event is
// out. It fails with ErrUnknownBoard for an address that is not a found
// board, ErrStopped when the line is down or Run has returned, or the
// board's error (ErrNoReply, ErrBadReply, after which it is lost). Safe
// for concurrent use.
func (b *Bus) ReadLog(ctx context.Context, addr uint16) error {
	r := logRequest{addr: addr, reply: make(chan error, 1)}
	select {
	case b.reqs <- r:
	case <-b.done:
		return ErrStopped
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-r.reply:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Events returns the event channel; Run closes it when it returns. The
// caller must drain it. The line never waits for the consumer: events
// queue in memory while it falls behind (they carry the time their reply
// came off the line).
func (b *Bus) Events() <-chan Event { return b.events.Out() }

// Run opens the line, discovers and polls the boards, and reopens the
// line after failures, until ctx is done; then it closes the port and
// the event channel and returns nil.
func (b *Bus) Run(ctx context.Context) error {
	started := false
	b.once.Do(func() { started = true })
	if !started {
		return errors.New("bus: Run called twice")
	}
	stopq := make(chan struct{})
	var qwg sync.WaitGroup
	qwg.Go(func() { b.events.Run(stopq) })
	defer qwg.Wait()
	defer close(stopq)
	defer close(b.done)
	backoff := b.opts.BackoffMin
	for ctx.Err() == nil {
		rwc, err := b.open(ctx)
		if err == nil {
			b.emit(ctx, LineUp{At: time.Now()})
			l := newLine(b, ctx, rwc)
			err = l.run()
			l.close()
			if ctx.Err() != nil {
				return nil
			}
			b.emit(ctx, LineDown{At: time.Now(), Err: err})
			backoff = b.opts.BackoffMin
		}
		b.opts.Logger.Warn("dgt bus line down, retrying", "err", err, "backoff", backoff)
		t := time.NewTimer(backoff)
	wait:
		for {
			select {
			case <-ctx.Done():
				t.Stop()
				return nil
			case r := <-b.reqs:
				r.reply <- ErrStopped
			case <-t.C:
				break wait
			}
		}
		backoff = min(2*backoff, b.opts.BackoffMax)
	}
	return nil
}

// emit queues e for the consumer; it never blocks (ctx is kept for the
// callers' symmetry with the port's lifetime).
func (b *Bus) emit(_ context.Context, e Event) { b.events.Put(e) }

// board is the state of one known board.
type board struct {
	addr        uint16
	version     dgt.BusVersion // its answer to SEND_VERSION when it was found
	lost        bool
	lastClock   dgt.ClockTimes
	haveClock   bool
	lastPkt     string        // the data of the last SEND_CHANGES reply taken
	resync      bool          // changes may have been lost: read the log and the position
	resyncTries int           // resyncs that came back garbled in a row
	pressed     bool          // the last changes held a clock record: read the clock soon
	pressSeq    uint64        // orders the pressed boards' clock reads (oldest first)
	repollAt    time.Time     // its last changes held a press: poll them again then (RepollAfter)
	lastRead    time.Time     // when its clock was last read (clocks: the longest unread first)
	lastPoll    time.Time     // when its changes were last asked for (the schedule)
	cost        time.Duration // the usual time of its changes poll
	round       int64         // the round after the one it was last polled in
	clockDue    bool          // ClockEvery: its clock is read after this poll
	pingAt      time.Time     // lost: when to ping it again (RepingLost)
	pingGap     time.Duration // lost: the gap before the ping after that one
}

// line is one open port: the Run goroutine's state while it lasts.
type line struct {
	b      *Bus
	ctx    context.Context
	rwc    io.ReadWriteCloser
	in     chan chunk
	stop   chan struct{}
	wg     sync.WaitGroup
	dec    *dgt.Decoder
	boards []*board      // in address order
	live   []*board      // the boards not lost, the longest unpolled first (liveBoards)
	err    error         // the port's read error, once seen
	rxAt   time.Time     // when the bytes last fed to the decoder were read
	asked  time.Time     // when the last SEND_CHANGES was sent (Changes.Asked)
	direct readDeadliner // the port, when its reads take deadlines
	buf    []byte        // the read buffer of direct reads
	sends  int64         // commands sent (an exchange without retry sends one)
	// changesCost and clockCost are the usual times of a changes poll and
	// of a clock exchange, changesDev the usual deviation of a poll's
	// (the schedule's slack).
	changesCost, changesDev, clockCost time.Duration
	pressSeq                           uint64 // presses seen on the line (board.pressSeq)
	// round counts the rounds in which every live board is polled once;
	// roundStart is when the current one began, roundClocks the clocks
	// it read; owed: the last round read none, one is read at once.
	round       int64
	roundStart  time.Time
	roundClocks int
	owed        bool
	busy        bool      // this step read a log, registered or resynchronised a board
	lastBusy    time.Time // when the last busy step ended

	unwatch func() bool // stops closing rwc when ctx is done
}

type chunk struct {
	at  time.Time // when the read returned
	b   []byte
	err error
}

// newLine starts the reader goroutine of rwc; [line.close] stops it. When
// ctx is done rwc is closed at once, so that a write the line does not
// take cannot keep Run from returning.
func newLine(b *Bus, ctx context.Context, rwc io.ReadWriteCloser) *line {
	l := &line{b: b, ctx: ctx, rwc: rwc, in: make(chan chunk, 64), stop: make(chan struct{}), dec: dgt.NewDecoder(dgt.Bus),
		changesCost: defaultChangesCost, changesDev: defaultChangesCost / 4, clockCost: defaultClockCost}
	l.unwatch = context.AfterFunc(ctx, func() { rwc.Close() })
	if d, ok := rwc.(readDeadliner); ok && d.SetReadDeadline(time.Time{}) == nil {
		// Reads with a deadline on the line's own goroutine: no reader
		// goroutine, channel and timer per exchange.
		l.direct, l.buf = d, make([]byte, 1024)
		return l
	}
	l.wg.Go(func() {
		buf := make([]byte, 1024)
		for {
			n, err := rwc.Read(buf)
			c := chunk{at: time.Now(), err: err}
			if n > 0 {
				c.b = append([]byte(nil), buf[:n]...)
			}
			select {
			case l.in <- c:
			case <-l.stop:
				return
			}
			if err != nil {
				return
			}
		}
	})
	return l
}

func (l *line) close() {
	l.unwatch()
	close(l.stop)
	l.rwc.Close()
	l.wg.Wait()
	for _, bd := range l.boards {
		if !bd.lost {
			l.b.emit(l.ctx, BoardLost{At: time.Now(), Address: bd.addr, Err: errors.New("bus: line down")})
		}
	}
}

// run discovers and polls until the port fails or ctx is done (the
// schedule: schedule.go).
func (l *line) run() error {
	o := l.b.opts
	if err := l.discover(); err != nil {
		return err
	}
	l.endStep()
	lastDiscovery := time.Now()
	l.roundStart = lastDiscovery
	for {
		now := time.Now()
		s := l.plan(now, l.liveBoards())
		sends := l.sends
		switch s.kind {
		case stepPoll:
			if err := l.poll(s.bd); err != nil {
				return err
			}
			if l.sends == sends+1 && !l.busy {
				// One exchange: its time (a reply is never waited for
				// longer than ReplyTimeout; more is a starved process,
				// not the line) is the board's usual cost.
				d := min(time.Since(now), o.ReplyTimeout)
				l.changesDev = (3*l.changesDev + (d - s.bd.cost).Abs()) / 4
				l.changesCost = (7*l.changesCost + d) / 8
				s.bd.cost = max(d, (s.bd.cost+d)/2) // a longer reply: at once
			}
		case stepClock:
			if err := l.readClock(s.bd); err != nil && !errors.Is(err, ErrBadReply) {
				return err
			}
			d := min(time.Since(now), o.ReplyTimeout)
			if l.sends != sends+1 {
				d = l.clockCost // retried: not the usual cost
			}
			l.clockRead(s.bd, d)
		case stepPing:
			if err := l.reping(s.bd); err != nil {
				return err
			}
		case stepWait:
			if err := l.wait(s.until); err != nil {
				return err
			}
		}
		l.endStep()
		if err := l.requests(); err != nil {
			return err
		}
		if time.Since(lastDiscovery) >= o.Rediscover {
			if err := l.discover(); err != nil {
				return err
			}
			l.endStep()
			lastDiscovery = time.Now()
		}
	}
}

// endStep closes a step: busy work (a log, a found board) marks the
// polling intervals that span it as not steady (Stats).
func (l *line) endStep() {
	if l.busy {
		l.lastBusy, l.busy = time.Now(), false
	}
}

// wait waits until until, or until it has served a log request.
func (l *line) wait(until time.Time) error {
	t := time.NewTimer(time.Until(until))
	defer t.Stop()
	for {
		select {
		case <-l.ctx.Done():
			return l.ctx.Err()
		case r := <-l.b.reqs:
			return l.request(r) // then plan again
		case <-t.C:
			return nil
		}
	}
}

// requests serves the log requests waiting, without blocking.
func (l *line) requests() error {
	for {
		select {
		case r := <-l.b.reqs:
			if err := l.request(r); err != nil {
				return err
			}
		default:
			return nil
		}
	}
}

// request reads the log a request asks for; a port failure is returned.
func (l *line) request(r logRequest) error {
	bd := l.known(r.addr)
	if bd == nil || bd.lost {
		r.reply <- ErrUnknownBoard
		return nil
	}
	err := l.readLog(bd)
	r.reply <- err
	if err != nil {
		return l.boardErr(bd.addr, err)
	}
	return nil
}

// send writes one bus command.
func (l *line) send(cmd dgt.BusCmd, addr uint16) error {
	b, err := dgt.BusCommand{Cmd: cmd, Address: addr}.AppendBinary(nil)
	if err != nil {
		return err
	}
	_, err = l.rwc.Write(b)
	l.sends++
	l.b.stats.bytesOut.Add(int64(len(b)))
	return err
}

// errPort marks an error of the port itself (not of a board).
type errPort struct{ err error }

func (e errPort) Error() string { return e.err.Error() }
func (e errPort) Unwrap() error { return e.err }

// next returns the next message or frame error from the line, waiting
// until *deadline; ok false on time-out. When extend is set, every chunk
// that arrives moves the deadline to ReplyTimeout after it, so a long
// reply (a log of several kB takes seconds at 9600 baud) is waited for as
// long as it keeps coming. A port failure is returned as errPort.
func (l *line) next(deadline *time.Time, extend bool) (msg dgt.Message, frameErr error, ok bool, err error) {
	for {
		m, ferr := l.dec.Next()
		if !errors.Is(ferr, dgt.ErrNeedMore) {
			return m, ferr, true, nil
		}
		if l.err != nil {
			return nil, nil, false, errPort{l.err}
		}
		if l.direct != nil {
			if timedOut, err := l.readDirect(deadline, extend); timedOut || err != nil {
				return nil, nil, false, err
			}
			continue
		}
		t := time.NewTimer(time.Until(*deadline))
		select {
		case <-l.ctx.Done():
			t.Stop()
			return nil, nil, false, l.ctx.Err()
		case c := <-l.in:
			t.Stop()
			l.take(c, deadline, extend)
		case <-t.C:
			// What the reader had brought by now still counts: this
			// goroutine may not have run at the deadline.
			select {
			case c := <-l.in:
				l.take(c, deadline, extend)
			default:
				return nil, nil, false, nil
			}
		}
	}
}

// take feeds a chunk from the reader goroutine to the decoder.
func (l *line) take(c chunk, deadline *time.Time, extend bool) {
	l.dec.Feed(c.b)
	l.rxAt = c.at
	l.b.stats.bytesIn.Add(int64(len(c.b)))
	if c.err != nil {
		l.err = c.err
	}
	if extend && len(c.b) > 0 {
		if d := time.Now().Add(l.b.opts.ReplyTimeout); d.After(*deadline) {
			*deadline = d
		}
	}
}

// readDeadliner is a port whose reads may take a deadline (the runtime's
// poller: serial devices opened by package serialport, pipes, pseudo-terminals;
// a wrapper may have the method and refuse with os.ErrNoDeadline).
type readDeadliner interface {
	SetReadDeadline(t time.Time) error
}

// lastLook is how long the read after a time-out waits (readDirect).
const lastLook = time.Millisecond

// readDirect reads the port until *deadline and feeds what came; it
// reports a time-out, or the ctx's error when ctx is done. A port failure
// is kept in l.err. A read that times out with nothing is followed by one
// more with a fresh, short deadline before the time-out is believed: this
// goroutine may not have run when the deadline passed (a starved
// process), and a read whose deadline has passed fails at once without
// looking at the reply the kernel already holds.
func (l *line) readDirect(deadline *time.Time, extend bool) (timedOut bool, err error) {
	n, rerr, ok := l.readBy(*deadline)
	if ok && n == 0 && errors.Is(rerr, os.ErrDeadlineExceeded) {
		n, rerr, ok = l.readBy(time.Now().Add(lastLook))
	}
	if !ok {
		return false, nil
	}
	if n > 0 {
		now := time.Now()
		l.dec.Feed(l.buf[:n])
		l.rxAt = now
		l.b.stats.bytesIn.Add(int64(n))
		if extend {
			if d := now.Add(l.b.opts.ReplyTimeout); d.After(*deadline) {
				*deadline = d
			}
		}
	}
	switch {
	case rerr == nil:
		return false, nil
	case errors.Is(rerr, os.ErrDeadlineExceeded):
		return n == 0, nil
	case l.ctx.Err() != nil:
		return false, l.ctx.Err()
	}
	l.err = rerr
	return false, nil
}

// readBy reads the port with deadline t; ok is false when the deadline
// could not be set (kept in l.err).
func (l *line) readBy(t time.Time) (n int, err error, ok bool) {
	if err := l.direct.SetReadDeadline(t); err != nil {
		l.err = err
		return 0, nil, false
	}
	n, err = l.rwc.Read(l.buf)
	return n, err, true
}

// exchange sends cmd to addr and waits for its reply (a message of type
// T from addr). A checksum error or time-out is retried with retryCmd
// (REPEAT_CHANGES for changes, the same command otherwise). It returns
// ErrNoReply or ErrBadReply when all tries fail; port errors as errPort.
func exchange[T dgt.Message](l *line, cmd, retryCmd dgt.BusCmd, addr uint16, from func(T) uint16) (T, error) {
	var zero T
	var last error = ErrNoReply
	for try := 0; try <= l.b.opts.Retries; try++ {
		c := cmd
		if try > 0 {
			c = retryCmd
		}
		if err := l.send(c, addr); err != nil {
			return zero, errPort{err}
		}
		m, ferr, err := l.await(addr, func(m dgt.Message) (uint16, bool) {
			r, ok := m.(T)
			if !ok {
				return 0, false
			}
			return from(r), true
		})
		switch {
		case err != nil:
			return zero, err
		case ferr != nil:
			last = fmt.Errorf("%w: %w", ErrBadReply, ferr)
		case m == nil:
			last = ErrNoReply
		default:
			return m.(T), nil
		}
	}
	return zero, last
}

// await waits ReplyTimeout (longer while bytes keep coming) for the reply
// of the board at addr: a message that match says is of the wanted kind
// (and whose address it returns). It returns the message; or a frame
// error (a garbled reply, after the rest of it was let in and dropped);
// or neither on a time-out, after dropping any incomplete frame so that it
// is not joined to the next reply; or a port error (errPort, or ctx's).
func (l *line) await(addr uint16, match func(dgt.Message) (uint16, bool)) (dgt.Message, error, error) {
	deadline := time.Now().Add(l.b.opts.ReplyTimeout)
	for {
		m, ferr, ok, err := l.next(&deadline, true)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			if ferr := l.dec.Flush(); ferr != nil {
				return nil, ferr, nil // a reply cut short
			}
			return nil, nil, nil
		}
		if ferr != nil {
			l.b.opts.Logger.Debug("bus frame error", "addr", addr, "err", ferr)
			// let the rest of the garbled reply arrive, then retry
			if err := l.drain(time.Now().Add(l.b.opts.ReplyTimeout / 4)); err != nil {
				return nil, nil, err
			}
			return nil, ferr, nil
		}
		if a, isT := match(m); isT && a == addr {
			return m, nil, nil
		}
		l.b.opts.Logger.Debug("bus stray message", "want", addr, "msg", fmt.Sprintf("%T", m))
	}
}

// drain discards what arrives until deadline.
func (l *line) drain(deadline time.Time) error {
	for {
		_, _, ok, err := l.next(&deadline, false)
		if err != nil || !ok {
			return err
		}
	}
}

// isPort reports whether err ends the line (port failure or ctx done).
func isPort(err error) bool {
	var pe errPort
	return errors.As(err, &pe) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// known returns the board with address a, or nil.
func (l *line) known(a uint16) *board {
	for _, bd := range l.boards {
		if bd.addr == a {
			return bd
		}
	}
	return nil
}

// sortBoards keeps the polling order by address.
func (l *line) sortBoards() {
	slices.SortFunc(l.boards, func(x, y *board) int { return int(x.addr) - int(y.addr) })
}
