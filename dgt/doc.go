// Package dgt is the DGT e-board and clock byte protocol: typed messages
// (board→host), typed commands (host→board), their encoders, and pure,
// goroutine-free decoders for both directions, in single-board and bus mode.
//
// It follows DGT's published board protocol and what real boards do; the
// facts it relies on are summed up in docs/dgt-boards.md ("The protocol in
// brief"). The package imports only the standard library and the
// variant-neutral vocabulary of package rules (squares and pieces).
//
// # Messages and commands
//
// Every board→host message is one Go type implementing [Message]; every
// host→board command implements [Command]. Both encode with AppendBinary
// (the [encoding.BinaryAppender] contract) and decode with [ParseMessage] /
// [ParseCommand], so encode→decode round-trips for every type.
//
// # Decoding a stream
//
// [Decoder] is an incremental, non-blocking decoder for the board→host
// direction: Feed bytes as they arrive, then call Next until it returns
// [ErrNeedMore]. It resynchronises on the next header byte (≥ 0x80) after
// garbage, wrong lengths, unknown ids and bad checksums, reporting each
// problem once as a *[FrameError]. [Reader] wraps an io.Reader with the
// same semantics and a sticky I/O error. [CommandDecoder] is the same for
// host→board bytes (what an emulated board must parse).
//
// [Decoder.NextFrame] with [DecodeFieldUpdate] and friends is the
// allocation-free path for hot loops.
//
// # Orientation
//
// Board squares are numbered by the hardware, 0 = a8 … 63 = h1 when White
// sits with the connector on the left. [Field.Square] and
// [BoardDump.Placement] convert to [rules.Square] and [rules.Placement]
// given an [Orientation].
//
// # Uncertain points
//
// Where the sources disagree (clock status bits and left/right; the
// field-update "S bit"; battery status; the EEPROM clock "f"
// bit) the raw bits are kept and exposed alongside the derived
// meaning, which follows DGT's header and the real captures (recordings of
// real boards, which the tests replay).
package dgt
