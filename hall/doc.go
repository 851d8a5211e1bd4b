// Package hall is the daemon's runtime: it runs every configured board of
// a tournament hall from the serial port to NATS.
//
// Per board one goroutine owns the port (a dgt/link.Link over an Opener,
// or obp/link for an Open Board Protocol board; boards with a bus address
// share one goroutine per DGT bus line, dgt/bus) and feeds the game's
// per-game core, a hall/session.Session (board tracker, adjudicator and
// record), in arrival order and in time order (a tick never lets a later
// event go back in time). What a session produces goes to one storage
// goroutine (the writer, writer.go): it writes every board's changes to
// the game journal (hall/gamestore) and makes them durable with one fsync
// for all of them (group commit), and only then hands the payloads to a
// Sink (a *broadcast.Publisher: durable and asynchronous, so a slow or
// absent NATS never blocks a board). Compaction (compact.go) folds the
// journal into one record file per game.
//
// What moved out of the runtime lives beside it: the per-game pure core in
// hall/session, the game record and its PGN in hall/gamerecord, the
// journal and the record files on disk in hall/gamestore, and the
// reconstruction of recorded traffic (`dgtbridge replay`) in hall/replay.
//
// # Recovery
//
// On start every game resumes from its record file and the journal entries
// after it: the session is rebuilt by replaying the recorded moves, the
// revision is kept, and the moves not yet handed to the sink are handed
// again (their message ids, <g>.move.<ply>.<revision>, make a repeat a
// no-op in the streams). On every (re)connect the board's dump is
// reconciled with the record by the tracker: moves made while nobody
// listened are caught up when a short legal sequence explains them,
// otherwise the arbiter gets an alert.
//
// # Wiring
//
// cmd/dgtbridge fills Options from the configuration (Board.Open from its
// serial-port opener); the demo (hall/demo) fills it with emulated boards
// on pseudo-terminals. Options.Observer receives every payload for a live
// feed; Hall.Health and Hall.Summary feed /healthz and the systemd status.
//
// The daemon never signals anything to the players: findings go to the
// arbiter subjects only; the only hardware effect is a clock command that
// the adjudicator asks for (a time penalty under penalties: auto, or an
// arbiter command).
package hall
