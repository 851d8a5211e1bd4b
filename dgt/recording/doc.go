// Package record keeps and reads recorded serial traffic of DGT boards
// (docs/contract.md §4).
//
// # Writing
//
// [Tap] wraps a port (an io.ReadWriter) and logs every chunk read or
// written to a [LogWriter] in the hexlog format; [Create] opens the
// daemon's file `<data_dir>/record/<board_id>/<start>.hexlog`. The time
// source is injected.
//
// # Formats
//
//   - hexlog: one line per chunk, `<RFC 3339 timestamp> <dir> <hex bytes>`,
//     dir `<` board→host, `>` host→board. Written with microseconds in
//     UTC and space-separated lower-case byte pairs; read with any RFC
//     3339 precision and zone, hex in either case, spaces optional. Blank
//     lines and lines starting with '#' are ignored.
//   - raw: the bytes the board sent, nothing else.
//   - base64: one board message per line, standard base64 (the format of
//     the real board captures the tests replay).
//
// # Reading
//
// [NewReader] reads any of them, or detects the format ([Auto]), and
// yields [Chunk] values (time, direction, bytes) to feed a dgt.Decoder
// with timing. Bad lines are reported as *[ParseError] with line and
// column and skipped; I/O errors are sticky.
package recording
