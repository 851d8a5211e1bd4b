// Package emu is an emulated Open Board Protocol board with a clock, for
// tests and demos: a xiangqi board (9×10) or a chess board (8×8) that
// answers the host's commands and reports what hands do on it as OBP/1
// lines with board timestamps.
//
// [Emulator] is a pure state machine, like the DGT emulator of package
// dgt/emu, whose runner serves it ([emu.ServePTY] in dgt/emu takes any
// device with Input, Advance, Output and NextEvent): host bytes go in with
// Input, time moves with Advance, and the lines the board sends come out
// of Output. The physical world acts through a [Script] of timed
// [Action]s: a hand lifts a piece, puts one down, a player presses the
// clock lever, a line is garbled on the wire, the board reports a fault.
//
// [GameScript] turns a game into the script human hands would produce:
// think times, the mover's piece lifted and put down a moment later, the
// captured piece taken off before or after the mover is lifted, now and
// then a long move slid across a point on the way, a piece touched and
// put back before another is moved, and the lever pressed after the put.
// With Options.BadLines a line now and then arrives damaged, as on a noisy
// cable, and the host has to ask for the whole board.
//
// Nothing here reads the wall clock or starts a goroutine; methods are
// safe for concurrent use (one mutex), so a test may act on the board
// while a runner serves it.
package emu
