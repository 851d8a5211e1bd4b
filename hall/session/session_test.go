package session

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/rules/adjudicator"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

var t0 = time.Date(2026, 2, 8, 8, 0, 0, 0, time.UTC)

func sessionOptions(t *testing.T) SessionOptions {
	rs, err := ruleset.Lookup(ruleset.FIDE2018Standard)
	if err != nil {
		t.Fatal(err)
	}
	return SessionOptions{Info: gamerecord.Info{Game: game.ID{Event: "open2026", Round: 1, Board: 4}, Ruleset: rs.Name},
		RuleSet: rs, Tracker: DefaultTrackerOptions()}
}

// play makes ucis on the session's board as full reads, completing each.
func play(t *testing.T, s *Session, at time.Time, ucis ...string) (time.Time, []game.Payload) {
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
		var st Step
		s.handle(s.tr.Dump(at, pos.Placement()), &st)
		s.handle(s.tr.Finish(at), &st)
		out = append(out, st.Out...)
	}
	return at, out
}

// TestSessionCommandReinstate: the arbiter's reinstate cuts the record,
// raises the revision and the tracker follows.
func TestSessionCommandReinstate(t *testing.T) {
	s, err := NewSession(sessionOptions(t), nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	at, _ := play(t, s, t0, "d2d4", "d7d5", "c2c4")
	ply := 1
	st, err := s.Command(adjudicator.Command{Cmd: "reinstate", Ply: &ply}, at)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Changed || len(s.Record().Moves) != 1 || s.Record().Revision != 1 || s.Tracker().Completed() != 1 {
		t.Fatalf("after reinstate: record %v rev %d tracker %d", s.Record().UCIs(), s.Record().Revision, s.Tracker().Completed())
	}
	if _, err := s.Command(adjudicator.Command{Cmd: "nonsense"}, at); !errors.Is(err, adjudicator.ErrBadCommand) {
		t.Errorf("bad command: %v", err)
	}
}

// TestSessionResultFreezesBoard: after a result the board is not followed
// (players set up for the next round) until the arbiter sets "*".
func TestSessionResultFreezesBoard(t *testing.T) {
	s, err := NewSession(sessionOptions(t), nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	at, _ := play(t, s, t0, "e2e4")
	if _, err := s.Command(adjudicator.Command{Cmd: "set_result", Result: "1-0", Termination: "resignation"}, at); err != nil {
		t.Fatal(err)
	}
	if s.Record().Status() != gamerecord.StatusEnded {
		t.Fatalf("status %s", s.Record().Status())
	}
	var st Step
	s.handle(s.tr.Dump(at.Add(time.Second), chess.StartPosition(chess.Standard).Placement()), &st)
	if len(s.Record().Moves) != 1 || s.Record().Result != "1-0" {
		t.Fatalf("a set-up after the result changed the record: %v %s", s.Record().UCIs(), s.Record().Result)
	}
	if _, err := s.Command(adjudicator.Command{Cmd: "set_result", Result: "*"}, at.Add(2*time.Second)); err != nil {
		t.Fatal(err)
	}
	if s.Record().Status() != gamerecord.StatusPlaying || s.Tracker().Completed() != 1 {
		t.Fatalf("resumed: status %s, tracker ply %d", s.Record().Status(), s.Tracker().Completed())
	}
}

// TestRecordPGN: the contract's PGN tags (§6) and clock comments.
func TestRecordPGN(t *testing.T) {
	r := gamerecord.NewRecord(gamerecord.Info{Game: game.ID{Event: "open2026", Round: 3, Board: 12}, EventName: "City Open", Site: "Hanoi",
		White: "Carlsen, Magnus", Black: "Nepomniachtchi, Ian", WhiteFideID: "1503014", BlackFideID: "4168119",
		Variant: "chess960", TimeControl: "5400+30"}, "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", t0)
	r.Moves = []gamerecord.Ply{{UCI: "g2g3", SAN: "g3", Clock: &game.ClockPair{WhiteMS: 5_000_000, BlackMS: 5_100_000}, EMTMS: 4500}}
	p := r.PGN()
	for _, want := range []string{`[Event "City Open"]`, `[Round "3.12"]`, `[WhiteFideId "1503014"]`, `[BlackFideId "4168119"]`,
		`[TimeControl "5400+30"]`, `[GameId "open2026.3.12"]`, `[Variant "Chess960"]`, `[SetUp "1"]`, `[FEN "bqnb1rkr/`,
		"9. g3 { [%clk 1:23:20] [%emt 0:00:04.5] } *"} {
		if !strings.Contains(p, want) {
			t.Errorf("PGN lacks %q:\n%s", want, p)
		}
	}
}
