package sdnotify

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// listen opens a real unixgram socket at name and returns it.
func listen(t *testing.T, name string) *net.UnixConn {
	t.Helper()
	l, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: name, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// recv reads one datagram.
func recv(t *testing.T, l *net.UnixConn) string {
	t.Helper()
	buf := make([]byte, 4096)
	if err := l.SetReadDeadline(time.Now().Add(5 * time.Second)); err != nil {
		t.Fatal(err)
	}
	n, err := l.Read(buf)
	if err != nil {
		t.Fatal(err)
	}
	return string(buf[:n])
}

func TestNotify(t *testing.T) {
	for _, tc := range []struct {
		name string
		send func(n *Notifier) error
		want string
	}{
		{"ready", func(n *Notifier) error { return n.Ready() }, "READY=1"},
		{"ready with status", func(n *Notifier) error { return n.Ready("2 boards; nats ok") }, "READY=1\nSTATUS=2 boards; nats ok"},
		{"status one line", func(n *Notifier) error { return n.Status("a\nb\r\nc") }, "STATUS=a b c"},
		{"stopping", func(n *Notifier) error { return n.Stopping() }, "STOPPING=1"},
		{"watchdog", func(n *Notifier) error { return n.Watchdog() }, "WATCHDOG=1"},
		{"raw", func(n *Notifier) error { return n.Notify(Reloading, "MONOTONIC_USEC=5") }, "RELOADING=1\nMONOTONIC_USEC=5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "notify.sock")
			l := listen(t, path)
			t.Setenv("NOTIFY_SOCKET", path)
			n, err := New()
			if err != nil {
				t.Fatal(err)
			}
			defer n.Close()
			if err := tc.send(n); err != nil {
				t.Fatal(err)
			}
			if got := recv(t, l); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestAbstractSocket(t *testing.T) {
	name := fmt.Sprintf("@dgtbridge-sdnotify-test-%d-%d", os.Getpid(), time.Now().UnixNano())
	l := listen(t, name)
	n, err := Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	if err := n.Ready(); err != nil {
		t.Fatal(err)
	}
	if got := recv(t, l); got != Ready {
		t.Errorf("got %q", got)
	}
}

func TestNotUnderSystemd(t *testing.T) {
	t.Setenv("NOTIFY_SOCKET", "")
	n, err := New()
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("err = %v, want os.ErrNotExist", err)
	}
	if n != nil {
		t.Fatal("want a nil Notifier")
	}
	// A nil Notifier is a no-op.
	for _, f := range []func() error{func() error { return n.Ready("x") }, n.Watchdog, n.Close, func() error { return n.Stopping() }} {
		if err := f(); err != nil {
			t.Errorf("nil Notifier: %v", err)
		}
	}
}

func TestNoListener(t *testing.T) {
	if _, err := Open(filepath.Join(t.TempDir(), "absent.sock")); err == nil {
		t.Fatal("Open of a missing socket succeeded")
	}
}

func TestClosed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notify.sock")
	listen(t, path)
	n, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Close(); err != nil {
		t.Fatal(err)
	}
	if err := n.Ready(); !errors.Is(err, net.ErrClosed) {
		t.Errorf("Ready after Close: %v, want net.ErrClosed", err)
	}
}

func TestParseWatchdog(t *testing.T) {
	for _, tc := range []struct {
		name, usec, pid string
		want            time.Duration
		err             error
	}{
		{"unset", "", "", 0, os.ErrNotExist},
		{"any pid", "30000000", "", 30 * time.Second, nil},
		{"our pid", "500000", "42", 500 * time.Millisecond, nil},
		{"other pid", "500000", "43", 0, os.ErrNotExist},
		{"zero", "0", "", 0, ErrBadWatchdog},
		{"garbage", "30s", "", 0, ErrBadWatchdog},
		{"overflow", "18446744073709551615", "", 0, ErrBadWatchdog},
		{"bad pid", "1000", "x", 0, ErrBadWatchdog},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseWatchdog(tc.usec, tc.pid, 42)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("err = %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

func TestWatchdogTimeoutEnv(t *testing.T) {
	t.Setenv("WATCHDOG_USEC", "2000000")
	t.Setenv("WATCHDOG_PID", fmt.Sprint(os.Getpid()))
	d, err := WatchdogTimeout()
	if err != nil || d != 2*time.Second {
		t.Fatalf("got %v, %v", d, err)
	}
}

// TestListenerNotReading: a listener that never reads fills its queue;
// Notify then fails with a deadline error instead of blocking for ever.
func TestListenerNotReading(t *testing.T) {
	name := filepath.Join(t.TempDir(), "notify")
	listen(t, name)
	n, err := Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	n.timeout = 20 * time.Millisecond
	for i := 0; i < 100000; i++ {
		if err = n.Status(fmt.Sprint("status ", i)); err != nil {
			break
		}
	}
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("Notify to a full queue: %v, want a deadline error", err)
	}
}
