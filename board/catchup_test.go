package board

import (
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// playUCI plays moves from pos, failing the test on a bad one.
func playUCI(t *testing.T, pos rules.Position, moves ...string) rules.Position {
	t.Helper()
	for _, u := range moves {
		m, err := pos.ParseMove(u)
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		if pos, err = pos.Play(m); err != nil {
			t.Fatalf("%s: %v", u, err)
		}
	}
	return pos
}

// madeUCIs returns the UCI of the MoveMade events.
func madeUCIs(evs []game.Event) []string {
	var out []string
	for _, e := range evs {
		if m, ok := e.(game.MoveMade); ok {
			out = append(out, m.UCI)
		}
	}
	return out
}

// TestDumpCatchUpPlies: 2, 3 and 4 plies made while the port was away
// (captures, a piece moving twice, a piece leaving its square and coming
// back, castling, a promotion) are caught up exactly from the full read
// after the reconnect, each made once; where the read cannot tell the
// order, the arbiter hears of it (Ambiguous).
func TestDumpCatchUpPlies(t *testing.T) {
	cases := []struct {
		name, fen string
		before    []string // played and pressed before the outage
		away      []string // played while the port was away
		ambiguous bool     // another sequence of the same length fits
	}{
		{name: "2 plies, capture and recapture", before: []string{"e2e4", "d7d5"}, away: []string{"e4d5", "d8d5"}},
		{name: "3 plies, knight moves twice and captures", before: []string{"e2e4", "e7e5"}, away: []string{"g1f3", "b8c6", "f3e5"}},
		{name: "3 plies, capture by a piece that moved", before: []string{"e2e4", "d7d5"}, away: []string{"e4d5", "g8f6", "d5d6"}},
		{name: "4 plies, queen captures and goes back",
			fen:  "r1bqkb1r/pppp1ppp/2n2n2/4p1B1/4P3/2N5/PPPP1PPP/R2QKBNR w KQkq - 0 1",
			away: []string{"g5f6", "d8f6", "c3d5", "f6d8"}},
		{name: "4 plies, castling both sides, rooks move on", fen: "r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1",
			away: []string{"e1g1", "e8c8", "f1e1", "d8e8"}},
		{name: "4 plies, castling and captures in either order", fen: "r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1",
			away: []string{"e1c1", "e8g8", "d4e5", "c6e5"}, ambiguous: true},
		{name: "3 plies, promotion with capture", fen: "1r2k3/P7/8/8/8/8/6p1/4K2R w K - 0 1",
			away: []string{"a7b8q", "e8d7", "b8b7"}},
		{name: "4 plies, transposable moves", before: []string{"e2e4", "c7c5"}, away: []string{"g1f3", "d7d6", "d2d4", "c5d4"}, ambiguous: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := mustPos(t, chess.Standard, c.fen)
			s := newScript(t, TrackerOptions{Start: start})
			for _, u := range c.before {
				s.move(u, true)
			}
			s.do("wait")
			if s.tr.Completed() != len(c.before) {
				t.Fatalf("%d completed before the outage, want %d\n%s", s.tr.Completed(), len(c.before), s.dump())
			}
			s.reset()
			want := playUCI(t, s.tr.Position(), c.away...)
			s.now = s.now.Add(800 * time.Millisecond * time.Duration(len(c.away)))
			s.add(s.tr.Dump(s.now, want.Placement()))
			s.do("wait:3s")
			if got := madeUCIs(s.evs); strings.Join(got, " ") != strings.Join(c.away, " ") && !c.ambiguous {
				t.Fatalf("caught up %v, want %v\n%s", got, c.away, s.dump())
			} else if len(got) != len(c.away) {
				t.Fatalf("caught up %v, want %d plies\n%s", got, len(c.away), s.dump())
			}
			// Another order of the same moves may differ in the move
			// counters only.
			if got := s.tr.Position(); got.FEN() != want.FEN() && (!c.ambiguous || got.Placement() != want.Placement() || got.Turn() != want.Turn()) {
				t.Fatalf("position %s, want %s", s.tr.Position().FEN(), want.FEN())
			}
			var amb *game.Ambiguous
			for _, e := range s.evs {
				switch e := e.(type) {
				case game.Ambiguous:
					amb = &e
				case game.Unexplained, game.IllegalMove:
					t.Fatalf("%T after the catch-up\n%s", e, s.dump())
				}
			}
			if (amb != nil) != c.ambiguous {
				t.Fatalf("ambiguous %v, want %v\n%s", amb != nil, c.ambiguous, s.dump())
			}
			if amb != nil && (len(amb.Other) != len(c.away) || amb.Ply != len(c.before)+1) {
				t.Fatalf("ambiguity %+v", amb)
			}
		})
	}
}

// TestDumpBeyondCatchUp: six plies made while the port was away are
// beyond the default catch-up depth: the board is held and reported
// (Unexplained, which the hall publishes as setup_mismatch), nothing is
// guessed, and the game resumes once the arbiter sets the position.
func TestDumpBeyondCatchUp(t *testing.T) {
	s := newScript(t, TrackerOptions{})
	for _, u := range []string{"e2e4", "c7c5"} {
		s.move(u, true)
	}
	s.do("wait")
	s.reset()
	want := playUCI(t, s.tr.Position(), "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6")
	s.now = s.now.Add(5 * time.Second)
	s.add(s.tr.Dump(s.now, want.Placement()))
	s.do("wait:3s")
	s.want("game.Unexplained")
	if s.tr.Ply() != 2 {
		t.Fatalf("ply %d after the unexplained read", s.tr.Ply())
	}
	s.reset()
	evs, err := s.tr.SetPosition(s.now, want)
	if err != nil {
		t.Fatal(err)
	}
	s.add(evs)
	s.want("game.Correction")
	s.reset()
	s.move("b1c3", true)
	s.do("wait")
	s.want("game.MoveMade", "game.MoveCompleted")
	if c := find[game.MoveCompleted](s); c.Ply != 1 || c.UCI != "b1c3" || c.Clock == nil {
		t.Fatalf("%+v", c)
	}
}

// TestDumpCatchUpDepthSix: with CatchUpDepth 6 the same six plies are
// caught up.
func TestDumpCatchUpDepthSix(t *testing.T) {
	s := newScript(t, TrackerOptions{CatchUpDepth: 6})
	for _, u := range []string{"e2e4", "c7c5"} {
		s.move(u, true)
	}
	s.do("wait")
	s.reset()
	away := []string{"g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6"}
	want := playUCI(t, s.tr.Position(), away...)
	s.now = s.now.Add(5 * time.Second)
	s.add(s.tr.Dump(s.now, want.Placement()))
	s.do("wait:3s")
	if got := madeUCIs(s.evs); len(got) != 6 || s.tr.Position().Placement() != want.Placement() {
		t.Fatalf("caught up %v\n%s", got, s.dump())
	}
}

// TestDumpMidMove: the port comes back while a hand is still moving (the
// full read shows the fourth ply's piece in the air); the placement that
// settles afterwards is still caught up as four plies.
func TestDumpMidMove(t *testing.T) {
	s := newScript(t, TrackerOptions{})
	for _, u := range []string{"e2e4", "e7e5"} {
		s.move(u, true)
	}
	s.do("wait")
	s.reset()
	away := []string{"g1f3", "b8c6", "f1b5", "g8f6"}
	want := playUCI(t, s.tr.Position(), away...)
	mid := want.Placement()
	mid.Sq[s.sq("f6")] = rules.NoPiece // the knight still in the hand
	s.now = s.now.Add(4 * time.Second)
	s.add(s.tr.Dump(s.now, mid))
	s.do("+f6=n", "wait:3s")
	if got := madeUCIs(s.evs); strings.Join(got, " ") != strings.Join(away, " ") || s.tr.Position().FEN() != want.FEN() {
		t.Fatalf("caught up %v\n%s", got, s.dump())
	}
	for _, e := range s.evs {
		if _, ok := e.(game.Unexplained); ok {
			t.Fatalf("reported unexplained\n%s", s.dump())
		}
	}
}

// BenchmarkDumpCatchUp measures a full read after a reconnect: four plies
// with a queen capturing and going back (the widest catch-up search), and
// six plies beyond the default depth (the search that finds nothing).
func BenchmarkDumpCatchUp(b *testing.B) {
	start := mustPos(b, chess.Standard, "r1bqkb1r/pppp1ppp/2n2n2/4p1B1/4P3/2N5/PPPP1PPP/R2QKBNR w KQkq - 0 1")
	for _, bc := range []struct {
		name  string
		start rules.Position
		away  []string
		opts  TrackerOptions
	}{
		{"4 plies", start, []string{"g5f6", "d8f6", "c3d5", "f6d8"}, TrackerOptions{}},
		{"6 plies unexplained at depth 4", chess.StartPosition(chess.Standard), []string{"e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4"}, TrackerOptions{}},
		{"6 plies at depth 6", chess.StartPosition(chess.Standard), []string{"e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4"}, TrackerOptions{CatchUpDepth: 6}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			pos := bc.start
			for _, u := range bc.away {
				m, _ := pos.ParseMove(u)
				pos, _ = pos.Play(m)
			}
			target := pos.Placement()
			o := bc.opts
			o.Start = bc.start
			for i := 0; i < b.N; i++ {
				tr, err := New(o)
				if err != nil {
					b.Fatal(err)
				}
				tr.Dump(t0, target)
			}
		})
	}
}

// TestRereadMidMove: the board re-read after its log explained everything
// up to a hand in the middle of a move (a bus line's resynchronisation: the
// record is up to date, the bishop is in the hand) is judged as a live
// read: the piece is in the hand, no move is made, and the move is read
// when the bishop lands and the lever is pressed. Judged as the catch-up
// read of a board not heard for a while (Dump), the lifted bishop was
// explained as four plies (Bg5 Ne4 Bxf6 Nxf6, an Ambiguous: moves never
// played).
func TestRereadMidMove(t *testing.T) {
	s := newScript(t, TrackerOptions{})
	for _, u := range []string{"d2d4", "d7d5", "c2c4", "e7e6", "b1c3", "g8f6"} {
		s.move(u, true)
	}
	s.do("wait")
	s.reset()
	mid := s.tr.Position().Placement()
	mid.Sq[s.sq("c1")] = rules.NoPiece // the bishop in the hand
	s.now = s.now.Add(time.Second)
	s.add(s.tr.Reread(s.now, mid))
	s.do("wait:1s")
	for _, e := range s.evs {
		switch e.(type) {
		case game.MoveMade, game.MoveCompleted, game.Ambiguous, game.Unexplained, game.DisplacedPieces:
			t.Fatalf("re-read with the bishop in the hand: %T\n%s", e, s.dump())
		}
	}
	s.reset()
	s.do("+g5=B", "press", "wait")
	if got := madeUCIs(s.evs); strings.Join(got, " ") != "c1g5" || s.tr.Completed() != 7 {
		t.Fatalf("then the bishop lands and the lever is pressed: made %v, %d plies completed\n%s", got, s.tr.Completed(), s.dump())
	}
}
