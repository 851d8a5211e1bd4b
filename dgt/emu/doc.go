// Package emu emulates DGT e-boards with a DGT 3000 clock, honestly enough
// that the daemon's board tracker can be tested against it: the host
// protocol of a real board (single-board and bus mode), a sensor scan
// that reports changes only when it visits a square, a clock that counts
// down with increment or delay, and hands that move pieces the way players
// do.
//
// # Layers
//
// [Emulator] is one board and clock, a pure state machine: time is passed
// in, nothing starts a goroutine. Host bytes go in with Input, time moves
// with Advance, the board's bytes come out of Output. [Line] puts several
// emulators on one bus line (§4.1), where simultaneous replies collide.
// [Run] and [ServePTY] serve either in real time over an io.ReadWriteCloser
// or the master side of a pseudo-terminal (package dgt/pty), so the daemon
// opens the slave path exactly like a real board's device.
//
// # The physical model
//
// Squares change by [Action]s: Lift, Place, PlaceMagic, and the clock's
// Press and Pause. The scanner visits field i of the board at i/64 of
// every scan period (default 220 ms, §2.11), so the changes of a move are
// reported in field order when the hand is faster than a scan
// (destination before origin), a slow slide is reported square by square,
// and a captured piece's removal can go unseen if it is replaced within
// one scan. Flicker (Options.Flicker) misreads one occupied square as
// empty for one scan. Every change the scanner sees is also written to the
// board's EEPROM event memory (§2.9), which bus mode reads.
//
// [Expand] and [Physical.Script] turn a chess move into timed lifts and
// placements in a handling [Style] (clean, slow slide, capture first,
// destination first; castling king or rook first); [GameScript] plays a
// whole game with think times and clock presses; [ResultGesture] puts both
// kings in the centre (the DGT result signal, §5.3).
//
// # What is not modelled
//
// The EEPROM's overwriting of a repeatedly changed piece and its
// begin-position tags (§2.9); the XL's 7-segment display contents; the
// 10-byte input buffer; Revelation II LEDs and draughts commands (ignored);
// throughput limits of single-board links (a pty is as fast as memory).
//
// # Encoding
//
// The frames are encoded in this package from the spec (wire.go), not
// with package dgt's encoders, so tests that decode the emulator's output
// with package dgt cross-check two independent implementations.
package emu
