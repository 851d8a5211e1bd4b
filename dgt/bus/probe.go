package bus

import (
	"context"
	"io"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
)

// Found is a board that answered a [Probe].
type Found struct {
	Address uint16
	Version dgt.BusVersion
	// Clock: the board's clock reading came back without the "no clock"
	// bit, so a clock is cabled to it. A board whose reading did not
	// come back intact is reported without one.
	Clock bool
}

// WakeAddress is the address [Probe] pings to wake a line: the highest, a
// board's only if its serial number is 16383.
const WakeAddress = dgt.MaxBusAddress

// Probe runs one discovery on rwc (see the package doc, "Discovery":
// opts.Addresses pinged first, then broadcast rounds unless
// opts.NoBroadcast), reads the version and the clock of every board that
// answers, and closes rwc. It first wakes the line with a ping to address
// [WakeAddress]: a board left in single-board mode (by another program,
// or by a single-board probe of the same port) switches back to bus mode
// on it without answering, so the broadcast that follows finds it too. It returns the boards found, in address order,
// or the port's read or write error (with the boards found before it).
// As when a line finds a board, each board's pending changes and its
// position are read (and dropped here), but no log is read and no start
// tag set: a daemon started afterwards reads every board's log from its
// start tag, so nothing the boards saw is lost. The boards stay in bus
// mode. Used by `dgtbridge ports --identify`.
func Probe(ctx context.Context, rwc io.ReadWriteCloser, opts Settings) ([]Found, error) {
	opts.NoLog, opts.NoStartTags = true, true
	b := New(nil, opts)
	l := newLine(b, ctx, rwc)
	err := l.send(dgt.BusCmdPing, WakeAddress)
	if err == nil {
		err = l.drain(time.Now().Add(b.opts.ReplyTimeout))
	}
	if err == nil {
		err = l.discover()
	}
	l.close()
	var out []Found
	for _, bd := range l.boards {
		if bd.lost {
			continue
		}
		out = append(out, Found{Address: bd.addr, Version: bd.version, Clock: bd.haveClock && !bd.lastClock.Status.NoClock()})
	}
	if err != nil {
		return out, err
	}
	return out, ctx.Err()
}
