// Package evq is the event queue between the goroutine that owns a port
// (dgt/link, dgt/bus) and its consumer: Put never blocks, so the port is
// read and polled at its own pace whatever the consumer does, and events
// are delivered in order on a channel. What waits is held in memory: a
// consumer that falls behind delays events, it never loses them.
package evq

import "sync"

// Queue delivers the values Put to it on Out, in order. Run moves them;
// Put may be called from any goroutine.
type Queue[T any] struct {
	out  chan T
	mu   sync.Mutex
	q    []T
	wake chan struct{}
}

// New returns a queue whose channel holds up to buffer values.
func New[T any](buffer int) *Queue[T] {
	return &Queue[T]{out: make(chan T, buffer), wake: make(chan struct{}, 1)}
}

// Out returns the channel the values come out of; Run closes it.
func (q *Queue[T]) Out() <-chan T { return q.out }

// Put queues v. It never blocks.
func (q *Queue[T]) Put(v T) {
	q.mu.Lock()
	q.q = append(q.q, v)
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// Len returns the number of values waiting (not yet on the channel).
func (q *Queue[T]) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.q)
}

// Run moves queued values to Out until done is closed, then closes Out;
// values still waiting then are dropped (the consumer is going away).
func (q *Queue[T]) Run(done <-chan struct{}) {
	defer close(q.out)
	for {
		q.mu.Lock()
		batch := q.q
		q.q = nil
		q.mu.Unlock()
		for _, v := range batch {
			select {
			case q.out <- v:
			case <-done:
				return
			}
		}
		if len(batch) > 0 {
			continue
		}
		select {
		case <-q.wake:
		case <-done:
			return
		}
	}
}
