package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/dgtbridge/dgtbridge/internal/cli"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
)

// mainExit runs one command with a context that SIGINT and SIGTERM cancel
// and returns the exit status: 0; 1 for a failure (its sentence on
// stderr); 2 for a mistake on the command line; 128+N when signal N
// interrupted a command (130 for Ctrl-C, 143 for SIGTERM). The daemons
// ("run", "demo") drain and exit 0 when stopped that way, which is what
// a service manager expects. A second signal while draining exits at once.
func mainExit(args []string, stdout, stderr io.Writer) int {
	ctx, caught, stop := signalContext()
	defer stop()
	err := run(ctx, args, stdout, stderr)
	if sig := caught(); sig != 0 && (err == nil || errors.Is(err, context.Canceled)) {
		if err == nil {
			return 0
		}
		return 128 + int(sig)
	}
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return 0
	}
	fmt.Fprintln(stderr, "dgtbridge:", err)
	return cli.ExitCode(err)
}

// signalContext returns a context cancelled by the first SIGINT or
// SIGTERM, a function telling which signal came (0 for none), and a stop
// function. A second signal exits the process at once with 128+N.
func signalContext() (context.Context, func() syscall.Signal, func()) {
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
