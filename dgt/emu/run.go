package emu

import (
	"context"
	"errors"
	"io"
	"os"
	"sync/atomic"
	"syscall"
	"time"
)

// Device is what [Run] serves: an [Emulator] (one board) or a [Line]
// (several boards on a bus).
type Device interface {
	Input(now time.Time, p []byte)
	Advance(now time.Time)
	Output() []byte
	NextEvent() (time.Time, bool)
}

// maxIdle bounds how long Run sleeps when nothing is pending, so actions
// scheduled from other goroutines are picked up within it.
const maxIdle = 50 * time.Millisecond

// Run serves dev over rw, in real time (time.Now; under testing/synctest
// the bubble's fake clock): host bytes read from rw go to dev.Input, the
// device is advanced to every event it announces, and its output is
// written to rw. One goroutine reads rw; Run itself owns dev's time.
//
// Run returns nil when ctx is done, or the read or write error that
// stopped it. It closes rw as soon as ctx is done (that is how a pending
// Read or Write is unblocked) and before returning, so a board can be
// "unplugged" by cancelling ctx and served again later on a new rw with
// its state intact.
func Run(ctx context.Context, rw io.ReadWriteCloser, dev Device) error {
	type chunk struct {
		b   []byte
		err error
	}
	in := make(chan chunk, 16)
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		buf := make([]byte, 4096)
		for {
			n, err := rw.Read(buf)
			if n > 0 {
				in <- chunk{b: append([]byte(nil), buf[:n]...)}
			}
			if err != nil {
				in <- chunk{err: err}
				return
			}
		}
	}()
	// A write the host does not take (it stopped reading a full
	// pseudo-terminal) must not outlive ctx: closing rw unblocks it.
	unwatch := context.AfterFunc(ctx, func() { rw.Close() })
	defer func() {
		unwatch()
		rw.Close()
		// drain until the reader has exited, so it never blocks on in
		for {
			select {
			case <-in:
			case <-readerDone:
				return
			}
		}
	}()

	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		now := time.Now()
		dev.Advance(now)
		if out := dev.Output(); len(out) > 0 {
			if _, err := rw.Write(out); err != nil {
				if ctx.Err() != nil {
					return nil
				}
				return err
			}
		}
		wait := maxIdle
		if t, ok := dev.NextEvent(); ok {
			wait = min(max(t.Sub(now), 0), maxIdle)
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return nil
		case c := <-in:
			if c.err != nil {
				if ctx.Err() != nil || errors.Is(c.err, os.ErrClosed) {
					return nil
				}
				return c.err
			}
			dev.Input(time.Now(), c.b)
		case <-timer.C:
		}
	}
}

// ServePTY serves dev on the master side of a pseudo-terminal (see
// package dgt/pty) until ctx is done, and closes master. While no process
// holds the slave side open, reads on the master fail with EIO: ServePTY
// treats that as "cable unplugged", polls until someone opens the slave,
// and drops what the board sends meanwhile (nobody would receive it).
func ServePTY(ctx context.Context, master *os.File, dev Device) error {
	return Run(ctx, PTYPort(master), dev)
}

// PTYPort returns the master side of a pseudo-terminal as the port [Run]
// serves, with ServePTY's handling of an unopened slave: to put something
// between the board and its pty, e.g. a line that garbles bytes
// (dgttest.NewFaultyPort(emu.PTYPort(master), f) with Faults.Writes, since
// on this side the board's bytes are written).
func PTYPort(master *os.File) io.ReadWriteCloser { return &ptyConn{f: master} }

// ptyConn is a pty master that waits out the EIO of an unopened slave.
type ptyConn struct {
	f         *os.File
	connected atomic.Bool
}

func (p *ptyConn) Read(b []byte) (int, error) {
	for {
		n, err := p.f.Read(b)
		if err == nil || !errors.Is(err, syscall.EIO) {
			if n > 0 {
				p.connected.Store(true)
			}
			return n, err
		}
		p.connected.Store(false)
		time.Sleep(20 * time.Millisecond)
	}
}

func (p *ptyConn) Write(b []byte) (int, error) {
	if !p.connected.Load() {
		return len(b), nil
	}
	n, err := p.f.Write(b)
	if err != nil && errors.Is(err, syscall.EIO) {
		p.connected.Store(false)
		return len(b), nil
	}
	return n, err
}

func (p *ptyConn) Close() error { return p.f.Close() }
