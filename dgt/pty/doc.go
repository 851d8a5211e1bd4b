// Package pty opens Linux pseudo-terminal pairs without cgo, so an emulated
// DGT board can serve the master side while the daemon opens the slave path
// through the same serial code it uses for real boards.
//
// It uses /dev/ptmx (posix_openpt), the TIOCSPTLCK ioctl (unlockpt) and
// TIOCGPTN (ptsname) from golang.org/x/sys/unix, and puts both sides into
// raw mode so that no byte of the DGT protocol is translated or swallowed
// by the line discipline.
package pty
