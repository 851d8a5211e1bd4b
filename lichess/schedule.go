package lichess

import (
	"crypto/sha256"
	"slices"
	"time"
)

// The timing of the contract (docs/contract.md §2, Lichess push).
const (
	// DefaultMinInterval: at most one push a second per round.
	DefaultMinInterval = time.Second
	// DefaultTimeout: a push unanswered for 10 s is abandoned.
	DefaultTimeout = 10 * time.Second
	// DefaultFirstBackoff and DefaultMaxBackoff bound the wait before a
	// failed push is tried again (doubling from the first).
	DefaultFirstBackoff = time.Second
	DefaultMaxBackoff   = 30 * time.Second
	// DefaultPause: after a 429 (too many requests) no round is pushed for
	// a minute, as Lichess asks of API clients.
	DefaultPause = time.Minute
)

// outcome is how a push ended.
type outcome int

const (
	pushed      outcome = iota // 2xx: Lichess has the games
	rateLimited                // 429: pause every round
	failed                     // no answer in time, 5xx, 4xx, network: back off
)

// schedule is the pure core of the pusher: it decides when each round is
// pushed. No goroutines, no clock: time is passed in.
type schedule struct {
	minInterval, firstBackoff, maxBackoff, pause time.Duration

	pausedUntil time.Time
	rounds      map[int]*roundState
}

// roundState is one round's push state.
type roundState struct {
	id       string   // Lichess broadcast round id
	latest   [32]byte // digest of the newest public PGN seen
	has      bool     // latest is set (the round has games)
	pushed   [32]byte // digest of the last PGN Lichess took
	done     bool     // pushed is set
	sending  [32]byte // digest of the push in flight
	inFlight bool
	started  time.Time // start of the last push
	retryAt  time.Time // after a failure: not before
	backoff  time.Duration
}

func newSchedule(minInterval, firstBackoff, maxBackoff, pause time.Duration) *schedule {
	return &schedule{minInterval: minInterval, firstBackoff: firstBackoff, maxBackoff: maxBackoff, pause: pause, rounds: map[int]*roundState{}}
}

// setRounds replaces the round → id mapping. A round whose id changed is
// pushed afresh; a round no longer listed is dropped (a push in flight for
// it finishes unheeded).
func (s *schedule) setRounds(ids map[int]string) {
	for r, st := range s.rounds {
		if ids[r] != st.id {
			delete(s.rounds, r)
		}
	}
	for r, id := range ids {
		if _, ok := s.rounds[r]; !ok {
			s.rounds[r] = &roundState{id: id}
		}
	}
}

// roundList returns the rounds, in order.
func (s *schedule) roundList() []int {
	out := make([]int, 0, len(s.rounds))
	for r := range s.rounds {
		out = append(out, r)
	}
	slices.Sort(out)
	return out
}

// observe records the round's current public PGN (its digest).
func (s *schedule) observe(round int, sum [32]byte) {
	if st, ok := s.rounds[round]; ok {
		st.latest, st.has = sum, true
	}
}

// due returns the rounds to push at now, in order: their PGN differs from
// what Lichess has, no push of theirs is in flight, their last push
// started at least minInterval ago, their back-off is over, and no 429
// pause holds.
func (s *schedule) due(now time.Time) []int {
	if now.Before(s.pausedUntil) {
		return nil
	}
	var out []int
	for _, r := range s.roundList() {
		st := s.rounds[r]
		if !st.has || st.inFlight || (st.done && st.pushed == st.latest) {
			continue
		}
		if !st.started.IsZero() && now.Sub(st.started) < s.minInterval {
			continue
		}
		if now.Before(st.retryAt) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// start marks round's push of the PGN with digest sum as in flight.
func (s *schedule) start(round int, now time.Time, sum [32]byte) {
	st := s.rounds[round]
	st.inFlight, st.sending, st.started = true, sum, now
}

// finish records how round's push ended at now.
func (s *schedule) finish(round int, now time.Time, o outcome) {
	st, ok := s.rounds[round]
	if !ok || !st.inFlight {
		return
	}
	st.inFlight = false
	switch o {
	case pushed:
		st.pushed, st.done = st.sending, true
		st.backoff, st.retryAt = 0, time.Time{}
	case rateLimited:
		s.pausedUntil = now.Add(s.pause)
		st.retryAt = s.pausedUntil
	case failed:
		st.backoff = min(max(2*st.backoff, s.firstBackoff), s.maxBackoff)
		st.retryAt = now.Add(st.backoff)
	}
}

// next returns when due may next return a round that it does not at now
// (zero when nothing is waiting on time: every round is up to date, in
// flight or without games).
func (s *schedule) next(now time.Time) time.Time {
	var at time.Time
	earliest := func(t time.Time) {
		if at.IsZero() || t.Before(at) {
			at = t
		}
	}
	for _, st := range s.rounds {
		if !st.has || st.inFlight || (st.done && st.pushed == st.latest) {
			continue
		}
		t := now
		if !st.started.IsZero() {
			t = later(t, st.started.Add(s.minInterval))
		}
		t = later(t, st.retryAt)
		t = later(t, s.pausedUntil)
		earliest(t)
	}
	return at
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// digest is the digest of a PGN text.
func digest(pgn string) [32]byte { return sha256.Sum256([]byte(pgn)) }
