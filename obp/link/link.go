package link

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/dgtbridge/dgtbridge/obp"
	"github.com/dgtbridge/dgtbridge/port"
)

// Link is the transport of one OBP board. Create it with [New], start
// [Link.Run] in a goroutine, read [Link.Events], and send commands with
// [Link.Send]. Run must be called at most once.
type Link struct {
	open   port.Opener
	opts   Settings
	events chan Event
	reqs   chan request
	done   chan struct{}
	once   sync.Once
}

type request struct {
	cmd   obp.Command
	reply chan error
}

// New returns a link that opens its port with open.
func New(open port.Opener, opts Settings) *Link {
	opts = opts.withDefaults()
	return &Link{
		open:   open,
		opts:   opts,
		events: make(chan Event, opts.EventBuffer),
		reqs:   make(chan request),
		done:   make(chan struct{}),
	}
}

// Events returns the channel of events. Run closes it when it returns;
// the caller must drain it.
func (l *Link) Events() <-chan Event { return l.events }

// Send writes a command to the board (obp.CmdBoard to re-read the whole
// board, obp.CmdClock for the clock); the answer arrives as a [Message].
// It returns ErrNotConnected while no board is connected, ErrStopped after
// Run returned, the write's error, or ctx's. Safe for concurrent use.
func (l *Link) Send(ctx context.Context, c obp.Command) error {
	r := request{cmd: c, reply: make(chan error, 1)}
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
		return errors.New("obp link: Run called twice")
	}
	defer close(l.events)
	defer close(l.done)
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
		l.opts.Logger.Warn("obp link down, retrying", "err", err, "backoff", backoff)
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
			r.reply <- ErrNotConnected
		}
	}
}

// emit sends an event unless ctx is done.
func (l *Link) emit(ctx context.Context, e Event) {
	select {
	case l.events <- e:
	case <-ctx.Done():
	}
}

type chunk struct {
	at  time.Time
	b   []byte
	err error
}

// readLoop reads r until it fails, handing chunks to the session.
func readLoop(r io.Reader, out chan<- chunk, stop <-chan struct{}) {
	buf := make([]byte, 1024)
	for {
		n, err := r.Read(buf)
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
