package evq

import (
	"testing"
	"time"
)

// TestQueue: Put never blocks, however far behind the consumer is, and
// the values come out in order; Run closes the channel when done.
func TestQueue(t *testing.T) {
	q := New[int](1)
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() { q.Run(done); close(finished) }()
	for i := 0; i < 10000; i++ {
		q.Put(i) // nobody reads yet: must not block
	}
	for i := 0; i < 10000; i++ {
		select {
		case v := <-q.Out():
			if v != i {
				t.Fatalf("got %d, want %d", v, i)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("value %d never came", i)
		}
	}
	close(done)
	<-finished
	if _, ok := <-q.Out(); ok {
		t.Fatal("Out not closed after Run")
	}
}
