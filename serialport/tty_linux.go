//go:build linux

package serialport

import (
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// OpenBaud is [Open] at another speed (an Open Board Protocol
// board's port opens at 115200 baud, docs/open-board-protocol.md).
func OpenBaud(path string, baud int) (io.ReadWriteCloser, error) { return openTTY(path, baud) }

// ttySpeeds are the line speeds openTTY sets.
var ttySpeeds = map[int]uint32{9600: unix.B9600, 19200: unix.B19200, 38400: unix.B38400, 57600: unix.B57600, 115200: unix.B115200}

// openTTY opens a serial device for the Go runtime's poller: non-blocking,
// so a Read parks its goroutine until epoll reports data (one wait shared
// by every port of the process) instead of blocking a thread in a select
// system call before each read, as go.bug.st/serial does. The line is set
// raw at baud 8N1 without flow control, for this process alone
// (TIOCEXCL), with DTR and RTS low (a device without modem lines
// refuses that harmlessly). Close unblocks a pending Read.
func openTTY(path string, baud int) (io.ReadWriteCloser, error) {
	speed, ok := ttySpeeds[baud]
	if !ok {
		return nil, fmt.Errorf("open serial port %s: unsupported speed %d baud", path, baud)
	}
	fd, err := unix.Open(path, unix.O_RDWR|unix.O_NOCTTY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("open serial port %s: %w", path, err)
	}
	t, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("open serial port %s: %w: %w", path, ErrNotSerialPort, err)
	}
	t.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON | unix.IXOFF | unix.IXANY
	t.Oflag &^= unix.OPOST
	t.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	t.Cflag &^= unix.CSIZE | unix.PARENB | unix.CSTOPB | unix.CRTSCTS | unix.CBAUD
	t.Cflag |= unix.CS8 | unix.CREAD | unix.CLOCAL | speed
	t.Ispeed, t.Ospeed = speed, speed
	t.Cc[unix.VMIN], t.Cc[unix.VTIME] = 1, 0
	if err := unix.IoctlSetTermios(fd, unix.TCSETS, t); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("serial port %s: line settings: %w", path, err)
	}
	if err := unix.IoctlSetInt(fd, unix.TIOCEXCL, 0); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("serial port %s: exclusive use: %w", path, err)
	}
	_ = unix.IoctlSetPointerInt(fd, unix.TIOCMBIC, unix.TIOCM_DTR|unix.TIOCM_RTS)
	// A non-blocking descriptor makes os.NewFile register it with the
	// runtime's poller.
	return &ttyPort{f: os.NewFile(uintptr(fd), path), path: path}, nil
}

// ttyPort is a serial device read through the runtime's poller.
type ttyPort struct {
	f    *os.File
	path string
}

func (p *ttyPort) Read(b []byte) (int, error) {
	n, err := p.f.Read(b)
	if err != nil {
		err = fmt.Errorf("serial port %s: %w", p.path, err)
	}
	return n, err
}

func (p *ttyPort) Write(b []byte) (int, error) {
	n, err := p.f.Write(b)
	if err != nil {
		err = fmt.Errorf("serial port %s: %w", p.path, err)
	}
	return n, err
}

// SetReadDeadline bounds the next reads (dgt/bus reads its replies with
// a deadline on its own goroutine).
func (p *ttyPort) SetReadDeadline(t time.Time) error { return p.f.SetReadDeadline(t) }

// Close releases the device; a pending Read returns os.ErrClosed.
func (p *ttyPort) Close() error { return p.f.Close() }
