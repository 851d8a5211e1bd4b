package replay

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"
)

// TestUntilDone: a read waiting on a recording still being written (a
// pipe) ends when the context is cancelled, with the context's error.
func TestUntilDone(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	r, stop := UntilDone(ctx, pr)
	defer stop()
	go func() { pw.Write([]byte("x")) }()
	buf := make([]byte, 8)
	if n, err := r.Read(buf); n != 1 || err != nil {
		t.Fatalf("first read: %d, %v", n, err)
	}
	done := make(chan error, 1)
	go func() { _, err := r.Read(buf); done <- err }()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("read after cancel: %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a read waiting on the pipe did not end with the context")
	}
}
