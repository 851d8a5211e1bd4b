package link

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/internal/evq"
	"github.com/dgtbridge/dgtbridge/port"
)

// Link is the transport of one board on its own line. Create it with
// [New], start [Link.Run] in a goroutine, read [Link.Events], and send
// clock commands with [Link.Clock]. Run must be called at most once.
type Link struct {
	open   port.Opener
	opts   Settings
	events *evq.Queue[Event]
	reqs   chan request
	done   chan struct{}
	once   sync.Once
}

// request is a command handed to the Run goroutine.
type request struct {
	cmd   dgt.Command
	clock bool // wait for the ACK
	log   bool // DGT_SEND_EE_MOVES: wait for the log
	reply chan error
}

// New returns a link that opens its port with open.
func New(open port.Opener, opts Settings) *Link {
	opts = opts.withDefaults()
	return &Link{
		open:   open,
		opts:   opts,
		events: evq.New[Event](opts.EventBuffer),
		reqs:   make(chan request),
		done:   make(chan struct{}),
	}
}

// Events returns the channel of events. Run closes it when it returns;
// the caller must drain it. The link never stops reading the port for a
// slow consumer (the board's bytes would overflow the serial driver's
// buffer and be lost): events queue in memory while it falls behind, with
// the time their bytes were read.
func (l *Link) Events() <-chan Event { return l.events.Out() }

// Clock sends a clock command (a 0x2B-wrapped command: dgt.SetNRun,
// dgt.ClockText, dgt.ClockRequest, …) and waits until the clock
// acknowledges it, re-sending it after AckTimeout up to AckTries times.
// Commands are sent one at a time in the order Clock is called; while
// the link is (re)connecting they wait for the connection sequence to
// finish, and while it waits to reconnect they fail at once. It
// returns nil on an OK ACK, a *ClockError otherwise (wrapping
// ErrAckTimeout, ErrRejected, ErrNoClock or ErrNotConnected), ErrStopped
// after Run returned, or ctx's error. Safe for concurrent use.
func (l *Link) Clock(ctx context.Context, cmd dgt.Command) error {
	if cmd.CmdByte() != 0x2B {
		return fmt.Errorf("%w: 0x%02x", ErrNotClockCommand, cmd.CmdByte())
	}
	return l.do(ctx, request{cmd: cmd, clock: true})
}

// ReadLog asks the board for its EEPROM log (DGT_SEND_EE_MOVES, about 8 s
// of data at 9600 baud) and waits until it has arrived: the [Log] event is
// emitted before ReadLog returns nil. When nothing arrives within
// Settings.LogTimeout it returns ErrNoLog (and the Log event carries it).
// Clock commands wait while the log is on the line, and it waits for the
// clock command in flight. ErrNotConnected when no board is connected,
// ErrStopped after Run returned. Safe for concurrent use.
func (l *Link) ReadLog(ctx context.Context) error {
	return l.do(ctx, request{cmd: dgt.CmdSendEEMoves, log: true})
}

// Send writes a command that expects no acknowledgement (e.g.
// dgt.CmdSendBoard to re-read the position; the reply arrives as a
// [Message]). It returns ErrNotConnected when no board is connected.
// Safe for concurrent use.
func (l *Link) Send(ctx context.Context, cmd dgt.Command) error {
	return l.do(ctx, request{cmd: cmd})
}

func (l *Link) do(ctx context.Context, r request) error {
	r.reply = make(chan error, 1)
	select {
	case l.reqs <- r:
	case <-l.done:
		return ErrStopped
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-r.reply:
		return err
	case <-l.done:
		return ErrStopped
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Run connects, serves the board and reconnects until ctx is done, then
// closes the port and the event channel and returns nil. It only returns
// an error if it is called a second time.
func (l *Link) Run(ctx context.Context) error {
	started := false
	l.once.Do(func() { started = true })
	if !started {
		return errors.New("link: Run called twice")
	}
	stopq := make(chan struct{})
	var qwg sync.WaitGroup
	qwg.Go(func() { l.events.Run(stopq) })
	defer qwg.Wait()
	defer close(stopq)
	defer close(l.done)
	log := l.opts.Logger
	backoff := l.opts.BackoffMin
	for ctx.Err() == nil {
		rwc, err := l.open(ctx)
		if err == nil {
			var connected bool
			connected, err = l.session(ctx, rwc)
			if connected {
				backoff = l.opts.BackoffMin
			}
			if ctx.Err() != nil {
				return nil
			}
			if connected {
				l.emit(ctx, Disconnected{At: time.Now(), Err: err})
			}
		}
		log.Warn("dgt link down, retrying", "err", err, "backoff", backoff)
		if !l.wait(ctx, backoff) {
			return nil
		}
		backoff = min(2*backoff, l.opts.BackoffMax)
	}
	return nil
}

// wait sleeps d, answering requests with ErrNotConnected meanwhile; false
// when ctx is done.
func (l *Link) wait(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
			return true
		case r := <-l.reqs:
			r.reply <- notConnected(r)
		}
	}
}

func notConnected(r request) error {
	if r.clock && !r.log {
		return &ClockError{Cmd: clockCmdOf(r.cmd), Err: ErrNotConnected}
	}
	return ErrNotConnected
}

// emit queues an event for the consumer; it never blocks.
func (l *Link) emit(_ context.Context, e Event) { l.events.Put(e) }

// clockCmdOf returns the clock command byte of a 0x2B-wrapped command
// (`2B size 03 cmd …`).
func clockCmdOf(c dgt.Command) dgt.ClockCmd {
	b, err := c.AppendBinary(nil)
	if err != nil || len(b) < 4 {
		return 0
	}
	return dgt.ClockCmd(b[3])
}

// readLoop reads rwc until it fails, handing chunks to the session.
func readLoop(rwc io.Reader, out chan<- chunk, stop <-chan struct{}) {
	buf := make([]byte, 1024)
	for {
		n, err := rwc.Read(buf)
		c := chunk{at: time.Now(), err: err}
		if n > 0 {
			c.b = append([]byte(nil), buf[:n]...)
		}
		if n > 0 || err != nil {
			select {
			case out <- c:
			case <-stop:
				return
			}
		}
		if err != nil {
			return
		}
	}
}

type chunk struct {
	at  time.Time
	b   []byte
	err error
}
