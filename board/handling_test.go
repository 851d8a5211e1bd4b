package board

import (
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestHandling: the scan's disorder and the ways players handle pieces
// give exactly the move made, and nothing else.
func TestHandling(t *testing.T) {
	moved := []string{"game.MoveMade", "game.MoveCompleted"}
	san := func(want string) func(*testing.T, *script) {
		return func(t *testing.T, s *script) {
			t.Helper()
			if mc := find[game.MoveCompleted](s); mc.SAN != want {
				t.Fatalf("completed %s, want %s", mc.SAN, want)
			}
		}
	}
	runIncidents(t, []incident{
		{name: "destination reported before origin",
			acts: []string{"+e4=P", "-e2", "press"}, want: moved, check: san("e4")},
		{name: "slide through squares within a scan",
			setup: []string{"d2d4", "d7d5"},
			acts:  []string{"-c1", "+d2=B", "-d2", "+e3=B", "-e3", "+f4=B", "press"}, want: moved, check: san("Bf4")},
		{name: "capture, victim's removal never reported",
			setup: []string{"e2e4", "d7d5"},
			acts:  []string{"-e4", "+d5=P", "press"}, want: moved, check: san("exd5")},
		{name: "capture, victim removed after the capturer landed",
			setup: []string{"e2e4", "d7d5", "b1c3", "d5e4"},
			acts:  []string{"-c3", "+e4=N", "press"}, want: moved, check: san("Nxe4")},
		{name: "en passant, victim first",
			setup: []string{"e2e4", "a7a6", "e4e5", "d7d5"},
			acts:  []string{"-d5", "-e5", "+d6=P", "press"}, want: moved, check: san("exd6")},
		{name: "en passant, victim last",
			setup: []string{"e2e4", "a7a6", "e4e5", "d7d5"},
			acts:  []string{"-e5", "+d6=P", "-d5", "press"}, want: moved, check: san("exd6")},
		{name: "castling king first",
			fen:  "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
			acts: []string{"-e1", "+c1=K", "-a1", "+d1=R", "press"}, want: moved, check: san("O-O-O")},
		{name: "promotion, pawn off first",
			fen:  "8/4P3/8/8/8/8/k7/4K3 w - - 0 1",
			acts: []string{"-e7", "+e8=Q", "press"}, want: moved, check: san("e8=Q")},
		{name: "promotion, queen on first, pawn off after",
			fen:  "8/4P3/8/8/8/8/k7/4K3 w - - 0 1",
			acts: []string{"+e8=Q", "-e7", "press"}, want: moved, check: san("e8=Q")},
		{name: "promotion, pawn to the last rank, then replaced",
			fen:  "8/4P3/8/8/8/8/k7/4K3 w - - 0 1",
			acts: []string{"-e7", "+e8=P", "-e8", "+e8=Q", "press"}, want: moved, check: san("e8=Q")},
		{name: "under-promotion to a knight, with capture",
			fen:  "3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1",
			acts: []string{"-d8", "-e7", "+d8=N", "press"}, want: moved, check: san("exd8=N")},
		{name: "fast reply before a settled read",
			acts: []string{"-e2", "+e4=P", "press", "-e7", "+e5=p", "press"},
			want: []string{"game.MoveMade", "game.MoveCompleted", "game.MoveMade", "game.MoveCompleted"}},
		{name: "takeback of a completed move",
			setup: []string{"e2e4"},
			acts:  []string{"-e4", "+e2=P"},
			want:  []string{"game.Correction"}, check: func(t *testing.T, s *script) {
				if c := find[game.Correction](s); c.Reason != game.Takeback || c.Ply != 0 {
					t.Fatalf("%+v", c)
				}
			}},
		{name: "move changed before the press",
			acts: []string{"-e2", "+e4=P", "wait:1s", "-e4", "+e2=P", "-d2", "+d4=P", "press"},
			want: []string{"game.MoveMade", "game.MoveRetracted", "game.TouchEvidence", "game.MoveMade", "game.MoveCompleted"}, check: func(t *testing.T, s *script) {
				san("d4")(t, s)
				wantTouch("TM-1", game.Likely)(t, s) // the pawn e2 was touched first and could move
			}},
		{name: "drop from the pocket (crazyhouse)",
			variant: chess.Crazyhouse, fen: "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1",
			acts: []string{"+f3=N", "press"}, want: moved, check: san("N@f3")},
		{name: "drop after a fast reply (crazyhouse)",
			variant: chess.Crazyhouse, fen: "4k3/8/8/8/8/8/8/4K3[Nn] w - - 0 1",
			acts: []string{"+f3=N", "press", "+c6=n", "press"},
			want: []string{"game.MoveMade", "game.MoveCompleted", "game.MoveMade", "game.MoveCompleted"}},
		{name: "Chess960 castling by transposition (K f1, R g1)",
			variant: chess.Chess960, fen: "k7/8/8/8/8/8/8/5KR1 w G - 0 1",
			acts: []string{"-f1", "-g1", "+g1=K", "+f1=R", "press"}, want: moved, check: san("O-O")},
		{name: "Chess960 castling with the king alone (K e1, R f1)",
			variant: chess.Chess960, fen: "4k3/8/8/8/8/8/8/4KR2 w F - 0 1",
			acts: []string{"-e1", "+g1=K", "press"}, want: moved, check: san("O-O")},
		{name: "Chess960 castling with the rook alone (K g1, R h1)",
			variant: chess.Chess960, fen: "4k3/8/8/8/8/8/8/6KR w H - 0 1",
			acts: []string{"-h1", "+f1=R", "press"}, want: moved, check: san("O-O")},
		{name: "Chess960 double move: king step first is provisional",
			variant: chess.Chess960, fen: "4k3/8/8/8/8/8/8/5K1R w H - 0 1",
			acts: []string{"-f1", "+g1=K", "wait:1s", "-h1", "+f1=R", "press"},
			want: []string{"game.MoveMade", "game.MoveRetracted", "game.MoveMade", "game.MoveCompleted"}, check: san("O-O")},
		{name: "Chess960 king step pressed without the rook is a king move",
			variant: chess.Chess960, fen: "4k3/8/8/8/8/8/8/5K1R w H - 0 1",
			acts: []string{"-f1", "+g1=K", "press"}, want: moved, check: san("Kg1")},
	})
}

// TestSetupOrientationGesture: a board turned round, a new game set up, a
// result signalled with the kings or a magic piece.
func TestSetupOrientationGesture(t *testing.T) {
	std := chess.StartPosition(chess.Standard)
	opts := TrackerOptions{AutoOrientation: true, KingsCentre: true, Setup: ChessSetup(chess.Standard)}

	t.Run("rotated start", func(t *testing.T) {
		s := newScript(t, opts)
		s.add(s.tr.Dump(s.now, rotate(std.Placement())))
		s.want("game.OrientationChanged")
		if !s.tr.Rotated() {
			t.Fatal("not rotated")
		}
		// e2-e4 as the rotated board reports it: e2 is d7 in its frame.
		s.do("-d7", "+d5=P", "press", "wait")
		s.want("game.OrientationChanged", "game.MoveMade", "game.MoveCompleted")
		if got := ucis(s.evs); strings.Join(got, " ") != "e2e4" {
			t.Fatalf("%v", got)
		}
	})
	t.Run("board turned round in the middle of a game", func(t *testing.T) {
		s := newScript(t, opts)
		s.move("e2e4", true)
		s.move("e7e5", true)
		s.do("wait")
		s.reset()
		s.add(s.tr.Dump(s.now, rotate(s.tr.Position().Placement())))
		s.want("game.OrientationChanged")
		s.reset()
		s.do("-b8", "+c6=N", "press", "wait") // g1-f3 as the rotated board reports it
		s.want("game.MoveMade", "game.MoveCompleted")
		if mc := find[game.MoveCompleted](s); mc.SAN != "Nf3" {
			t.Fatalf("%s", mc.SAN)
		}
	})
	t.Run("chess960 set up after a game", func(t *testing.T) {
		s := newScript(t, opts)
		s.move("e2e4", true)
		s.do("wait")
		s.reset()
		p960 := chess.Chess960Start(0)
		s.add(s.tr.Dump(s.now, p960.Placement()))
		s.want("game.SetupDetected")
		if e := find[game.SetupDetected](s); e.N960 != 0 || s.tr.Ply() != 0 {
			t.Fatalf("%+v", e)
		}
	})
	t.Run("standard set up again", func(t *testing.T) {
		s := newScript(t, opts)
		for _, m := range []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6", "d7c6", "e1g1", "f7f6", "d2d4", "e5d4"} {
			s.move(m, true)
		}
		s.do("wait")
		s.reset()
		s.add(s.tr.Dump(s.now, std.Placement()))
		s.want("game.SetupDetected")
		if e := find[game.SetupDetected](s); e.N960 != -1 {
			t.Fatalf("%+v", e)
		}
	})
	t.Run("set up after a short game the arbiter ended", func(t *testing.T) {
		// Under ten plies the start position is also a takeback of every
		// move; once End says the game has a result, it is the next game.
		for _, line := range [][]string{{"e2e4"}, {"e2e4", "e7e5", "g1f3", "b8c6"}} {
			s := newScript(t, opts)
			for _, m := range line {
				s.move(m, true)
			}
			s.do("wait")
			s.reset()
			s.add(s.tr.End(s.now))
			if !s.tr.Over() {
				t.Fatal("not over")
			}
			s.do("-b1", "+c3=N", "wait") // nothing on the board is a move now
			s.want()
			s.add(s.tr.Dump(s.now, std.Placement()))
			s.want("game.SetupDetected")
			if s.tr.Over() || s.tr.Ply() != 0 {
				t.Fatalf("after the set-up: over %v, ply %d", s.tr.Over(), s.tr.Ply())
			}
			s.reset()
			s.clk.Running = rules.White // the clock set for the next game
			s.add(s.tr.Clock(s.now, s.clk))
			s.move("d2d4", true)
			s.do("wait")
			s.want("game.MoveMade", "game.MoveCompleted")
		}
		// Without End the same set-up is a takeback, as the Laws read it
		// during a game.
		s := newScript(t, opts)
		s.move("e2e4", true)
		s.move("e7e5", true)
		s.do("wait")
		s.reset()
		s.add(s.tr.Dump(s.now, std.Placement()))
		if _, ok := any(find[game.Correction](s)).(game.Correction); !ok || s.tr.Ply() != 0 {
			t.Fatalf("%s", s.dump())
		}
	})
	t.Run("kings in the centre", func(t *testing.T) {
		s := newScript(t, TrackerOptions{KingsCentre: true, Start: mustPos(t, chess.Standard, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")})
		s.do("-e1", "-e8", "+e4=K", "+d5=k", "wait")
		s.want("game.ResultGesture")
		if g := find[game.ResultGesture](s); g.Result != "1-0" || g.Gesture != "kings_centre" || !s.tr.Over() {
			t.Fatalf("%+v", g)
		}
	})
	t.Run("magic piece", func(t *testing.T) {
		s := newScript(t, TrackerOptions{})
		s.add(feed(s.tr, s.now, dgt.FieldUpdate{Field: 36, Piece: dgt.MagicDraw}))
		s.want("game.ResultGesture")
		if g := find[game.ResultGesture](s); g.Result != "1/2-1/2" || g.Gesture != "magic_piece" {
			t.Fatalf("%+v", g)
		}
	})
}

// TestDumpCatchUp: moves made while the board was not heard are caught
// up from the next full read when a short legal sequence explains them.
func TestDumpCatchUp(t *testing.T) {
	s := newScript(t, TrackerOptions{})
	pos := rules.Position(chess.StartPosition(chess.Standard))
	for _, m := range []string{"e2e4", "c7c5", "g1f3", "d7d6"} {
		mv, err := pos.ParseMove(m)
		if err != nil {
			t.Fatal(err)
		}
		pos, _ = pos.Play(mv)
	}
	s.add(s.tr.Dump(s.now, pos.Placement()))
	s.do("wait")
	var made []string
	for _, e := range s.evs {
		if m, ok := e.(game.MoveMade); ok {
			made = append(made, m.UCI)
		}
	}
	// Without touches the order of White's (and Black's) moves cannot be
	// known: the moves are caught up and the arbiter hears of the
	// ambiguity.
	if len(made) != 4 || s.tr.Position().FEN() != pos.FEN() {
		t.Fatalf("caught up %v", made)
	}
	find[game.Ambiguous](s)
	// Six plies away is beyond the catch-up depth: held, reported.
	s.reset()
	for _, m := range []string{"d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "a7a6"} {
		mv, _ := pos.ParseMove(m)
		pos, _ = pos.Play(mv)
	}
	s.add(s.tr.Dump(s.now, pos.Placement()))
	s.do("wait:3s")
	s.want("game.Unexplained")
}

// TestApplyPlacementMatchesEngine: the fast placement of a move equals
// the engine's, over every legal move of a few hundred positions.
func TestApplyPlacementMatchesEngine(t *testing.T) {
	g := operaGame(t)
	starts := []rules.Position{g.Start, chess.Chess960Start(0), chess.Chess960Start(959), mustPos(t, chess.Chess960, "5k2/8/8/8/8/8/8/5KR1 w G - 0 1"),
		mustPos(t, chess.Standard, "r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1")}
	pos := g.Start
	for _, mv := range g.Moves {
		pos, _ = pos.Play(mv.Move)
		starts = append(starts, pos)
	}
	n := 0
	for _, p := range starts {
		pl := p.Placement()
		for _, m := range p.LegalMoves(nil) {
			next, err := p.Play(m)
			if err != nil {
				t.Fatal(err)
			}
			if applyPlacement(&pl, p.Turn(), m) != next.Placement() {
				t.Fatalf("%s %s: placement differs", p.FEN(), p.UCI(m))
			}
			n++
		}
	}
	if n < 500 {
		t.Fatalf("only %d moves checked", n)
	}
}

// TestBusUpdate: change records from a bus poll are square changes.
func TestBusUpdate(t *testing.T) {
	s := newScript(t, TrackerOptions{})
	e2, _ := dgt.FieldOf(s.sq("e2"), dgt.Normal)
	e4, _ := dgt.FieldOf(s.sq("e4"), dgt.Normal)
	rec := []byte{0x40 + byte(dgt.Empty), byte(e2), 0x40 + byte(dgt.WhitePawn), byte(e4)}
	s.add(feed(s.tr, s.now, dgt.BusUpdate{Address: 1025, Data: string(rec)}))
	s.do("press", "wait")
	s.want("game.MoveMade", "game.MoveCompleted")
}

// TestSetupMismatch: before the first move a set-up with the
// start position's pieces placed otherwise (knight and bishop swapped) is
// a SetupMismatch at once (not an unexplained board); put right, it is
// Explained and the game goes on.
func TestSetupMismatch(t *testing.T) {
	s := newScript(t, TrackerOptions{Setup: ChessSetup(chess.Standard)})
	s.do("-b1", "-c1", "+b1=B", "+c1=N", "wait")
	sm := relayOf[game.SetupMismatch](s.evs)
	if len(sm) != 1 || len(sm[0].Squares) != 2 || sm[0].Expected.FEN() != chess.StartPosition(chess.Standard).FEN() {
		t.Fatalf("set-up mismatch %+v\n%s", sm, s.dump())
	}
	s.do("wait:3s")
	if n := len(relayOf[game.Unexplained](s.evs)); n != 0 {
		t.Fatalf("%d Unexplained\n%s", n, s.dump())
	}
	s.reset()
	s.do("-b1", "-c1", "+b1=N", "+c1=B", "wait")
	s.want("game.Explained")
	s.reset()
	s.move("e2e4", true)
	s.do("wait")
	s.want("game.MoveMade", "game.MoveCompleted")
}
