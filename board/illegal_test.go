package board

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestIllegalMoves: each kind of illegal move of FIDE Art 7.5
// a board can show gives exactly its event, completed by the press,
// and putting the position back is the reinstatement.
func TestIllegalMoves(t *testing.T) {
	runIncidents(t, []incident{
		{name: "knight moved like nothing (Ng1-g3), completed",
			acts: []string{"-g1", "+g3=N", "press"},
			want: []string{"game.IllegalMove"}, check: wantIllegal(rules.ReasonBadGeometry, true, "Ng1-g3")},
		{name: "illegal move made but not completed is information after the hold",
			acts: []string{"-g1", "+g3=N", "wait:3s"},
			want: []string{"game.IllegalMove"}, check: wantIllegal(rules.ReasonBadGeometry, false, "Ng1-g3")},
		{name: "illegal move taken back before the press: nothing",
			acts: []string{"-g1", "+g3=N", "wait:1s", "-g3", "+g1=N"},
			want: nil},
		{name: "completed illegal move, then the position reinstated",
			acts: []string{"-g1", "+g3=N", "press", "wait:1s", "-g3", "+g1=N"},
			want: []string{"game.IllegalMove", "game.Correction"}, check: func(t *testing.T, s *script) {
				if c := find[game.Correction](s); c.Reason != game.Reinstatement || c.Ply != 0 {
					t.Fatalf("correction %+v", c)
				}
			}},
		{name: "pinned piece moved, king left in check",
			fen:  "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1",
			acts: []string{"-e2", "+c3=N", "press"},
			want: []string{"game.IllegalMove"}, check: func(t *testing.T, s *script) {
				e := find[game.IllegalMove](s)
				if (e.Reason != rules.ReasonPinned && e.Reason != rules.ReasonLeavesKingInCheck) || !e.Completed || e.Text != "Ne2-c3" {
					t.Fatalf("%+v", e)
				}
			}},
		{name: "king moved into check",
			fen:  "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1",
			acts: []string{"-e1", "+f2=K", "press"},
			want: []string{"game.IllegalMove"}, check: wantIllegal(rules.ReasonKingIntoCheck, true, "Ke1-f2")},
		{name: "castling through check",
			fen:  "4k3/8/8/8/2b5/8/8/4K2R w K - 0 1",
			acts: []string{"-e1", "+g1=K", "-h1", "+f1=R", "press"},
			want: []string{"game.IllegalMove"}, check: wantIllegal(rules.ReasonCastleThroughCheck, true, "O-O")},
		{name: "castling after the king moved",
			fen:  "4k3/8/8/8/8/8/8/4K2R w - - 0 1",
			acts: []string{"-e1", "+g1=K", "-h1", "+f1=R", "press"},
			want: []string{"game.IllegalMove"}, check: wantIllegal(rules.ReasonCastleRightsGone, true, "O-O")},
		{name: "pawn on the last rank not replaced",
			fen:  "8/4P3/8/8/8/8/k7/4K3 w - - 0 1",
			acts: []string{"-e7", "+e8=P", "press"},
			want: []string{"game.IllegalMove"}, check: wantIllegal(rules.ReasonMissingPromotion, true, "e7-e8")},
		{name: "en passant that is not available",
			fen:  "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1",
			acts: []string{"-e5", "+d6=P", "-d5", "press"},
			want: []string{"game.IllegalMove"}, check: wantIllegal(rules.ReasonNoEnPassant, true, "e5xd6")},
		{name: "opponent's piece moved (not your turn)",
			acts: []string{"-e7", "+e5=p", "wait:3s"},
			want: []string{"game.IllegalMove"}, check: wantIllegal(rules.ReasonNotYourTurn, false, "e7-e5")},
		{name: "clock pressed without a move",
			setup: []string{"e2e4"},
			acts:  []string{"press"},
			want:  []string{"game.ClockWithoutMove"}},
		{name: "clock pressed with a piece off the board",
			acts: []string{"-b1", "press", "wait:3s", "+b1=N"},
			want: []string{"game.DisplacedPieces"}}, // a piece in the hand is no unexplained board (slow hands)
		{name: "piece knocked over and put back: nothing",
			acts: []string{"-d2", "wait:1s", "+d2=P"},
			want: nil},
		{name: "two pieces swapped before the first move: a set-up mismatch until put right",
			acts: []string{"-b1", "-g1", "+b1=N", "+g1=N", "-c1", "-f1", "+f1=B", "+c1=B", "-d1", "-e1", "+d1=K", "+e1=Q", "wait:3s", "-d1", "-e1", "+d1=Q", "+e1=K"},
			want: []string{"game.SetupMismatch", "game.Explained"}},
		{name: "two pieces swapped during the game: unexplained until put right",
			setup: []string{"g1f3", "g8f6"},
			acts:  []string{"-d1", "-e1", "+d1=K", "+e1=Q", "wait:3s", "-d1", "-e1", "+d1=Q", "+e1=K"},
			want:  []string{"game.Unexplained", "game.Explained"}},
	})
}

// TestIllegalMoveStands: in rapid/blitz (A.4.2/B.4) a completed illegal
// move stands once the opponent moves on from it.
func TestIllegalMoveStands(t *testing.T) {
	s := newScript(t, TrackerOptions{IllegalStands: true})
	s.do("-g1", "+g3=N", "press", "wait")
	s.want("game.IllegalMove")
	s.reset()
	s.do("-e7", "+e5=p", "press", "wait")
	s.want("game.MoveCompleted", "game.MoveMade", "game.MoveCompleted")
	mc := find[game.MoveCompleted](s)
	if !mc.Illegal || mc.UCI != "g1g3" || mc.Ply != 1 {
		t.Fatalf("first completed %+v", mc)
	}
	if s.tr.Completed() != 2 || s.tr.Position().Turn() != rules.White {
		t.Fatalf("record at %d plies", s.tr.Completed())
	}
}

// TestArbiterCommands: AcceptIllegal, Reinstate and SetPosition.
func TestArbiterCommands(t *testing.T) {
	s := newScript(t, TrackerOptions{})
	if _, err := s.tr.AcceptIllegal(s.now); err == nil {
		t.Fatal("AcceptIllegal with nothing pending succeeded")
	}
	s.do("-g1", "+g3=N", "press", "wait")
	evs, err := s.tr.AcceptIllegal(s.now)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 1 || !evs[0].(game.MoveCompleted).Illegal || s.tr.Completed() != 1 {
		t.Fatalf("accept: %v", evs)
	}
	s.reset()
	s.move("e7e5", true)
	s.do("wait")
	s.want("game.MoveMade", "game.MoveCompleted")
	if _, err := s.tr.Reinstate(s.now, 7); err == nil {
		t.Fatal("Reinstate beyond the record succeeded")
	}
	evs, err = s.tr.Reinstate(s.now, 0)
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := evs[0].(game.Correction); !ok || c.Reason != game.ArbiterEdit || c.Ply != 0 || s.tr.Ply() != 0 {
		t.Fatalf("reinstate: %v", evs)
	}
	// The board still shows the game: held until it is put back.
	s.reset()
	s.do("wait:3s")
	s.want("game.Unexplained")
	pos := mustPos(t, chess.Standard, "4k3/8/8/8/8/8/8/4K3 w - - 0 1")
	evs, err = s.tr.SetPosition(s.now, pos)
	if err != nil || len(evs) == 0 {
		t.Fatal(err)
	}
	if c := evs[0].(game.Correction); c.Position != pos {
		t.Fatalf("set position: %v", evs)
	}
	_ = time.Second
}

// TestIllegalMoveFollowedNotInvented: after 1.e4 e5 White
// moves his king e1-e3 in one go (illegal) and presses, and Black replies
// a6. A legal line reaches the same placement (Ke2 a6 Ke3), but the board
// showed the illegal move: where the rules let it stand the record follows
// the board (e4 e5, Ke1-e3 standing, a6); where they do not, the record
// holds after e5 and the board is unexplained. No move is made up either
// way.
func TestIllegalMoveFollowedNotInvented(t *testing.T) {
	for _, stands := range []bool{true, false} {
		t.Run(fmt.Sprintf("stands %v", stands), func(t *testing.T) {
			s := newScript(t, TrackerOptions{IllegalStands: stands})
			s.move("e2e4", true)
			s.move("e7e5", true)
			s.do("wait")
			s.do("-e1", "+e3=K", "press", "wait")
			s.do("-a7", "+a6=p", "press", "wait:3s")
			got := ucis(s.evs)
			want := "e2e4 e7e5"
			if stands {
				want = "e2e4 e7e5 e1e3 a7a6"
			}
			if strings.Join(got, " ") != want {
				t.Fatalf("record %v, want %s\n%s", got, want, s.dump())
			}
			for _, e := range s.evs {
				if mm, ok := e.(game.MoveMade); ok && (mm.UCI == "e1e2" || mm.UCI == "e2e3") {
					t.Fatalf("made up %s\n%s", mm.UCI, s.dump())
				}
			}
			if !stands && len(relayOf[game.Unexplained](s.evs)) == 0 {
				t.Errorf("the board going on from the illegal move is not reported\n%s", s.dump())
			}
		})
	}
}
