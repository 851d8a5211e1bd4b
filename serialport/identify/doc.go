// Package identify finds every DGT board on a set of serial ports (each
// board on a port of its own, and every board of each bus line with its
// bus address), matches them to the configured boards, and shows each
// board's table number on its clock, so that the organiser, walking the
// hall with the list, can map sockets to tables
// (`dgtbridge ports --identify`).
//
// The core is pure: [Match] turns what the ports answered ([Port]) and the
// configured boards ([Want]) into a [Report] (every board found, matched
// or "not in the configuration", and every configured board missing, with
// why), [Label] says what a clock shows, and [Print] writes the list. The
// I/O is in [Probe], which asks the ports (all at once, each port on its
// own goroutine, so a silent or garbled port does not hold up the others),
// and [Show], which writes the labels on the clocks and gives them their
// time display back.
//
// A port that another program holds (the running daemon) is not opened:
// it is reported as busy with the program's name, never fought over.
//
// What the clocks show: a DGT 3000 "board 17" (its eight characters;
// "B 117" from board 100 on), an XL "b   17" ("b" on the left display,
// the number on the right); the blind player's own board "blind 17"
// (XL "bL  17"); a board not in the configuration "unknown" (XL
// "------"). The label stays until [Show]'s time is up or its context
// ends, then the clock goes back to its time display (the END command);
// the clock's times are not changed. The DGT protocol has no clock
// command for one board of a bus line (any single-board command is heard
// by every board of the line), so clocks on a bus line show nothing: the
// list gives each of those boards' address, which is written on the board
// (for a five-digit serial number the address is that number).
package identify
