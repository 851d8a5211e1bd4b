// Package hall is the daemon core of dgtbridge: it runs every configured board
// of a tournament hall from the serial port to NATS.
//
// Per board one goroutine owns the port (a dgt/link.Link over an Opener;
// boards with a bus address share one goroutine per DGT bus line, dgt/bus)
// and feeds the pure cores of its game in arrival order (and in time order:
// a tick never lets a later event go back in time): the board tracker
// (package board), the adjudicator (package rules/arbiter) and the game
// Record kept here. What they produce is written to the game's record file
// in the data directory first (atomic: temp file, fsync, rename, directory
// fsync; the saves of all boards are group-committed, groupsave.go) and
// then handed to a Sink (a *broadcast.Publisher: durable and asynchronous, so a
// slow or absent NATS never blocks a board).
//
// # Recovery
//
// On start every game resumes from its record file: the tracker and the
// adjudicator are rebuilt by replaying the recorded moves, the revision is
// kept, and the moves not yet handed to the sink are handed again (their
// message ids, <g>.move.<ply>.<revision>, make a repeat a no-op in the
// streams). On every (re)connect the board's dump is reconciled with the
// record by the tracker: moves made while nobody listened are caught up when
// a short legal sequence explains them, otherwise the arbiter gets an alert.
//
// # Session
//
// Session is the per-game pure core (tracker + adjudicator + record), shared
// with `dgtbridge replay`: it takes time-stamped DGT messages and returns the
// payloads to publish, in order.
//
// # Wiring
//
// cmd/dgtbridge fills Options from the configuration (Board.Open from its
// go.bug.st/serial opener); the demo fills it with emulated boards on
// pseudo-terminals. Options.Observer receives every payload for a live
// feed; Hall.Health and Hall.Summary feed /healthz and the systemd status.
//
// The daemon never signals anything to the players: findings go to the
// arbiter subjects only; the only hardware effect is a clock command that
// the adjudicator asks for (a time penalty under penalties: auto, or an
// arbiter command).
package hall
