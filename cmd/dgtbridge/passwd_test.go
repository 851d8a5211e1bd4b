package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/pty"
	"github.com/dgtbridge/dgtbridge/internal/cli"
	"golang.org/x/crypto/bcrypt"
	"golang.org/x/sys/unix"
)

// TestPasswdStdin: the first line of a pipe is hashed (bcrypt, checkable);
// a password as an argument is refused; an empty line prints nothing.
func TestPasswdStdin(t *testing.T) {
	pipe := func(s string) *os.File {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		w.WriteString(s)
		w.Close()
		t.Cleanup(func() { r.Close() })
		return r
	}
	var out, errb bytes.Buffer
	if err := passwd(nil, pipe("correct horse battery\nignored\n"), &out, &errb); err != nil {
		t.Fatal(err)
	}
	h := strings.TrimSpace(out.String())
	if bcrypt.CompareHashAndPassword([]byte(h), []byte("correct horse battery")) != nil || errb.Len() != 0 {
		t.Errorf("hash %q does not check, stderr %q", h, errb.String())
	}
	out.Reset()
	if err := passwd([]string{"s3cret"}, pipe(""), &out, &errb); err == nil || cli.ExitCode(err) != 2 || out.Len() != 0 {
		t.Errorf("password as argument: %v, printed %q", err, out.String())
	}
	if err := passwd(nil, pipe("\n"), &out, &errb); err == nil || !strings.Contains(err.Error(), "empty") || out.Len() != 0 {
		t.Errorf("empty password: %v, printed %q", err, out.String())
	}
	errb.Reset()
	if err := passwd(nil, pipe("short\n"), &out, &errb); err != nil || !strings.Contains(errb.String(), "5 characters is short") {
		t.Errorf("short password: %v, warned %q", err, errb.String())
	}
}

// TestPasswdTerminal: on a terminal (a pseudo-terminal here) the password
// is asked twice and not echoed; two that differ print nothing.
func TestPasswdTerminal(t *testing.T) {
	for _, tc := range []struct {
		typed string
		ok    bool
	}{{"hall password 1\nhall password 1\n", true}, {"hall password 1\nhall password 2\n", false}} {
		master, slavePath, err := pty.Open()
		if err != nil {
			t.Fatal(err)
		}
		slave, err := os.OpenFile(slavePath, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		cooked(t, slave) // a terminal as a shell leaves it: echo on
		echoed := make(chan string, 1)
		go func() {
			var b bytes.Buffer
			buf := make([]byte, 256)
			master.SetReadDeadline(time.Now().Add(10 * time.Second))
			for {
				n, err := master.Read(buf)
				b.Write(buf[:n])
				if err != nil {
					break
				}
			}
			echoed <- b.String()
		}()
		var out bytes.Buffer
		var errb syncBuffer
		done := make(chan error, 1)
		go func() { done <- passwd(nil, slave, &out, &errb) }()
		for i, line := range strings.SplitAfter(strings.TrimSuffix(tc.typed, "\n"), "\n") {
			waitPasswd(t, "the prompt", func() bool { return strings.Count(errb.String(), ": ") > i })
			waitNoEcho(t, slave)
			master.WriteString(strings.TrimSuffix(line, "\n") + "\n")
		}
		err = <-done
		slave.Close()
		master.Close()
		echo := <-echoed
		if strings.Contains(echo, "hall password") {
			t.Errorf("the password was echoed: %q", echo)
		}
		h := strings.TrimSpace(out.String())
		if tc.ok && (err != nil || bcrypt.CompareHashAndPassword([]byte(h), []byte("hall password 1")) != nil) {
			t.Errorf("typed twice: %v, hash %q", err, h)
		}
		if !tc.ok && (err == nil || !strings.Contains(err.Error(), "differ") || out.Len() != 0) {
			t.Errorf("two different: %v, printed %q", err, out.String())
		}
		if !strings.Contains(errb.String(), "password: ") || !strings.Contains(errb.String(), "the same again: ") {
			t.Errorf("prompts: %q", errb.String())
		}
	}
}

// waitNoEcho returns once the terminal's echo is off (passwd asks).
func waitNoEcho(t *testing.T, f *os.File) {
	t.Helper()
	waitPasswd(t, "echo off", func() bool {
		tio, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
		if err != nil {
			t.Fatal(err)
		}
		return tio.Lflag&unix.ECHO == 0
	})
}

// waitPasswd polls cond for up to 10 s.
func waitPasswd(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("never: %s", what)
}

// cooked puts the terminal in the mode a shell leaves it: lines, echo.
func cooked(t *testing.T, f *os.File) {
	t.Helper()
	tio, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	tio.Lflag |= unix.ECHO | unix.ICANON | unix.ISIG | unix.IEXTEN
	tio.Iflag |= unix.ICRNL
	tio.Oflag |= unix.OPOST | unix.ONLCR
	if err := unix.IoctlSetTermios(int(f.Fd()), unix.TCSETS, tio); err != nil {
		t.Fatal(err)
	}
}
