package lichess

import (
	"fmt"
	"testing"
	"time"
)

// clockAt returns the fake time t0+d.
var t0 = time.Date(2026, 3, 7, 9, 0, 0, 0, time.UTC)

func at(d time.Duration) time.Time { return t0.Add(d) }

func prod() *schedule {
	return newSchedule(DefaultMinInterval, DefaultFirstBackoff, DefaultMaxBackoff, DefaultPause)
}

func sum(s string) [32]byte { return digest(s) }

// TestScheduleOncePerSecond: a round whose PGN changes is due at once;
// while its push is in flight it is not due again; after the push it is
// due again only when the PGN changed, and not before a second after the
// last push started.
func TestScheduleOncePerSecond(t *testing.T) {
	s := prod()
	s.setRounds(map[int]string{1: "AbCd1234"})
	if d := s.due(at(0)); d != nil {
		t.Fatalf("due %v before any PGN", d)
	}
	s.observe(1, sum("v1"))
	if d := s.due(at(0)); fmt.Sprint(d) != "[1]" {
		t.Fatalf("due %v, want [1]", d)
	}
	s.start(1, at(0), sum("v1"))
	s.observe(1, sum("v2"))
	if d := s.due(at(200 * time.Millisecond)); d != nil {
		t.Errorf("due %v while a push is in flight", d)
	}
	s.finish(1, at(300*time.Millisecond), pushed)
	if d := s.due(at(999 * time.Millisecond)); d != nil {
		t.Errorf("due %v 999 ms after the last push started", d)
	}
	if n := s.next(at(300 * time.Millisecond)); !n.Equal(at(time.Second)) {
		t.Errorf("next %v, want 1 s after the last start", n.Sub(t0))
	}
	if d := s.due(at(time.Second)); fmt.Sprint(d) != "[1]" {
		t.Errorf("due %v one second after, want [1]", d)
	}
	s.start(1, at(time.Second), sum("v2"))
	s.finish(1, at(1100*time.Millisecond), pushed)
	if d := s.due(at(5 * time.Second)); d != nil {
		t.Errorf("due %v with nothing new", d)
	}
	if n := s.next(at(5 * time.Second)); !n.IsZero() {
		t.Errorf("next %v with nothing new, want none", n)
	}
}

// TestScheduleBackoff: failures (timeouts, 5xx) double the wait from 1 s
// up to 30 s; a success resets it.
func TestScheduleBackoff(t *testing.T) {
	s := prod()
	s.setRounds(map[int]string{1: "AbCd1234"})
	s.observe(1, sum("v1"))
	now := at(0)
	var waits []time.Duration
	for range 8 {
		d := s.due(now)
		if len(d) != 1 {
			t.Fatalf("at %v due %v", now.Sub(t0), d)
		}
		s.start(1, now, sum("v1"))
		now = now.Add(DefaultTimeout) // abandoned after 10 s
		s.finish(1, now, failed)
		next := s.next(now)
		waits = append(waits, next.Sub(now))
		if d := s.due(next.Add(-time.Millisecond)); d != nil {
			t.Errorf("due %v before the back-off is over", d)
		}
		now = next
	}
	if got := fmt.Sprint(waits); got != "[1s 2s 4s 8s 16s 30s 30s 30s]" {
		t.Errorf("waits %s", got)
	}
	s.start(1, now, sum("v1"))
	s.finish(1, now, pushed)
	s.observe(1, sum("v2"))
	s.start(1, now.Add(time.Second), sum("v2"))
	s.finish(1, now.Add(time.Second), failed)
	if w := s.next(now.Add(time.Second)).Sub(now.Add(time.Second)); w != time.Second {
		t.Errorf("after a success the first wait is %v, want 1s", w)
	}
}

// TestSchedule429: a 429 on one round stops every round for 60 s.
func TestSchedule429(t *testing.T) {
	s := prod()
	s.setRounds(map[int]string{1: "AbCd1234", 2: "EfGh5678"})
	s.observe(1, sum("a"))
	s.observe(2, sum("b"))
	s.start(1, at(0), sum("a"))
	s.finish(1, at(100*time.Millisecond), rateLimited)
	if d := s.due(at(time.Second)); d != nil {
		t.Errorf("due %v during the pause (round 2 too must wait)", d)
	}
	if d := s.due(at(60*time.Second + 99*time.Millisecond)); d != nil {
		t.Errorf("due %v just before the pause ends", d)
	}
	if n := s.next(at(time.Second)); !n.Equal(at(60*time.Second + 100*time.Millisecond)) {
		t.Errorf("next %v", n.Sub(t0))
	}
	if d := s.due(at(60*time.Second + 100*time.Millisecond)); fmt.Sprint(d) != "[1 2]" {
		t.Errorf("due %v after the pause, want [1 2]", d)
	}
}

// TestScheduleRoundsChange: a reload that maps a round to another id
// pushes it afresh; a round no longer mapped is dropped, and its push in
// flight finishes unheeded.
func TestScheduleRoundsChange(t *testing.T) {
	s := prod()
	s.setRounds(map[int]string{1: "AbCd1234"})
	s.observe(1, sum("a"))
	s.start(1, at(0), sum("a"))
	s.finish(1, at(0), pushed)
	s.setRounds(map[int]string{1: "Zzzz9999", 2: "EfGh5678"})
	s.observe(1, sum("a"))
	s.observe(2, sum("b"))
	if d := s.due(at(0)); fmt.Sprint(d) != "[1 2]" {
		t.Errorf("due %v after the new mapping, want [1 2]", d)
	}
	s.start(2, at(0), sum("b"))
	s.setRounds(map[int]string{1: "Zzzz9999"})
	s.finish(2, at(time.Second), pushed) // round 2 is gone: no panic, nothing due
	if d := s.due(at(2 * time.Second)); fmt.Sprint(d) != "[1]" {
		t.Errorf("due %v", d)
	}
}
