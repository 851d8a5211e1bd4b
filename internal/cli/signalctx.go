package cli

import (
	"context"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
)

// signalContext returns a context cancelled by the first SIGINT or
// SIGTERM, a function telling which signal came (0 for none), and a stop
// function. A second signal exits the process at once with 128+N.
func SignalContext() (context.Context, func() syscall.Signal, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var got atomic.Int32
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			n := s.(syscall.Signal)
			got.Store(int32(n))
			cancel()
			select {
			case s := <-ch:
				os.Exit(128 + int(s.(syscall.Signal)))
			case <-done:
			}
		case <-done:
		}
	}()
	return ctx, func() syscall.Signal { return syscall.Signal(got.Load()) }, func() {
		signal.Stop(ch)
		close(done)
		cancel()
	}
}
