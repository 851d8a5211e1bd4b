package hall

import (
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// The hall's tests drive a game's session through its exported methods
// only, as the hall does.

var t0 = time.Date(2026, 2, 8, 8, 0, 0, 0, time.UTC)

func sessionOptions(t *testing.T) session.SessionOptions {
	rs, err := ruleset.Lookup(ruleset.FIDE2018Standard)
	if err != nil {
		t.Fatal(err)
	}
	return session.SessionOptions{Info: gamerecord.Info{Game: game.ID{Event: "open2026", Round: 1, Board: 4}, Ruleset: rs.Name},
		RuleSet: rs, Tracker: session.DefaultTrackerOptions()}
}

// play makes ucis on the session's board as full reads, completing each.
func play(t *testing.T, s *session.Session, at time.Time, ucis ...string) (time.Time, []game.Payload) {
	t.Helper()
	var out []game.Payload
	pos := s.Tracker().Position()
	for _, u := range ucis {
		m, err := pos.ParseMove(u)
		if err != nil {
			t.Fatal(err)
		}
		if pos, err = pos.Play(m); err != nil {
			t.Fatal(err)
		}
		at = at.Add(5 * time.Second)
		out = append(out, s.Sense(at, game.FullRead{Placement: pos.Placement()}).Out...)
		out = append(out, s.Finish(at).Out...)
	}
	return at, out
}

func moveEvents(out []game.Payload) []game.MoveEvent {
	var evs []game.MoveEvent
	for _, o := range out {
		if m, ok := o.(game.MoveEvent); ok {
			evs = append(evs, m)
		}
	}
	return evs
}
