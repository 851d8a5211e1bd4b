package hall

import (
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
