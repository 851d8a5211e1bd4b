// Package bus drives a DGT bus line (dgt-protocol.md §4): several boards
// sharing one serial line, each answering only when addressed. One
// goroutine ([Bus.Run]) owns the port: it discovers the boards, polls them
// round-robin for changes (the EEPROM event records of §2.9) and clock
// times, retries on checksum errors without losing changes
// (REPEAT_CHANGES), and reports per-address [Event]s.
//
// # Discovery (§4.6)
//
// First every expected address (Options.Addresses) is pinged directly.
// Then, in rounds: every known board is told to ignore the next broadcast
// ping, a broadcast ping (address 0) goes out, and answers are collected
// for 1.2 s (boards answer at a random moment within 1.1 s, and answers
// that overlap collide on the wired-OR line, which the checksum catches).
// Rounds repeat until one finds nothing new. Discovery is repeated every
// Options.Rediscover to pick up boards plugged in later, and lost boards
// are pinged again.
//
// # Polling cycle
//
// Each cycle sends SEND_CHANGES (4 bytes; empty reply 6 bytes) to every
// board, and SEND_CLK (4 bytes; reply 13 bytes) every ClockEvery cycles.
// At 9600 baud (960 bytes/s) a quiet board costs 10 bytes ≈ 10.4 ms per
// cycle for changes and 17 bytes ≈ 17.7 ms for the clock; a move adds 2
// bytes per changed square. 32 boards with the clock read every cycle:
// 32 × 27 = 864 bytes ≈ 0.9 s per cycle; with ClockEvery 4 about 0.45 s;
// 16 boards half that. The boards' answer time (a few ms, up to 20 ms when
// writing EEPROM) comes on top.
//
// # Events
//
// A found board is reported with [BoardFound], then its full position
// ([Position], from SEND_BRD) and its clock; after that [Changes] carry
// the EEPROM records in order (each piece record is "field F now holds
// piece P", so applying a record twice is harmless), and [Clock] a clock
// reading whenever it differs from the previous one. A board that stops
// answering is reported with [BoardLost] and re-read in full when it
// returns.
package bus
