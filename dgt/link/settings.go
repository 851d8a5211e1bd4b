package link

import (
	"log/slog"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
)

// Settings tune a [Link]. The zero value is usable: every field documents
// its default.
type Settings struct {
	// Logger receives connection and retry messages; nil discards them.
	Logger *slog.Logger
	// IdentifyInterval is how long to wait for the version reply before
	// asking again (picochess: 2 s); default 2 s.
	IdentifyInterval time.Duration
	// IdentifyTries is how often the version is asked before the port is
	// given up as "no board" (ErrNoBoard); default 3.
	IdentifyTries int
	// ReplyTimeout bounds the wait for the serial number, the clock
	// version and the board dump during the connection sequence; default
	// 2 s.
	ReplyTimeout time.Duration
	// Watchdog: after this long without a byte from the board, it is
	// polled with a harmless DGT_RETURN_SERIALNR; if the poll gets no
	// reply within another Watchdog, the connection counts as dead
	// (ErrDead) and is reopened. Default 2 s (picochess polls every 1 s).
	Watchdog time.Duration
	// NoLog: never read the board's EEPROM log on the link's own
	// initiative (at each connection, after damage on the line: it takes
	// about 8 s at 9600 baud); [Link.ReadLog] still reads it.
	NoLog bool
	// Verify: while the position changes, the link reads it (a 67-byte
	// dump) at most this often, to check that no corrupted byte slipped
	// through looking valid (single-board frames carry no checksum);
	// default 2 s, negative: never.
	Verify time.Duration
	// LogTimeout bounds the wait for the EEPROM log (0x1F00 bytes ≈ 8.3 s
	// at 9600 baud); default 15 s. A board that does not answer within it
	// has no EEPROM: [Log] carries ErrNoLog and the link goes on. At a
	// connection, a board silent for ReplyTimeout after the request is
	// taken to have none at once.
	LogTimeout time.Duration
	// EEFBit is the reading of the f bit of the log's clock records
	// (which display f = 1 names: the sources disagree; docs/dgt-boards.md);
	// default dgt.FLeft, DGT's header.
	EEFBit dgt.EEFBit
	// AckTimeout is how long to wait for a clock ACK before re-sending
	// the command; default 2 s.
	AckTimeout time.Duration
	// AckTries is how many times a clock command is sent before it fails
	// with ErrAckTimeout; default 3.
	AckTries int
	// BackoffMin and BackoffMax bound the wait between reconnection
	// attempts, doubling from min to max; defaults 250 ms and 30 s.
	BackoffMin, BackoffMax time.Duration
	// EventBuffer is the capacity of the event channel; default 256. When
	// the consumer falls behind, events wait in memory: the link keeps
	// reading the port, drops nothing and stamps each event with the time
	// its bytes were read.
	EventBuffer int
}

func (o Settings) withDefaults() Settings {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.IdentifyInterval <= 0 {
		o.IdentifyInterval = 2 * time.Second
	}
	if o.IdentifyTries <= 0 {
		o.IdentifyTries = 3
	}
	if o.ReplyTimeout <= 0 {
		o.ReplyTimeout = 2 * time.Second
	}
	if o.Watchdog <= 0 {
		o.Watchdog = 2 * time.Second
	}
	if o.Verify == 0 {
		o.Verify = 2 * time.Second
	}
	if o.LogTimeout <= 0 {
		o.LogTimeout = 15 * time.Second
	}
	if o.AckTimeout <= 0 {
		o.AckTimeout = 2 * time.Second
	}
	if o.AckTries <= 0 {
		o.AckTries = 3
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
	return o
}
