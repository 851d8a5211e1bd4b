package broadcast

import (
	"errors"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

func TestValidToken(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"open2026", true}, {"a_b-c9", true}, {"", false}, {"Open", false},
		{"a.b", false}, {"a*", false}, {"a>", false}, {"a b", false}, {"é", false},
	} {
		t.Run(tc.in, func(t *testing.T) {
			if got := ValidToken(tc.in); got != tc.want {
				t.Errorf("ValidToken(%q) = %v, want %v", tc.in, got, tc.want)
			}
		})
	}
}

func TestSubjects(t *testing.T) {
	s, err := NewSubjects("dgt")
	if err != nil {
		t.Fatal(err)
	}
	g := game.ID{Event: "open2026", Round: 3, Board: 7}
	status, err := s.boardStatus("b7")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, got, want string }{
		{"move", s.move(g), "dgt.game.open2026.3.7.move"},
		{"correction", s.correction(g), "dgt.game.open2026.3.7.correction"},
		{"clock", s.clock(g), "dgt.game.open2026.3.7.clock"},
		{"end", s.end(g), "dgt.game.open2026.3.7.end"},
		{"public move", s.publicMove(g), "dgt.public.open2026.3.7.move"},
		{"public correction", s.publicCorrection(g), "dgt.public.open2026.3.7.correction"},
		{"public clock", s.publicClock(g), "dgt.public.open2026.3.7.clock"},
		{"public end", s.publicEnd(g), "dgt.public.open2026.3.7.end"},
		{"public state", s.publicState(g), "dgt.public.open2026.3.7.state"},
		{"alert", s.alert(g), "dgt.arbiter.open2026.3.7.alert"},
		{"cmd", s.command(g), "dgt.arbiter.open2026.3.7.cmd"},
		{"announce", s.announce(g), "dgt.relay.open2026.3.7.announce"},
		{"status", status, "dgt.board.b7.status"},
		{"pgn", s.roundPGNSubject("open2026", 3), "dgt.api.pgn.open2026.3"},
		{"public pgn", s.publicRoundPGNSubject("open2026", 3), "dgt.api.pgn.public.open2026.3"},
		{"games stream", s.gamesStream(), "DGT_GAMES"},
		{"public stream", s.publicStream(), "DGT_PUBLIC"},
		{"alerts stream", s.alertsStream(), "DGT_ALERTS"},
		{"alert feed", s.alertFeed(), "dgt.arbiter.*.*.*.alert"},
		{"bucket", s.bucket(), "dgt_games"},
		{"kv key", s.kvKey(g), "open2026.3.7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Errorf("got %q, want %q", tc.got, tc.want)
			}
		})
	}
	if _, err := NewSubjects("d.g"); !errors.Is(err, ErrBadToken) {
		t.Errorf("prefix with a dot accepted: %v", err)
	}
	if _, err := s.boardStatus("B 1"); !errors.Is(err, ErrBadToken) {
		t.Errorf("bad board id accepted: %v", err)
	}
}

func TestEnvelopeIDs(t *testing.T) {
	s := Subjects{Prefix: "dgt"}
	mk := func(e envelope, err error) envelope {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	a := mk(s.moveEnvelope(move(5, 0)))
	b := mk(s.moveEnvelope(move(5, 0)))
	c := mk(s.moveEnvelope(move(5, 1)))
	if a.MsgID != "open2026.1.1.move.5.0" || a.MsgID != b.MsgID {
		t.Errorf("same fact, ids %q %q", a.MsgID, b.MsgID)
	}
	if c.MsgID == a.MsgID {
		t.Errorf("a corrected ply kept the id %q", c.MsgID)
	}
	r1 := mk(s.resultEnvelope(game.Result{Game: testGame, Result: "1-0", Provisional: true}))
	r2 := mk(s.resultEnvelope(game.Result{Game: testGame, Result: "1-0"}))
	if r1.MsgID == r2.MsgID {
		t.Errorf("provisional and final result share id %q", r1.MsgID)
	}
	if _, err := s.moveEnvelope(game.MoveEvent{Game: game.ID{Event: "x", Round: 0, Board: 1}}); !errors.Is(err, game.ErrBadID) {
		t.Errorf("bad game accepted: %v", err)
	}
	pub, ok := s.publicCopy(a)
	if !ok || pub.Subject != "dgt.public.open2026.1.1.move" || pub.MsgID != a.MsgID || !pub.Public {
		t.Errorf("public copy %+v", pub)
	}
	st := mk(s.stateEnvelope(game.GameState{Game: testGame}))
	pst, ok := s.publicCopy(st)
	if !ok || pst.Subject != "dgt.public.open2026.1.1.state" || pst.Target != targetStream || st.Subject != "$KV.dgt_games.open2026.1.1" {
		t.Errorf("state copy %+v of %+v", pst, st)
	}
	for _, e := range []envelope{
		mk(s.alertEnvelope(game.Alert{ID: "a1", Game: testGame, Kind: "flag_fall"})),
		mk(s.announceEnvelope(game.Announcement{Game: testGame, Kind: game.AnnounceMove, Lang: "de"})),
		mk(s.statusEnvelope(game.BoardStatus{BoardID: "b1"})),
	} {
		if _, ok := s.publicCopy(e); ok {
			t.Errorf("%s envelope copied to public", e.Kind)
		}
	}
}
