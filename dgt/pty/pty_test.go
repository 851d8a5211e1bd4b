package pty_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/pty"
)

// TestOpenRawBothWays checks that every byte value crosses the pair
// unchanged in both directions (raw mode: no CR/NL mapping, no XON/XOFF, no
// echo, no signal characters).
func TestOpenRawBothWays(t *testing.T) {
	m, path, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	s, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatalf("open slave %s: %v", path, err)
	}
	defer s.Close()
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	for _, tc := range []struct {
		name string
		w    io.Writer
		r    *os.File
	}{{"master to slave", m, s}, {"slave to master", s, m}} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := tc.w.Write(all); err != nil {
				t.Fatal(err)
			}
			got := make([]byte, 0, 256)
			buf := make([]byte, 256)
			tc.r.SetReadDeadline(time.Now().Add(10 * time.Second))
			for len(got) < len(all) {
				n, err := tc.r.Read(buf)
				if err != nil {
					t.Fatalf("after %d bytes: %v", len(got), err)
				}
				got = append(got, buf[:n]...)
			}
			if !bytes.Equal(got, all) {
				t.Fatalf("bytes changed in transit:\n got % x\nwant % x", got, all)
			}
		})
	}
}

// TestCloseUnblocksRead checks that closing the master ends a Read that is
// blocked on it (the owning goroutine is stopped by Close).
func TestCloseUnblocksRead(t *testing.T) {
	m, path, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	s, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	done := make(chan error, 1)
	go func() {
		_, err := m.Read(make([]byte, 1))
		done <- err
	}()
	m.Close()
	select {
	case err := <-done:
		if !errors.Is(err, os.ErrClosed) {
			t.Fatalf("read after close: %v, want os.ErrClosed", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Read still blocked 10 s after Close")
	}
	// The slave sees the hang-up: reads fail or return EOF.
	s.SetReadDeadline(time.Now().Add(10 * time.Second))
	if n, err := s.Read(make([]byte, 1)); err == nil {
		t.Fatalf("slave read after master close returned %d bytes and no error", n)
	}
}

// TestNoSlaveReadsFail documents the contract that a master read fails (EIO)
// while nobody holds the slave open.
func TestNoSlaveReadsFail(t *testing.T) {
	m, _, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	m.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := m.Read(make([]byte, 1)); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read with no slave open: %v, want an I/O error", err)
	}
}
