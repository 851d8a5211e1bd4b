package link

import (
	"log/slog"
	"time"
)

// Dir is the direction of recorded traffic, the hexlog's direction
// character.
type Dir byte

// Directions.
const (
	FromBoard Dir = '<'
	ToBoard   Dir = '>'
)

// Settings tune a [Link]. The zero value is usable: every field documents
// its default.
type Settings struct {
	// Logger receives connection and retry messages; nil discards them.
	Logger *slog.Logger
	// IdentifyInterval is how long to wait for the Ident before asking
	// again; default 1 s.
	IdentifyInterval time.Duration
	// IdentifyTries is how often "I" is sent before the port is given up
	// as "no board" (ErrNoBoard); default 3.
	IdentifyTries int
	// ReplyTimeout bounds the wait for the answers to "B" and "C"; default
	// 2 s.
	ReplyTimeout time.Duration
	// Watchdog: after this long without a byte the board is asked "I"; no
	// answer within another Watchdog ends the connection (ErrDead).
	// Default 3 s.
	Watchdog time.Duration
	// BackoffMin and BackoffMax bound the wait between reconnection
	// attempts, doubling from min to max; defaults 250 ms and 30 s.
	BackoffMin, BackoffMax time.Duration
	// EventBuffer is the capacity of the event channel; default 256. When
	// the consumer falls behind, the link stops reading the port (bytes
	// wait in the OS buffer) rather than drop events.
	EventBuffer int
	// Record, when set, receives every chunk read from the port and every
	// command written to it, with the time, on the Run goroutine (see the
	// package comment).
	Record func(at time.Time, dir Dir, p []byte)
}

func (o Settings) withDefaults() Settings {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.IdentifyInterval <= 0 {
		o.IdentifyInterval = time.Second
	}
	if o.IdentifyTries <= 0 {
		o.IdentifyTries = 3
	}
	if o.ReplyTimeout <= 0 {
		o.ReplyTimeout = 2 * time.Second
	}
	if o.Watchdog <= 0 {
		o.Watchdog = 3 * time.Second
	}
	if o.BackoffMin <= 0 {
		o.BackoffMin = 250 * time.Millisecond
	}
	if o.BackoffMax <= 0 {
		o.BackoffMax = 30 * time.Second
	}
	if o.BackoffMax < o.BackoffMin {
		o.BackoffMax = o.BackoffMin
	}
	if o.EventBuffer <= 0 {
		o.EventBuffer = 256
	}
	if o.Record == nil {
		o.Record = func(time.Time, Dir, []byte) {}
	}
	return o
}
