package link

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/dgtbridge/dgtbridge/obp"
	"github.com/dgtbridge/dgtbridge/rules"
)

// session is one connection, from open to the first read or write error.
// It runs on the Run goroutine; only readLoop runs beside it.
type session struct {
	l      *Link
	ctx    context.Context
	rwc    io.ReadWriteCloser
	in     chan chunk
	dec    *obp.Decoder
	queue  []Event
	ident  obp.Ident
	lastRx time.Time
	polled time.Time // watchdog poll outstanding since, zero if none
	asked  time.Time // "B" outstanding since, zero if none
}

var errTimeout = errors.New("obp link: timeout")

// session serves one connection; connected reports whether the board was
// identified (and Connected emitted).
func (l *Link) session(ctx context.Context, rwc io.ReadWriteCloser) (connected bool, err error) {
	stop := make(chan struct{})
	s := &session{l: l, ctx: ctx, rwc: rwc, in: make(chan chunk, 16), dec: obp.NewDecoder(rules.Geometry{}), lastRx: time.Now()}
	var wg sync.WaitGroup
	wg.Go(func() { readLoop(rwc, s.in, stop) })
	// A write the device does not take must not keep Run from returning.
	unwatch := context.AfterFunc(ctx, func() { rwc.Close() })
	defer func() {
		unwatch()
		close(stop)
		rwc.Close()
		wg.Wait()
	}()
	info, err := s.identify()
	if err != nil {
		return false, err
	}
	l.opts.Logger.Info("obp board connected", "serial", info.Ident.Serial, "size", fmt.Sprintf("%dx%d", info.Ident.Geo.Files, info.Ident.Geo.Ranks), "clock", !info.Clock.None)
	l.emit(ctx, info)
	s.flush()
	// Lines that came in the chunk of the last answer are still buffered.
	err = s.decode(info.At)
	s.flush()
	if err != nil {
		return true, err
	}
	return true, s.serve()
}

// write sends a command and records it.
func (s *session) write(c obp.Command) error {
	b := c.AppendLine(nil)
	at := time.Now()
	_, err := s.rwc.Write(b)
	s.l.opts.Record(at, ToBoard, b)
	return err
}

// identify runs the connection sequence (see the package comment).
func (s *session) identify() (Connected, error) {
	o := s.l.opts
	var info Connected
	if _, err := s.rwc.Write([]byte("\n")); err != nil {
		return info, err
	}
	s.l.opts.Record(time.Now(), ToBoard, []byte("\n"))
	found := false
	for try := 0; try < o.IdentifyTries && !found; try++ {
		if err := s.write(obp.CmdIdent); err != nil {
			return info, err
		}
		m, err := s.await(o.IdentifyInterval, false, func(m obp.Message) bool { _, ok := m.(obp.Ident); return ok })
		switch {
		case err == nil:
			info.Ident, found = m.(obp.Ident), true
		case !errors.Is(err, errTimeout):
			return info, err
		}
	}
	if !found {
		return info, ErrNoBoard
	}
	s.ident = info.Ident
	s.dec.SetGeometry(info.Ident.Geo)
	s.queue = s.queue[:0] // before the Ident nothing could be read; B reads it all
	if err := s.write(obp.CmdBoard); err != nil {
		return info, err
	}
	m, err := s.await(o.ReplyTimeout, true, func(m obp.Message) bool { _, ok := m.(obp.Board); return ok })
	if err != nil {
		return info, fmt.Errorf("%w: no answer to B: %w", ErrNoBoard, err)
	}
	info.Board = m.(obp.Board)
	s.queue = s.queue[:0] // what came before the Board is in it
	if err := s.write(obp.CmdClock); err != nil {
		return info, err
	}
	m, err = s.await(o.ReplyTimeout, true, func(m obp.Message) bool { _, ok := m.(obp.Clock); return ok })
	switch {
	case err == nil:
		info.Clock = m.(obp.Clock)
		s.dropLast()
	case errors.Is(err, errTimeout):
		s.l.opts.Logger.Warn("obp board did not answer C; taken as no clock", "serial", info.Ident.Serial)
		info.Clock = obp.Clock{None: true}
	default:
		return info, err
	}
	info.At = time.Now()
	return info, nil
}

// await decodes arriving lines until one satisfies pred, for at most d;
// with keep the lines before it are queued as events (bad ones too). It
// returns errTimeout, or the read error that ended the connection.
func (s *session) await(d time.Duration, keep bool, pred func(obp.Message) bool) (obp.Message, error) {
	t := time.NewTimer(d)
	defer t.Stop()
	at := time.Now()
	for {
		for {
			m, err := s.dec.Next()
			if errors.Is(err, obp.ErrNeedMore) {
				break
			}
			if err != nil {
				if keep {
					s.queue = append(s.queue, BadLine{At: at, Err: err})
				}
				continue
			}
			if keep {
				s.queue = append(s.queue, Message{At: at, Msg: m})
			}
			if pred(m) {
				return m, nil
			}
		}
		select {
		case <-s.ctx.Done():
			return nil, s.ctx.Err()
		case <-t.C:
			return nil, errTimeout
		case c := <-s.in:
			at = c.at
			if err := s.take(c); err != nil {
				return nil, err
			}
		}
	}
}

// dropLast removes the last queued event (an answer that went into
// Connected).
func (s *session) dropLast() { s.queue = s.queue[:len(s.queue)-1] }

// take records a chunk and feeds it to the decoder.
func (s *session) take(c chunk) error {
	if len(c.b) > 0 {
		s.l.opts.Record(c.at, FromBoard, c.b)
		s.lastRx, s.polled = c.at, time.Time{}
		s.dec.Feed(c.b)
	}
	return c.err
}

// flush emits the queued events.
func (s *session) flush() {
	for _, e := range s.queue {
		s.l.emit(s.ctx, e)
	}
	s.queue = s.queue[:0]
}

// serve is the connected state: lines out, commands in, the watchdog.
func (s *session) serve() error {
	o := s.l.opts
	tick := time.NewTicker(min(o.Watchdog, o.ReplyTimeout) / 4)
	defer tick.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return s.ctx.Err()
		case c := <-s.in:
			err := s.take(c)
			if werr := s.decode(c.at); werr != nil && err == nil {
				err = werr
			}
			s.flush()
			if err != nil {
				return err
			}
		case r := <-s.l.reqs:
			err := s.write(r.cmd)
			r.reply <- err
			if err != nil {
				return err
			}
			if r.cmd == obp.CmdBoard {
				s.asked = time.Now()
			}
		case now := <-tick.C:
			switch {
			case !s.polled.IsZero() && now.Sub(s.polled) >= o.Watchdog:
				return ErrDead
			case s.polled.IsZero() && now.Sub(s.lastRx) >= o.Watchdog:
				s.polled = now
				if err := s.write(obp.CmdIdent); err != nil {
					return err
				}
			}
			if !s.asked.IsZero() && now.Sub(s.asked) >= o.ReplyTimeout {
				s.asked = now
				if err := s.write(obp.CmdBoard); err != nil {
					return err
				}
			}
		}
	}
}

// decode queues the buffered lines as events: a bad line asks for the
// board, a Board answers that request, the Ident answering a poll is
// dropped unless another board sent it (ErrBoardChanged).
func (s *session) decode(at time.Time) error {
	for {
		m, err := s.dec.Next()
		if errors.Is(err, obp.ErrNeedMore) {
			return nil
		}
		if err != nil {
			s.queue = append(s.queue, BadLine{At: at, Err: err})
			if s.asked.IsZero() {
				s.asked = at
				if werr := s.write(obp.CmdBoard); werr != nil {
					return werr
				}
			}
			continue
		}
		switch m := m.(type) {
		case obp.Ident:
			if m.Serial != s.ident.Serial || m.Geo != s.ident.Geo {
				return fmt.Errorf("%w: %s %dx%d, was %s %dx%d", ErrBoardChanged, m.Serial, m.Geo.Files, m.Geo.Ranks, s.ident.Serial, s.ident.Geo.Files, s.ident.Geo.Ranks)
			}
			continue
		case obp.Board:
			s.asked = time.Time{}
		}
		s.queue = append(s.queue, Message{At: at, Msg: m})
	}
}
