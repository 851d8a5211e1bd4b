// Package bus drives a DGT bus line (docs/dgt-boards.md): several boards
// sharing one serial line, each answering only when addressed. One
// goroutine ([Bus.Run]) owns the port: it discovers the boards, polls them
// round-robin for changes (the EEPROM event records) and clock
// times, retries on checksum errors without losing changes
// (REPEAT_CHANGES), and reports per-address [Event]s.
//
// # Discovery
//
// First every expected address (Settings.Addresses) is pinged directly.
// Then, in rounds: every known board is told to ignore the next broadcast
// ping, a broadcast ping (address 0) goes out, and answers are collected
// for 1.2 s (boards answer at a random moment within 1.1 s, and answers
// that overlap collide on the wired-OR line, which the checksum catches).
// Rounds repeat until one finds nothing new. Discovery is repeated every
// Settings.Rediscover to pick up boards plugged in later, and lost boards
// are pinged again. A lost board is also pinged on its own, in the time the
// schedule has left, Settings.RepingLost (1 s) after it was lost and
// then at doubling gaps up to Rediscover: a board that missed a few replies
// is back within about a second.
//
// # Polling schedule
//
// Every board's changes (SEND_CHANGES: 4 bytes; an empty reply is 6) are
// due within Settings.PollInterval of its previous poll; clocks
// (SEND_CLK: 4 bytes; reply 13) are read in the time the polls leave. At
// 9600 baud (960 bytes/s) a quiet board's changes cost 10 bytes ≈ 10.4 ms
// and its clock 17 bytes ≈ 17.7 ms; a move adds 2 bytes per changed
// square; the boards' answer time (a few ms, up to 20 ms when writing
// EEPROM) comes on top. On a line of 32 boards the changes take about a
// third of a second and about 20 clocks fit in the rest of 0.81 s, so not
// every clock is read in every cycle.
//
// Before each exchange the line works out its slack: how long it may
// spend on something else and still poll every board, the longest
// unpolled first, before nine tenths of PollInterval have passed since
// that board's previous poll (each poll counted at the board's usual
// cost, with an allowance for a run of longer replies). A clock is read
// only when the slack covers it; without slack the board unpolled longest
// is polled, so a line that fell behind catches up most overdue first. So
// a board's polls never drift apart as clock reads come before it in one
// cycle and not in the next. In the slack, in this order: a second poll
// of the changes of a board whose last changes held a lever press, once
// Settings.RepollAfter (300 ms) has passed since them (the lever
// often beats the board's scan of the moved piece's last square; the
// daemon judges such a move on this second look instead of a cycle
// later); a clock not read for 3 s (it may use half of the remaining
// tenth), the clock of a board whose changes held a lever press (the oldest press first: on a
// line with room, right after the changes that carried it), then the
// others, the longest unread first, each at most once per poll of its
// board, and only while the slack would still hold a press's read. A
// round of polls (every board polled once: [Stats].Cycles) in which no
// clock fitted is followed by one clock read whatever it costs, so a line
// reads at least one clock a round, the one unread longest first once
// clocks wait 3 s, and no clock is starved. A poll or clock exchange is
// timed at most at Settings.ReplyTimeout: longer is a process starved
// of CPU, not the line. Settings.Cycle bounds
// how often one board is polled on a short line; Settings.ClockEvery
// reads every clock after its board's changes every ClockEvery rounds
// instead, however long that makes them.
//
// # Events
//
// A found board is reported with [BoardFound], then its EEPROM log
// ([Log]: SEND_FROM_START, the records from its last start tag up to the
// last changes fetched, followed by SEND_CHANGES, the rest; so every
// change the board saw while nobody polled it, whether the line was down
// or the daemon restarting), its full position ([Position], from SEND_BRD)
// and its clock. After that [Changes] carry the EEPROM records in order
// (each piece record is "field F now holds piece P", so applying a record
// twice is harmless), and [Clock] a clock reading whenever it differs from
// the previous one; the clock of a board whose changes held a clock record
// (the board writes one at every lever press) is read first among the
// clocks, right after them when the line has room, so a press is reported
// in the cycle that fetched the move it completes. A board that stops
// answering is reported with
// [BoardLost] and read in the same way when it returns. [Bus.ReadLog]
// reads a board's log on request.
//
// # Damage on the line
//
// Bus replies carry a checksum. A garbled reply is asked again
// (REPEAT_CHANGES for changes: the board has given that packet up already,
// asking anew would lose it). A time-out cannot tell a lost command from a
// lost reply: when REPEAT_CHANGES then returns the packet taken last time,
// the command was lost and SEND_CHANGES goes again, so nothing is reported
// twice. A reply cut short is dropped at the time-out rather than joined
// to the next one. When every try of a board's changes comes back garbled,
// changes may have been lost: the board is not given up, its log and
// position are read at its next poll (again, while they come back
// garbled, up to Retries cycles).
//
// # Start tags
//
// When a board's changes carry a begin-position tag (EE_BEGINPOS,
// EE_BEGINPOS_ROT, EE_FOURROWS: the board itself saw a new game set up),
// the bus sends it SET_START_GAME (as DGT recommends at the start of
// a round), so its log starts at the current game: a few hundred bytes
// instead of the whole 0x1F00-byte buffer (8 s of line time). A long reply
// is waited for as long as bytes keep coming.
package bus
