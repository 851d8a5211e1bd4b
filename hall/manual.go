package hall

import (
	"context"
	"time"
)

// serveManual runs a board that has no port (protocol manual): its moves
// are entered on <p>.input.<g>.move (input.go). There is nothing to lose,
// so it is connected from the start; the goroutine takes ticks and
// commands until ctx is done.
func (br *boardRun) serveManual(ctx context.Context) error {
	br.up(br.h.o.Now(), "manual", "", "")
	tick := time.NewTicker(br.h.o.Tick)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			br.clockDue(time.Now(), true)
			br.persistOnly()
			return nil
		case <-tick.C:
			br.apply(br.s.Tick(br.mono(br.h.o.Now())))
			br.clockDue(time.Now(), false)
		case c := <-br.cmds:
			c.to.command(c)
		}
	}
}
