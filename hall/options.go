package hall

import (
	"context"
	"log/slog"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/broadcast/storage"
	"github.com/dgtbridge/dgtbridge/dgt/link"
	"github.com/dgtbridge/dgtbridge/hall/session"
	obplink "github.com/dgtbridge/dgtbridge/obp/link"
	"github.com/dgtbridge/dgtbridge/port"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Sink receives what the boards produce. *broadcast.Publisher is one: it
// journals every call durably and returns without waiting for NATS, which
// is what lets a board goroutine call it inline.
type Sink interface {
	PublishMove(game.MoveEvent) error
	PublishCorrection(game.Correction) error
	PublishClock(game.ClockEvent) error
	PublishResult(game.Result) error
	PublishState(game.GameState) error
	PublishAlert(game.Alert) error
	PublishBoardStatus(game.BoardStatus) error
}

// Protocol is how a board's moves reach the hall.
type Protocol uint8

// Protocols (the configuration's boards[].protocol).
const (
	// ProtocolDGT: a DGT board (and clock) on its port or a DGT bus line.
	ProtocolDGT Protocol = iota
	// ProtocolOBP: a board speaking the Open Board Protocol (obp/link;
	// docs/open-board-protocol.md), xiangqi or chess; obp.go.
	ProtocolOBP
	// ProtocolManual: no board: moves are entered on <p>.input.<g>.move
	// only (input.go); Open is not used.
	ProtocolManual
)

// Board is one configured board: its port and its game.
type Board struct {
	// Protocol is what the port speaks (default DGT).
	Protocol Protocol
	// OBP tunes the transport of an OBP board (zero: obp/link's
	// defaults; Logger and Record are set by the hall).
	OBP obplink.Settings
	// ID names the board in <p>.board.<id>.status and in the recording
	// directory: a subject token ([a-z0-9_-]+). cmd uses "r<round>-b<board>".
	ID string
	// Port is the device path, for the status (informational).
	Port string
	// Open opens the port (every reconnect calls it again). Boards on one
	// bus line share it: the first board of the line's is used.
	Open port.Opener
	// BusAddress > 0: the board is on a DGT bus line (dgt/bus) shared with
	// the other boards of the same Port; one goroutine owns the line and
	// feeds each board's game. Clock commands cannot be sent over a bus
	// line (the arbiter is alerted instead).
	BusAddress uint16
	// Link tunes the transport (zero: link's defaults; Logger is set by
	// the hall when nil).
	Link link.Settings
	// Session is the game: Info (game id, players, …), rule set, time
	// control, penalties, start position, tracker options.
	Session session.SessionOptions
	// WhiteRight: White's time is on the clock's right display (for clock
	// commands). The default is White on the left.
	WhiteRight bool
	// Blind: the blind player's own board, for a game relayed under FIDE
	// Laws Appendix D (with Session.Blind; blind_run.go). Nil: one board.
	Blind *BlindBoard
}

// Options configure a Hall. Boards and Sink are required; DataDir is
// required unless NoPersist.
type Options struct {
	Boards []Board
	// Spares are DGT boards kept ready on their own ports, onto which an
	// arbiter moves a game whose board fails (switch_board; spare.go).
	Spares []Spare
	Sink   Sink
	// DataDir holds the game records (<DataDir>/games/<g>.json) and,
	// with Record, the serial recordings (<DataDir>/record/<id>/…hexlog).
	DataDir string
	// Record keeps every board's serial traffic (docs/contract.md §4).
	Record bool
	// Subjects are the NATS subjects (for arbiter commands).
	Subjects broadcast.Subjects
	// Requests is the daemon's request/reply server (the publisher's
	// broadcast.Responder): New adds the arbiter commands
	// (<p>.arbiter.*.*.*.cmd, {ok, error}) and, with a blind player's
	// relay, the talking clock (<p>.api.relay.*.*.*.time). Nil: neither.
	Requests *broadcast.Responder
	// Observer, when set, is called by the storage goroutine with every
	// payload after it was persisted and handed to the Sink (the demo's
	// live feed). It must return quickly and must not block.
	Observer func(Observation)
	// Tick is how often the trackers' windows are advanced without input
	// (default 50 ms). A move completed by a window (settle, press grace)
	// is seen up to one Tick late; 500 boards ticking every 50 ms cost a
	// few percent of one core.
	Tick time.Duration
	// BusRediscover is how often a DGT bus line pings for boards it lost
	// or has not found yet (dgt/bus Options.Rediscover; 0: its default,
	// 30 s). A board unplugged from a line is back at most this long
	// after it is plugged in again; a board lost for a moment (missed
	// replies) is pinged on its own after 1 s, then at doubling gaps
	// (dgt/bus Settings.RepingLost), and is back within about a
	// second.
	BusRediscover time.Duration
	// FS is the file system the game journal and record files are
	// written through (nil: the OS's); tests pass a
	// broadcast/storage/storagetest one to make writes fail or stall.
	FS storage.FS
	// CommitWindow is how long the writer lets changes of other boards
	// join a batch before the journal's fsync (group commit; default
	// DefaultCommitWindow, 2 ms; negative: none, a batch is what arrived
	// while the previous fsync ran). Longer: fewer fsyncs, later
	// publication.
	CommitWindow time.Duration
	// CompactBytes and CompactEvery: the journal is compacted into the
	// record files when it has grown by CompactBytes (default 32 MiB) or
	// CompactEvery has passed with changes (default 5 min; negative:
	// only by size); a restart hands again at most CompactEvery's worth
	// of messages (dropped by the streams as repeats).
	CompactBytes int64
	CompactEvery time.Duration
	// DrainTimeout bounds how long Run, on its way out, keeps trying to
	// write and publish what waits when the disk fails, and writing the
	// record files (default 15 s: below the 20 s our systemd unit gives a
	// stopping daemon).
	DrainTimeout time.Duration
	// History reads back what was published of a game's record (the
	// publisher's History: the GAMES stream, then the outbox); a game
	// whose stored record was damaged is recovered from it before its
	// board starts (history.go), waiting at most HistoryWait (default
	// DefaultHistoryWait) for it. Nil: a damaged game keeps what the disk
	// held.
	History     func(ctx context.Context, g game.ID) (broadcast.History, error)
	HistoryWait time.Duration
	// Now is the clock of ticks and commands (default time.Now); link
	// events carry the link's own times.
	Now func() time.Time
	// Logger (nil: discarded).
	Logger *slog.Logger
}

// Observation is one payload a board produced (after it was persisted and
// handed to the Sink).
type Observation struct {
	Board   string
	Game    game.ID
	Payload game.Payload
}
