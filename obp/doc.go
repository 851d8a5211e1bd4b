// Package obp is the Open Board Protocol, version 1 (OBP/1): the short
// text-line protocol that boards without a protocol of their own (DIY and
// commercial xiangqi boards, chess boards without a DGT mode) speak to the
// daemon. The protocol is described for board builders in
// docs/open-board-protocol.md; this package and that page are kept in
// step.
//
// # Lines
//
// Every line is printable ASCII ended by '\n' (a '\r' before it is
// ignored), at most [MaxLine] bytes without its end. Board→host lines end
// with "*HH", two hex digits of the XOR of every byte before the '*'
// ([Checksum]); host→board lines carry none. Every board→host line may
// carry a board timestamp "@<ms>" as its last field before the checksum.
//
// # Messages
//
// Board→host lines are typed [Message] values: [Ident] ("I"), [Board]
// ("B"), [Clock] ("C"), [Lift] ("L"), [Put] ("P"), [Fault] ("E"), and
// [Unknown] for a well-formed line of a type OBP/1 does not define (a
// later revision's addition: reported, never an error). Each encodes
// itself with AppendLine and [Parse] decodes one line; squares and
// placements need the board's [rules.Geometry] (8×8 or 9×10), which the
// board announces in its Ident. Host commands are [Command] values
// ([CmdIdent], [CmdBoard], [CmdClock]) with [ParseCommand] for the board
// side.
//
// # Streams
//
// [Decoder] turns the bytes read from a port into messages: Feed bytes,
// call Next until [ErrNeedMore]. It never panics on any input and always
// resynchronises at the next '\n': a line that fails its checksum, is too
// long, holds a byte that is not printable ASCII or does not parse is
// reported once as a *[LineError] and dropped, and the lines after it are
// read as if it had not been there. The host answers a bad line by asking
// for the whole board ("B"), so a move whose lines were lost is still
// recognised (package obp/link does so).
//
// The package is pure: no goroutines, no I/O, no clocks.
package obp
