//go:build linux

package pty

import (
	"errors"
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// ErrOpen is matched (errors.Is) by every error Open returns.
var ErrOpen = errors.New("pty: cannot open pseudo-terminal")

// OpenError says which step of opening a pseudo-terminal failed.
type OpenError struct {
	Step string // "open /dev/ptmx", "unlockpt", "ptsname", "raw mode"
	Err  error
}

// Error implements error.
func (e *OpenError) Error() string { return fmt.Sprintf("pty: %s: %v", e.Step, e.Err) }

// Unwrap returns the system error.
func (e *OpenError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrOpen) true.
func (e *OpenError) Is(target error) bool { return target == ErrOpen }

// Open opens a new pseudo-terminal pair and returns the master side and the
// path of the slave device (e.g. "/dev/pts/7"). The master is in raw mode;
// the slave is put into raw mode too (opened once and closed again, the
// setting sticks to the terminal), so whoever opens the path next sees an
// 8-bit clean line, as a serial port opened at 9600 8N1 would be.
//
// Reads on the master return an error (EIO) while no process holds the
// slave open; callers that serve the master should treat that as "nobody
// connected yet". The caller owns the master and must close it; closing it
// makes reads and writes on the slave side fail, which is how tests
// simulate an unplugged board.
func Open() (master *os.File, slavePath string, err error) {
	fd, err := unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, "", &OpenError{Step: "open /dev/ptmx", Err: err}
	}
	fail := func(step string, err error) (*os.File, string, error) {
		unix.Close(fd)
		return nil, "", &OpenError{Step: step, Err: err}
	}
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		return fail("unlockpt", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		return fail("ptsname", err)
	}
	slavePath = "/dev/pts/" + strconv.Itoa(n)
	if err := MakeRaw(fd); err != nil {
		return fail("raw mode", err)
	}
	sfd, err := unix.Open(slavePath, unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fail("open "+slavePath, err)
	}
	err = MakeRaw(sfd)
	unix.Close(sfd)
	if err != nil {
		return fail("raw mode "+slavePath, err)
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		return fail("nonblock", err)
	}
	// os.NewFile on a non-blocking descriptor registers it with the runtime
	// poller, so Close unblocks a pending Read and deadlines work.
	return os.NewFile(uintptr(fd), "/dev/ptmx"), slavePath, nil
}

// MakeRaw puts the terminal fd into raw mode (cfmakeraw): no echo, no
// canonical line editing, no signal characters, no CR/NL translation, 8 data
// bits, no parity, reads return as soon as one byte is available.
func MakeRaw(fd int) error {
	t, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return err
	}
	t.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON | unix.IXOFF
	t.Oflag &^= unix.OPOST
	t.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	t.Cflag &^= unix.CSIZE | unix.PARENB | unix.CRTSCTS
	t.Cflag |= unix.CS8 | unix.CREAD | unix.CLOCAL
	t.Cc[unix.VMIN] = 1
	t.Cc[unix.VTIME] = 0
	return unix.IoctlSetTermios(fd, unix.TCSETS, t)
}
