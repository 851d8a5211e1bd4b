// Package link is the transport of one Open Board Protocol board on its
// serial line, on the pattern of the DGT link (package dgt/link): one
// goroutine ([Link.Run]) owns the port, identifies the board, reads the
// whole board and the clock, hands every line on as a typed [Event] on a
// channel it owns and closes, asks for the whole board again after a bad
// line, watches that the board is alive, and reconnects with capped
// exponential back-off when the cable is pulled.
//
// The port is opened through an [Opener], so this package imports no
// serial library: the daemon passes one from package serialport, tests
// one that opens a pseudo-terminal.
//
// # Connection sequence (docs/open-board-protocol.md)
//
//  1. An empty line (it ends whatever half line the board may hold from
//     before), then "I", re-sent every IdentifyInterval until the board
//     answers with its Ident (IdentifyTries times, then [ErrNoBoard]).
//     Lines before the Ident are dropped: the board is read whole next.
//  2. "B": the whole board ([ErrNoBoard] when it does not come).
//  3. "C": the clock, or "C none". A board that does not answer is taken
//     as one without a clock.
//
// Then [Connected] is emitted with the three answers, followed by every
// line in arrival order as [Message] (lines that arrived during the
// sequence come right after Connected).
//
// # Bad lines
//
// A line that fails its checksum, is too long, holds a byte that is not
// printable or does not parse is emitted as [BadLine] and dropped, and the
// link asks for the whole board ("B"; at most one request outstanding, an
// unanswered one is repeated after ReplyTimeout). The answer arrives as a
// Message holding an obp.Board: the consumer takes it as the board's
// state, so a move whose lines were lost is still recognised.
//
// # Liveness
//
// An OBP board is silent while nothing moves and no clock runs, so after
// Options.Watchdog without a byte the link asks "I"; no answer within
// another Watchdog means the board hangs ([ErrDead]). The Ident that
// answers the poll is not emitted, unless it names another board
// (another serial number or size): then the connection ends with
// [ErrBoardChanged] and the new board is identified from scratch. A read
// or write error (cable pulled: EOF, EIO, a serial PortError) ends the
// connection at once. Either way [Disconnected] is emitted and the port
// is reopened after a back-off that doubles from BackoffMin to BackoffMax.
//
// # Recording
//
// With Options.Record every chunk read from the port and every command
// written to it is handed over, stamped, on the Run goroutine, in the
// order of the wire: the hexlog writer of package dgt/recording (spec
// docs/contract.md §4) records them in the format `replay` reads.
package link
