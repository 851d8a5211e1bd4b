package hall

import (
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/announce"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// logOf is the log a board keeps of ucis played from the start (no
// captures): its placement at the start tag, then for each move the lift,
// the placement and the mover's press; it returns the log and the
// placement at its end.
func logOf(t *testing.T, ucis ...string) (game.BoardLog, rules.Placement) {
	t.Helper()
	pos := rules.Position(chess.StartPosition(chess.Standard))
	l := game.BoardLog{Entries: []game.LogEntry{game.LogBoard{Placement: pos.Placement()}}}
	clock := [2]time.Duration{90 * time.Minute, 90 * time.Minute}
	for i, u := range ucis {
		m := mustMove(t, pos, u)
		pc := pos.At(m.From)
		clock[i%2] -= 5 * time.Second
		d := game.LeftDisplay
		if i%2 == 1 {
			d = game.RightDisplay
		}
		l.Entries = append(l.Entries, game.LogChange{Square: m.From, Piece: rules.NoPiece}, game.LogChange{Square: m.To, Piece: pc},
			game.LogPress{Display: d, Time: clock[i%2]})
		var err error
		if pos, err = pos.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return l, pos.Placement()
}

// skippedAlerts returns the moves_missing alerts among out.
func skippedAlerts(out []game.Payload) []game.Alert {
	var al []game.Alert
	for _, p := range out {
		if a, ok := p.(game.Alert); ok && a.Kind == game.KindMovesMissing {
			al = append(al, a)
		}
	}
	return al
}

// TestRecoverSkippedGamesTellTheArbiter: the moves of a game
// relayed to a blind player, of a team-drop game, and of a game with no
// move recorded are not rebuilt from the board's log (recover.go says
// why). Before, nothing was said: the record silently lacked what was
// played while the board was not heard. Now, when the board comes back
// showing another position than the record, the arbiter gets one
// moves_missing warn saying why the moves were not rebuilt (for a game
// with no move, the moves the log holds, in SAN); when it shows the
// record's position, nothing. The record is never changed.
func TestRecoverSkippedGamesTellTheArbiter(t *testing.T) {
	at := time.Date(2026, 2, 8, 10, 0, 0, 0, time.UTC)
	played, after := logOf(t, "e2e4", "e7e5", "g1f3", "b8c6")
	idle, start := logOf(t)
	plain := func(t *testing.T) *session.Session {
		rs, err := ruleset.Lookup(ruleset.FIDE2018Standard)
		if err != nil {
			t.Fatal(err)
		}
		s, err := session.NewSession(session.SessionOptions{Info: gamerecord.Info{Game: game.ID{Event: "open2026", Round: 2, Board: 3}, Ruleset: rs.Name},
			RuleSet: rs, Tracker: session.DefaultTrackerOptions()}, nil, at)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for _, c := range []struct {
		name    string
		session func(t *testing.T) *session.Session
		says    []string
	}{
		{"no move yet", plain, []string{"holds 4 move(s)", "(e4 e5 Nf3 Nc6)", "no move recorded", "previous round"}},
		{"relayed", relayedSession, []string{"relayed to a blind player", "after ply 0"}},
		{"team-drop", func(t *testing.T) *session.Session { return newTeamHarness(t, nil, nil).s[0] }, []string{"team-drop", "partner board"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := c.session(t)
			al := skippedAlerts(s.Recover(at, played, after).Out)
			if len(al) != 1 || al[0].Severity != game.Warn || al[0].Ply != 0 {
				t.Fatalf("alerts %+v, want one moves_missing warn at ply 0", al)
			}
			for _, w := range c.says {
				if !strings.Contains(al[0].Message, w) {
					t.Errorf("alert %q does not say %q", al[0].Message, w)
				}
			}
			if n := len(s.Record().Moves); n != 0 {
				t.Errorf("the record got %d moves", n)
			}
			if al := skippedAlerts(s.Recover(at, idle, start).Out); len(al) != 0 {
				t.Errorf("the board shows the record's position, yet: %+v", al)
			}
		})
	}
}

// relayedSession is a new game relayed to a blind player (Black).
func relayedSession(t *testing.T) *session.Session {
	rs, err := ruleset.Lookup(ruleset.FIDE2018Standard)
	if err != nil {
		t.Fatal(err)
	}
	o := session.SessionOptions{Info: gamerecord.Info{Game: game.ID{Event: "open2026", Round: 1, Board: 7}, Ruleset: rs.Name},
		RuleSet: rs, Tracker: session.DefaultTrackerOptions(), Blind: session.DefaultBlind(rules.Black, announce.English)}
	s, err := session.NewSession(o, nil, time.Date(2026, 2, 8, 9, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	return s
}
