package adjudicator

import (
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// TestXiangqiPalaceCorrection (RB 4.3): in rapid an illegal move stands
// once the opponent has moved, but an advisor it took out of the palace
// must be put back: after Black's move a crit illegal_position alert names
// the point, where the advisor came from and the article, and sets no
// result. An elephant across the river the same. In standard play an
// illegal move never stands, so nothing of the kind.
func TestXiangqiPalaceCorrection(t *testing.T) {
	for _, c := range []struct {
		fen, illegal, at, from, what string
	}{
		{"", "f0g1", "g1", "f0", "advisor stands on g1, outside its palace"},
		{"4k4/9/9/9/9/9/9/9/9/2B1K4 w - - 0 1", "c0e5", "e5", "c0", "elephant stands on e5, across the river"},
	} {
		g := newXQ(t, ruleset.XiangqiVN2004Rapid, c.fen, "900+5")
		g.illegal(c.illegal, true)
		g.stand(c.illegal)
		reply := "h9g7"
		if c.fen != "" {
			reply = "e9d9"
		}
		out := g.iccs(reply)
		al := alertsOf(out, game.KindIllegalPosition)
		if len(al) != 1 {
			t.Fatalf("%s: want one illegal_position alert after Black's move, got %s", c.illegal, describe(out))
		}
		a := al[0]
		if a.Severity != game.Crit || a.Article != "RB 4.3" || a.Side != "white" || a.Ply != 2 || a.Proposal["correct"] != c.at ||
			a.Proposal["back_to"] != c.from || a.Proposal["result"] != nil || !strings.Contains(a.Message, c.what) {
			t.Errorf("%s: %+v", c.illegal, a)
		}
		if g.a.Result() != nil {
			t.Errorf("%s: a result was set", c.illegal)
		}
	}
	// Standard play: the illegal move is restored (9.10), never stands.
	g := newXQ(t, ruleset.XiangqiVN2004, "", "5400+30")
	g.illegal("f0g1", true)
	if al := alertsOf(g.out, game.KindIllegalPosition); len(al) != 0 {
		t.Errorf("standard: %+v", al)
	}
}

// TestXiangqiAbandonedGeneral (RB 4.4): in rapid, a cannon moved off the
// file between the generals leaves them facing: the illegal-move alert
// says the general is abandoned (abandoned_general) and, when Black moves
// on without claiming, the move stands on the board but the claim still
// wins (warn, 0-1 proposed on Black's claim), never a
// result. An illegal move that does not abandon the general simply
// stands (info). In standard play the flag is not raised.
func TestXiangqiAbandonedGeneral(t *testing.T) {
	const fen = "4k4/9/9/9/9/4C4/9/9/9/4K4 w - - 0 1"
	g := newXQ(t, ruleset.XiangqiVN2004Rapid, fen, "900+5")
	out := g.illegal("e4a4", true)
	al := alertsOf(out, game.KindIllegalMove)
	if len(al) != 1 || al[0].Proposal["abandoned_general"] != true || al[0].Proposal["result"] != "0-1" || !strings.Contains(al[0].Message, "abandoning the general") {
		t.Fatalf("the illegal move: %s", describe(out))
	}
	g.stand("e4a4")
	out = g.iccs("e9d9")
	st := alertsOf(out, game.KindIllegalMove)
	if len(st) != 1 || st[0].Severity != game.Warn || st[0].Article != "RB 4.4" || st[0].Proposal["stands"] != true ||
		st[0].Proposal["result"] != "0-1" || st[0].Proposal["on_claim_by"] != "black" || st[0].Proposal["alert"] != al[0].ID {
		t.Errorf("the window closed: %s", describe(out))
	}
	if g.a.Result() != nil {
		t.Errorf("a result was set")
	}

	// A chariot moved like a horse does not abandon the general: it stands.
	g = newXQ(t, ruleset.XiangqiVN2004Rapid, "", "900+5")
	out = g.illegal("a0b1", true)
	if al := alertsOf(out, game.KindIllegalMove); len(al) != 1 || al[0].Proposal["abandoned_general"] != nil {
		t.Fatalf("a0b1: %s", describe(out))
	}
	g.stand("a0b1")
	st = alertsOf(g.iccs("h9g7"), game.KindIllegalMove)
	if len(st) != 1 || st[0].Severity != game.Info || st[0].Proposal["stands"] != true || st[0].Proposal["result"] != nil {
		t.Errorf("a0b1 stands: %+v", st)
	}

	// Standard play: no such flag (the position is restored, 9.10).
	g = newXQ(t, ruleset.XiangqiVN2004, fen, "5400+30")
	if al := alertsOf(g.illegal("e4a4", true), game.KindIllegalMove); len(al) != 1 || al[0].Proposal["abandoned_general"] != nil {
		t.Errorf("standard: %+v", al)
	}
}

// TestXiangqiTouchArticles: the board tracker's touch findings (named
// after the FIDE cases) cite the xiangqi law's case of Art. 9, with 9.11,
// as info (ruled only when a player asks); chess keeps its articles.
func TestXiangqiTouchArticles(t *testing.T) {
	for _, c := range []struct{ rule, want string }{
		{"TM-1", "9.1, 9.11"}, {"TM-2", "9.2, 9.11"}, {"TM-3", "9.3, 9.4, 9.5, 9.11"}, {"TM-8", "9.5(b), 9.11"}, {"TM-9", "9.5(a), 9.11"},
		{"TM-11", "9.1–9.5, 9.11"},
	} {
		g := newXQ(t, ruleset.XiangqiVN2004, "", "")
		al := alertsOf(g.handle(game.TouchEvidence{Stamp: game.Stamp{At: g.at}, Ply: 1, Side: rules.White, Rule: c.rule, Article: "4.3.1", Certainty: game.Likely, Message: "m"}), game.KindTouchMove)
		if len(al) != 1 || al[0].Article != c.want || al[0].Severity != game.Info {
			t.Errorf("%s: %+v, want article %q", c.rule, al, c.want)
		}
	}
}
