package hall

import (
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestTeamPartnerRecordLost: while board 1's record is lost (a white
// queen put on the board from nowhere with Black to move, for longer than tracker.lost_after:
// record_lost, crit, there), the captures made on it reach no pocket, so board 2 is
// told that its drops are judged with pockets that may lack pieces (its
// own record_lost warning, naming board 1 as "partner"); when board 1's
// record is found again, board 2 hears so (info). Board 1's alerts are
// its own, as on any board.
func TestTeamPartnerRecordLost(t *testing.T) {
	h := newTeamHarness(t, nil, nil)
	h.start()
	h.play(0, "e2e4")
	queen := rules.Piece{Color: rules.White, Kind: rules.Queen}
	h.place(0, "d5", queen) // a white queen from nowhere, Black to move: nothing explains it
	h.tick(25 * time.Second)
	lost := h.alerts(0, game.KindRecordLost)
	if len(lost) == 0 || lost[0].Severity != game.Crit {
		t.Fatalf("board 1 record_lost alerts %+v (alerts %+v)", lost, h.serious(0))
	}
	told := h.alerts(1, game.KindRecordLost)
	if len(told) != 1 || told[0].Severity != game.Warn || told[0].Proposal["partner"] != "open2026.1.1" || told[0].Game.Board != 2 ||
		told[0].ID == "" || told[0].ID == lost[0].ID {
		t.Fatalf("board 2 record_lost alerts %+v", told)
	}
	h.place(0, "d5", rules.NoPiece)
	h.tick(3 * time.Second)
	found := h.alerts(0, game.KindRecordLost)
	if found[len(found)-1].Severity != game.Info {
		t.Fatalf("board 1's record not found again: %+v", found)
	}
	told = h.alerts(1, game.KindRecordLost)
	if len(told) != 2 || told[1].Severity != game.Info || told[1].Proposal["partner"] != "open2026.1.1" {
		t.Fatalf("board 2 record_lost alerts after board 1's record was found %+v", told)
	}
	for _, a := range h.serious(1) {
		if a.Kind != game.KindRecordLost {
			t.Errorf("board 2: %s %s: %s", a.Severity, a.Kind, a.Message)
		}
	}
}

// tick lets d pass on both boards, each clock read once a second.
func (h *teamHarness) tick(d time.Duration) {
	for ; d > 0; d -= time.Second {
		h.wait(min(d, time.Second))
		for b := range 2 {
			h.take(b, h.s[b].Sense(h.at, h.face(b)))
		}
	}
}

// TestTeamDropBeforeItsCaptureIsReported: White on board 1 drops a pawn
// that Black on board 2 has just taken there (d5xe4), and Black on board 1
// takes it at once (bxc6). Board 2's press is heard before the board
// reports any of the capture (its scan reports it 0.4 s after the press), so the
// match hears of the capture only then; on board 1 the press came before the scan saw the dropped pawn,
// and the pawn was gone again 150 ms later. The board showed a black pawn
// moving b7-c6 with White to move: it was read as Black moving out of turn
// (the pocket had no pawn yet), the match refused it, and the record went
// wrong. Now the drop the hands were seen to make is searched for as if the
// pawn were there (the match judges whether the capture came in time):
// both records are exact and nobody is told of an illegal move.
func TestTeamDropBeforeItsCaptureIsReported(t *testing.T) {
	h := newTeamHarness(t, nil, nil)
	h.start()
	h.play(0, "e2e4")
	h.play(0, "d7d5")
	h.play(1, "e2e4")
	h.play(1, "d7d5")
	h.play(1, "g1f3")
	pawn := func(c rules.Color) rules.Piece { return rules.Piece{Color: c, Kind: rules.Pawn} }
	// Board 2: d5xe4, the press heard before the board reports any of it.
	h.wait(time.Second)
	h.press(1, rules.Black)
	// Board 1: P@c6 pressed before the scan saw it, taken at once.
	h.wait(50 * time.Millisecond)
	h.press(0, rules.White)
	h.wait(60 * time.Millisecond)
	h.place(0, "c6", pawn(rules.White))
	h.wait(120 * time.Millisecond)
	h.place(0, "b7", rules.NoPiece)
	h.wait(30 * time.Millisecond)
	h.place(0, "c6", rules.NoPiece)
	h.wait(60 * time.Millisecond)
	h.place(0, "c6", pawn(rules.Black))
	h.wait(40 * time.Millisecond)
	h.press(0, rules.Black)
	// Board 2's reports come at last, 0.4 s after its press.
	h.wait(60 * time.Millisecond)
	h.place(1, "e4", rules.NoPiece)
	h.place(1, "d5", rules.NoPiece)
	h.place(1, "e4", pawn(rules.Black))
	h.tick(5 * time.Second)
	var got [2][]string
	for b := range 2 {
		for _, m := range h.moves(b) {
			got[b] = append(got[b], m.UCI)
		}
	}
	if want := "e2e4 d7d5 P@c6 b7c6"; strings.Join(got[0], " ") != want {
		t.Errorf("board 1: %v, want %s", got[0], want)
	}
	if want := "e2e4 d7d5 g1f3 d5e4"; strings.Join(got[1], " ") != want {
		t.Errorf("board 2: %v, want %s", got[1], want)
	}
	for b := range 2 {
		for _, a := range h.serious(b) {
			t.Errorf("board %d: %s %s: %s", b+1, a.Severity, a.Kind, a.Message)
		}
	}
}
