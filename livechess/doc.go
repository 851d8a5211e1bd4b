// Package livechess serves a local API compatible with DGT LiveChess (a
// WebSocket JSON-RPC at /api/v1.0 and GET /api/v1.0/eboards), so that the
// programs written for LiveChess (Lichess's "play with a DGT board" page
// among them) read the boards of a dgtbridge hall.
//
// It reconstructs nothing: every move comes from the daemon's tracker, read
// from the daemon's NATS feed through a connection it is handed (an
// organiser-level user): the status bucket <p>_status for the boards and
// the game each one is playing, the games bucket <p>_games for each game's
// record (its SAN since the start, its position and clock), and
// <p>.game.<g>.clock for which clock runs. A feed's `setup` restarts its
// `san` from the position given: the record's moves after the last ply,
// among its last six, whose position (placement and side to move) is that
// position; while the record has no such ply the feed sends no moves and
// `match` false.
//
// The server is one concern: [Server.Run] listens and serves until its
// context ends. The pure parts ([view], [feed]) hold no goroutines and do
// no I/O; each WebSocket is owned by one goroutine, which writes every
// frame, and a reader goroutine that only decodes requests.
package livechess
