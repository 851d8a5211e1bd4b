package session

import (
	"fmt"
	"time"
)

// followBlind returns the relay settings of a board's next game: the
// running ones (cur), with the blind player's colour of the reloaded ones
// (next) when both have a relay. A blind player named by the pairing file
// has White in one round and Black in another; everything else of the
// relay stays as the daemon started it.
func followBlind(cur, next *Blind) *Blind {
	if cur == nil || next == nil || cur.Side == next.Side {
		return cur
	}
	b := *cur
	b.Side = next.Side
	return &b
}

// relaySide gives the relay the blind player's colour of the session's
// options, for a game without moves (a new round's, or one reconfigured
// before it started). A relay already past its first move keeps its
// colour, and the arbiter is told.
func (s *Session) relaySide(at time.Time, st *Step) {
	if s.relay == nil || s.o.Blind == nil || s.relay.r.Blind() == s.o.Blind.Side {
		return
	}
	if err := s.relay.r.SetBlind(s.o.Blind.Side); err != nil {
		st.Out = append(st.Out, s.internalAlert(at, fmt.Errorf("the blind player's colour of game %s: %w", s.rec.Info.Game, err)))
	}
}
