// Package serialport opens the serial ports DGT and Open Board Protocol
// boards hang on, and finds DGT boards among them.
//
// It is the only package of the module that imports go.bug.st/serial and
// the only one that sets a terminal's line (termios): everything else
// sees a port as an io.ReadWriteCloser. [Open] and [OpenBaud] open one
// path; [List] lists the ports the system knows, USB ones first; [Probe]
// asks one path who is there and [Discover] asks many at once; [Claims]
// keeps two boards of one process off the same port; [Holders] tells
// which other programs have a port open; [Opener] is the
// opener the daemon hands to dgt/link and dgt/bus for a configured port
// or for [Auto] (find the board, rescanning until one answers).
package serialport
