package bus

import (
	"errors"
	"log/slog"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
)

// Sentinel errors; match them with errors.Is.
var (
	// ErrNoReply: a board did not answer a command within ReplyTimeout
	// (after all retries).
	ErrNoReply = errors.New("bus: no reply")
	// ErrBadReply: a board's replies kept failing their checksum.
	ErrBadReply = errors.New("bus: corrupt reply")
	// ErrUnknownBoard: a request named an address that is not a found
	// board of the line.
	ErrUnknownBoard = errors.New("bus: no such board on the line")
	// ErrStopped: Run has returned, or the line is down.
	ErrStopped = errors.New("bus: line not running")
)

// Settings tune a [Bus]; the zero value is usable.
type Settings struct {
	// Logger receives discovery and retry messages; nil discards them.
	Logger *slog.Logger
	// Addresses are the boards expected on the line (configured bus
	// addresses); they are pinged directly, before broadcast discovery.
	Addresses []uint16
	// NoBroadcast disables broadcast discovery: only Addresses are used.
	NoBroadcast bool
	// ReplyTimeout is the wait for a board's reply; default 100 ms (DGT
	// recommends ~80 ms; boards answer within milliseconds, up to 20 ms
	// while writing EEPROM).
	ReplyTimeout time.Duration
	// Retries is how many times a failed exchange (time-out or checksum
	// error) is retried before the board counts as lost; default 3.
	Retries int
	// PollInterval is the longest a board's changes go unpolled: each is
	// due PollInterval after its previous poll, and the line plans to poll
	// it within nine tenths of that (the rest is a margin for replies that
	// come late); clocks are read in the time the polls leave (see the
	// package doc, "Polling schedule"). Default 900 ms, what a 32-board
	// line at 9600 baud allows (32 × 10 bytes of changes ≈ 0.33 s, plus
	// the clocks that fit).
	PollInterval time.Duration
	// ClockEvery > 0 reads every board's clock right after its changes
	// every ClockEvery rounds of polls, however long that makes the round
	// (and a pressed board's after its changes), instead of fitting the
	// clocks into PollInterval; default 0: clocks are fitted.
	ClockEvery int
	// RepollAfter: a board whose changes held a lever press (a clock
	// record) has its changes polled again this long after that answer,
	// ahead of its turn, when the schedule has room for it (stale clocks
	// first, before the pressed boards' clocks): the lever often beats the
	// board's scan of the square the moved piece ended on, and a move a
	// sliding hand may have carried on needs one more look at the board
	// before it is known (board.Tracker.Answered). Default 300 ms, a DGT
	// board's scan (200-250 ms) and a margin; negative: no re-polls.
	RepollAfter time.Duration
	// Cycle is the shortest time between two polls of one board; default
	// 250 ms. A line whose boards take longer to poll (many boards) polls
	// each as soon as its turn comes.
	Cycle time.Duration
	// Rediscover is how often a broadcast discovery round runs and lost
	// boards are pinged again; default 30 s.
	Rediscover time.Duration
	// RepingLost is how soon a lost board is pinged again on its own, in
	// the time the schedule has left: the gap doubles after every ping it
	// does not answer, up to Rediscover. A board that missed a few
	// replies (a loose plug, a burst of noise, a starved host) is back in
	// about a second rather than at the next discovery round; a board
	// unplugged for good costs one ping (ReplyTimeout) every Rediscover.
	// Default 1 s; negative: lost boards wait for the discovery rounds.
	RepingLost time.Duration
	// DiscoverRounds bounds the broadcast rounds of one discovery; default
	// 5.
	DiscoverRounds int
	// NoLog: do not read a board's EEPROM log when it is found; its
	// pending changes are then reported as [Changes] before its
	// [Position]. [Bus.ReadLog] still reads it.
	NoLog bool
	// NoStartTags: do not set a start tag (SET_START_GAME) when a board
	// reports a begin position. By default the bus sets one whenever a
	// board's changes carry EE_BEGINPOS, EE_BEGINPOS_ROT or EE_FOURROWS (a
	// new game set up), so that the log read after an outage starts at
	// the current game instead of the whole 0x1F00-byte buffer (8 s of
	// line time).
	NoStartTags bool
	// EmptyChanges: report every answer to a changes poll as [Changes],
	// an answer with nothing new too (no records): the board was polled
	// at At and had seen nothing since. By default only answers with
	// records are reported.
	EmptyChanges bool
	// EEFBit is the reading of the f bit of clock records (which display
	// f = 1 names: the sources disagree; docs/dgt-boards.md); default dgt.FLeft,
	// DGT's header.
	EEFBit dgt.EEFBit
	// BackoffMin and BackoffMax bound the wait before reopening a failed
	// port; defaults 250 ms and 30 s.
	BackoffMin, BackoffMax time.Duration
	// EventBuffer is the capacity of the event channel; default 1024.
	// Events beyond it wait in memory: the line is never held up.
	EventBuffer int
}

func (o Settings) withDefaults() Settings {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.ReplyTimeout <= 0 {
		o.ReplyTimeout = 100 * time.Millisecond
	}
	if o.Retries <= 0 {
		o.Retries = 3
	}
	if o.PollInterval <= 0 {
		o.PollInterval = 900 * time.Millisecond
	}
	if o.ClockEvery < 0 {
		o.ClockEvery = 0
	}
	if o.RepollAfter == 0 {
		o.RepollAfter = 300 * time.Millisecond
	}
	if o.Cycle <= 0 {
		o.Cycle = 250 * time.Millisecond
	}
	if o.Rediscover <= 0 {
		o.Rediscover = 30 * time.Second
	}
	if o.RepingLost == 0 {
		o.RepingLost = time.Second
	}
	if o.DiscoverRounds <= 0 {
		o.DiscoverRounds = 5
	}
	if o.BackoffMin <= 0 {
		o.BackoffMin = 250 * time.Millisecond
	}
	if o.BackoffMax < o.BackoffMin {
		o.BackoffMax = max(30*time.Second, o.BackoffMin)
	}
	if o.EventBuffer <= 0 {
		o.EventBuffer = 1024
	}
	return o
}

// pingWindow is how long broadcast ping answers are collected (DGT:
// boards answer within 1100 ms).
const pingWindow = 1200 * time.Millisecond
