// Package sdnotify tells systemd about the daemon's state over the
// sd_notify protocol (sd_notify(3)): one datagram of newline-separated
// KEY=VALUE assignments to the unix datagram socket named by
// NOTIFY_SOCKET. A name starting with '@' is in the abstract namespace.
//
// A nil *Notifier is valid and every method on it is a no-op, so callers
// keep one code path whether or not they run under systemd:
//
//	n, err := sdnotify.New()          // os.ErrNotExist: not under systemd
//	if err != nil && !errors.Is(err, os.ErrNotExist) { … }
//	defer n.Close()
//	n.Ready()
package sdnotify

import (
	"errors"
	"fmt"
	"math"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The states of sd_notify(3) that dgtbridge sends.
const (
	Ready     = "READY=1"
	Stopping  = "STOPPING=1"
	Reloading = "RELOADING=1"
	Watchdog  = "WATCHDOG=1"
)

// Status returns the STATUS= assignment for a one-line human status. Line
// breaks would start new assignments, so they become spaces.
func Status(s string) string {
	return "STATUS=" + strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}

// Notifier sends states to systemd. It is safe for concurrent use; a nil
// Notifier does nothing.
type Notifier struct {
	mu      sync.Mutex
	conn    *net.UnixConn
	timeout time.Duration // bound of one send; 0 means sendTimeout
}

// sendTimeout bounds one Notify: a listener that stops reading fills its
// queue, and a send to a full unix datagram socket blocks.
const sendTimeout = 2 * time.Second

// New opens the socket named by the NOTIFY_SOCKET environment variable.
// When it is unset or empty (not started by systemd, or Type= is not
// notify) the error matches os.ErrNotExist and the returned Notifier is
// nil, which is still usable.
func New() (*Notifier, error) {
	name := os.Getenv("NOTIFY_SOCKET")
	if name == "" {
		return nil, fmt.Errorf("sdnotify: NOTIFY_SOCKET is not set (not under systemd): %w", os.ErrNotExist)
	}
	return Open(name)
}

// Open connects to the notification socket name: a path, or "@name" for
// the abstract namespace.
func Open(name string) (*Notifier, error) {
	c, err := net.DialUnix("unixgram", nil, &net.UnixAddr{Name: name, Net: "unixgram"})
	if err != nil {
		return nil, fmt.Errorf("sdnotify: %w", err)
	}
	return &Notifier{conn: c}, nil
}

// Notify sends the assignments (e.g. [Ready], Status("3 boards")) in one
// datagram. A listener that does not read (its queue is full) makes it
// fail after a bounded wait (2 s) instead of blocking the daemon.
func (n *Notifier) Notify(states ...string) error {
	if n == nil || len(states) == 0 {
		return nil
	}
	msg := strings.Join(states, "\n")
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.conn == nil {
		return fmt.Errorf("sdnotify: %w", net.ErrClosed)
	}
	d := n.timeout
	if d <= 0 {
		d = sendTimeout
	}
	if err := n.conn.SetWriteDeadline(time.Now().Add(d)); err != nil {
		return fmt.Errorf("sdnotify: %w", err)
	}
	if _, err := n.conn.Write([]byte(msg)); err != nil {
		return fmt.Errorf("sdnotify: %w", err)
	}
	return nil
}

// Ready sends READY=1, with an optional status line.
func (n *Notifier) Ready(status ...string) error { return n.Notify(with(Ready, status)...) }

// Stopping sends STOPPING=1, with an optional status line.
func (n *Notifier) Stopping(status ...string) error { return n.Notify(with(Stopping, status)...) }

// Status sends a STATUS= line.
func (n *Notifier) Status(s string) error { return n.Notify(Status(s)) }

// Watchdog sends WATCHDOG=1 (keep-alive for WatchdogSec=).
func (n *Notifier) Watchdog() error { return n.Notify(Watchdog) }

// Close closes the socket. Later Notify calls return an error.
func (n *Notifier) Close() error {
	if n == nil {
		return nil
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.conn == nil {
		return nil
	}
	err := n.conn.Close()
	n.conn = nil
	return err
}

func with(state string, status []string) []string {
	out := []string{state}
	for _, s := range status {
		out = append(out, Status(s))
	}
	return out
}

// WatchdogTimeout returns the watchdog timeout systemd set for this
// process (WATCHDOG_USEC, honouring WATCHDOG_PID). Ping [Watchdog] at
// half of it. When no watchdog is enabled the error matches
// os.ErrNotExist.
func WatchdogTimeout() (time.Duration, error) {
	pid, _ := os.LookupEnv("WATCHDOG_PID")
	return ParseWatchdog(os.Getenv("WATCHDOG_USEC"), pid, os.Getpid())
}

// ErrBadWatchdog: WATCHDOG_USEC or WATCHDOG_PID is not a positive number.
var ErrBadWatchdog = errors.New("sdnotify: bad watchdog setting")

// ParseWatchdog interprets WATCHDOG_USEC and WATCHDOG_PID for the process
// self: usec "" means no watchdog (os.ErrNotExist), as does a pid that
// names another process; pid "" means the watchdog is for every process.
func ParseWatchdog(usec, pid string, self int) (time.Duration, error) {
	if usec == "" {
		return 0, fmt.Errorf("sdnotify: WATCHDOG_USEC is not set: %w", os.ErrNotExist)
	}
	us, err := strconv.ParseUint(usec, 10, 63)
	if err != nil || us == 0 || us > uint64(math.MaxInt64/int64(time.Microsecond)) {
		return 0, fmt.Errorf("%w: WATCHDOG_USEC=%q", ErrBadWatchdog, usec)
	}
	if pid != "" {
		p, err := strconv.Atoi(pid)
		if err != nil || p <= 0 {
			return 0, fmt.Errorf("%w: WATCHDOG_PID=%q", ErrBadWatchdog, pid)
		}
		if p != self {
			return 0, fmt.Errorf("sdnotify: the watchdog is for process %d, not %d: %w", p, self, os.ErrNotExist)
		}
	}
	return time.Duration(us) * time.Microsecond, nil
}
