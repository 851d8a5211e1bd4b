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
// emulators on one bus line, where simultaneous replies collide.
// [Run] and [ServePTY] serve either in real time over an io.ReadWriteCloser
// or the master side of a pseudo-terminal (package dgt/pty), so the daemon
// opens the slave path exactly like a real board's device.
//
// # The physical model
//
// Squares change by [Action]s: Lift, Place, PlaceMagic, and the clock's
// Press and Pause. The scanner visits the fields one by one as [Scan]
// says: field f at f/64 of every scan period (default 220 ms;
// [DrawScan] gives a real board's 200–250 ms), starting at the board's own
// phase after power-up. So the changes of a move are reported in
// field order when the hand is faster than a scan (destination before
// origin), a slide is reported on the squares the scan happens to catch,
// and a piece lifted and put back between two visits of its square is
// never reported. Flicker (Setup.Flicker) misreads one occupied square as
// empty for one scan. Every change the scanner sees is also written to the
// board's EEPROM event memory: a cyclic 0x1F00-byte buffer that
// wraps, with the last record overwritten while one field keeps changing,
// begin-position tags with their hysteresis, the halted display's time at
// every lever press (per left/right), the power-up sequence (see
// [Emulator.PowerOff], [Emulator.WatchdogReset]) and EE_DOWNLOADED after a
// dump; Setup.NoEEPROM and [Emulator.EraseEEPROM] give a board without
// one or an erased one. DGT_SEND_EE_MOVES dumps it; bus mode reads it with
// SEND_CHANGES and SEND_FROM_START.
//
// # Hands
//
// [Hands] are the players' habits, seeded and reproducible: the lever
// pressed 80–300 ms after the piece is released (often before the scan
// has reported it), fast replies, slides, invisible adjustments between
// two scans, captures in every order, both hands at once, castling king or
// rook first, a promotion piece fetched seconds later, the king held in
// the hand during Chess960 castling. [Game] puts a game, a board and hands
// together: [Play] plays it in simulated time and returns every message
// the host hears, stamped with its arrival over the 9600-baud line, and
// what the hands did per ply ([Ply]); [Game.Plan] returns the script to
// serve the same game in real time. The Game doc comment shows both uses.
//
// The older [Expand], [Physical.Script] and [GameScript] build scripts in
// fixed handling [Style]s (clean, slow slide, capture first, destination
// first; castling king or rook first), for tests that need one exact
// sequence; [ResultGesture] puts both kings in the centre (the DGT result
// signal).
//
// # What is not modelled
//
// The EEPROM's clock record skipped on very fast moves; the XL's icons
// (its digits are read back as characters, [ClockState].Text); the
// 10-byte input buffer; Revelation II LEDs and draughts commands (ignored);
// throughput limits of single-board links in [Run] (a pty is as fast as
// memory; [Play] stamps messages with their 9600-baud arrival).
//
// # Encoding
//
// The frames are encoded in this package from the spec (wire.go), not
// with package dgt's encoders, so tests that decode the emulator's output
// with package dgt cross-check two independent implementations.
package emu
