package emu

import (
	"context"
	"os"
	"sync"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/pty"
)

// Serving says how [Serve] serves a device.
type Serving struct {
	// PTY serves on a new pseudo-terminal, whose path goes to OnPath (may
	// be nil) before serving starts; false serves on the process's stdin
	// and stdout.
	PTY    bool
	OnPath func(path string)
	// Start, when not nil, runs once, on its own goroutine, as soon as
	// Talked reports that a host has sent the device something (polled
	// every 100 ms): a game's script is started then, so a host that
	// connects late does not miss the opening.
	Talked func() bool
	Start  func()
}

// Serve serves dev as s says until ctx is done or the port fails. The
// starter lives as long as the serving: it is stopped and joined when
// serving ends, for whatever reason.
func Serve(ctx context.Context, dev Device, s Serving) error {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	starter := func() {
		if s.Start != nil && s.Talked != nil {
			wg.Go(func() { startWhenTalkedTo(ctx, s.Talked, s.Start) })
		}
	}
	if !s.PTY {
		starter()
		return Run(ctx, stdio{}, dev)
	}
	master, path, err := pty.Open()
	if err != nil {
		return err
	}
	if s.OnPath != nil {
		s.OnPath(path)
	}
	starter()
	return ServePTY(ctx, master, dev)
}

// startWhenTalkedTo calls start once talked reports true, or returns when
// ctx is done.
func startWhenTalkedTo(ctx context.Context, talked func() bool, start func()) {
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if talked() {
			start()
			return
		}
	}
}

// stdio is the process's stdin and stdout as one port.
type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error                { return os.Stdin.Close() }
