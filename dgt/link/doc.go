// Package link is the transport of one DGT board on its own serial line:
// one goroutine ([Link.Run]) owns the port, identifies the board, keeps it
// in UPDATE_NICE mode, sends clock commands one at a time waiting for each
// ACK, watches that the board is alive, and reconnects with capped
// exponential back-off when the cable is pulled or a Bluetooth link drops.
// It emits typed [Event]s on a channel it owns and closes.
//
// The port is opened through an [Opener] (a func), so this package never
// imports a serial library: the daemon passes one from package serialport,
// tests pass one that opens a pseudo-terminal or a pipe.
//
// # Connection sequence
//
//  1. DGT_SEND_RESET (0x40) to leave bus mode quietly, then
//     DGT_SEND_VERSION (0x4D), re-sent every IdentifyInterval until a
//     version reply arrives (IdentifyTries times, then [ErrNoBoard]).
//  2. DGT_RETURN_SERIALNR (0x45) and DGT_RETURN_LONG_SERIALNR (0x55; old
//     boards do not answer it, which is fine).
//  3. DGT_SEND_EE_MOVES (0x49), unless Settings.NoLog: the board's EEPROM
//     log (about 8 s at 9600 baud), read while the board is still
//     IDLE so that it is alone on the line. It holds every change the
//     board saw while nobody listened, and is reported as a [Log] event.
//  4. DGT_SEND_UPDATE_NICE (0x4B): field updates, clock times on change,
//     clock ACKs.
//  5. The clock's version (`2B 03 03 09 00`): its ACK tells DGT 3000 (2.x)
//     from XL; no ACK and a "no clock" status mean no clock.
//  6. DGT_SEND_BRD (0x42): the board dump re-reads the position, so after
//     a reconnect the position is right even where the log falls short.
//
// Then [Connected] is emitted, followed by the [Log] and every message in
// arrival order (the dump among them), except the serial-number replies
// to the watchdog's polls. [Link.ReadLog] reads the log again on request.
//
// # Liveness
//
// A board in UPDATE_NICE mode is silent while nothing moves and the clock
// stands still, so after Settings.Watchdog without a byte the link polls
// with DGT_RETURN_SERIALNR (picochess does the same every second); no
// reply within another Watchdog means the board hangs ([ErrDead]). A read
// or write error (cable pulled, Bluetooth link dropped: EOF, EIO, a
// serial PortError) ends the connection at once. Either way
// [Disconnected] is emitted and the port is reopened after a back-off
// that doubles from BackoffMin to BackoffMax and starts again after a
// successful connection.
//
// # Damage on the line
//
// Single-board frames carry no checksum, so a garbled, dropped or
// duplicated byte either breaks a frame (the decoder skips to the next
// header byte) or, rarely, turns it into another valid-looking one. The
// link repairs both instead of carrying on with a wrong picture:
//
//   - A broken frame, a frame cut short (its bytes stop coming for 300 ms)
//     or a message nobody asked for (an EE_MOVES without a log read) is
//     reported as [Resync]; the link asks the board for its position and
//     clock at once (DGT_SEND_BRD, DGT_SEND_CLK), and then reads the
//     EEPROM log, since a lost or wrong report can hide a whole position
//     when the next move began before the repair. Damage while a log is on
//     the line gets another read after it.
//   - While the position changes, the link reads it at most every
//     Settings.Verify (2 s) and compares it with what the reports said; a
//     read that agrees is not passed on (nothing new), a difference (a
//     corrupted byte that looked valid) is a [Resync] with ErrMismatch,
//     the dump follows as a [Message], and it is repaired the same way. A
//     differing read is checked again, since it may be the damaged one.
//   - A log that arrives damaged (cut short, no EE_EOF at its end,
//     records that do not parse) is asked again, up to AckTries reads;
//     then it is delivered with ErrBadLog, and read once more after the
//     connection sequence.
//
// So a consumer that follows the dumps, the field updates and the logs
// sees every position the board went through, whatever the noise: one
// garbled byte never stops a game.
//
// # Orientation
//
// The link reports dumps and field updates in the board's own numbering
// and decides nothing; [DetectOrientation] is a helper for the
// board tracker, which owns that decision.
package link
