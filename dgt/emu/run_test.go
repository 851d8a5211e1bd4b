package emu_test

import (
	"context"
	"net"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
)

// TestRunCancelStopsABlockedWrite: a host that sends a command and then
// never reads leaves Run blocked writing the reply; cancelling ctx must
// still stop Run (by closing the port) and return nil.
func TestRunCancelStopsABlockedWrite(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := emu.New(emu.Setup{}, time.Now())
		host, dev := net.Pipe()
		defer host.Close()
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		var runErr error
		wg.Go(func() { runErr = emu.Run(ctx, dev, e) })
		if _, err := host.Write([]byte{byte(dgt.CmdSendBoard)}); err != nil {
			t.Fatal(err)
		}
		synctest.Wait() // Run is blocked writing the board dump nobody reads
		cancel()
		wg.Wait()
		if runErr != nil {
			t.Fatalf("Run: %v", runErr)
		}
	})
}
