package adjudicator

import (
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// TestXiangqiMoveControl (Art. 10.1.2): with move controls of 5 moves in
// the first 10 minutes and 8 in the first 20, a Red who thinks 3 minutes a
// move reaches 10 minutes with 3 moves: his loss is proposed once (crit,
// the counts, no result); the second control is judged on its own later.
// Black, who moves fast, never. With no move controls (the default),
// nothing; in rapid play the alert is only logged for a claim.
func TestXiangqiMoveControl(t *testing.T) {
	run := func(rsName string, controls []ruleset.MoveControl) []game.Alert {
		g := newXQ(t, rsName, "", "5400")
		rs := g.a.rs
		rs.Xiangqi.MoveControls = controls
		g.a.rs = rs
		var out []game.Verdict
		moves := strings.Fields("h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2 a9b9 a0b0 g6g5 c3c4 b7a7 h0h4 c6c5")
		for i, m := range moves {
			g.think = 20 * time.Second
			if i%2 == 0 {
				g.think = 3 * time.Minute
			}
			out = append(out, g.iccs(m)...)
		}
		if g.a.Result() != nil {
			t.Errorf("%s: a result was set", rsName)
		}
		return alertsOf(out, game.KindMoveControl)
	}
	al := run(ruleset.XiangqiVN2004, []ruleset.MoveControl{{Minutes: 10, Moves: 5}, {Minutes: 20, Moves: 8}})
	if len(al) != 2 {
		t.Fatalf("want two move-control alerts (one per control), got %+v", al)
	}
	a := al[0]
	if a.Side != "white" || a.Severity != game.Crit || a.Article != "10.1.2, 7.1(d)" || a.Proposal["result"] != "0-1" ||
		a.Proposal["moves"] != 3 || a.Proposal["required"] != 5 || a.Proposal["minutes"] != 10 || !strings.Contains(a.Message, "3 of the 5 moves") {
		t.Errorf("first control: %+v", a)
	}
	if b := al[1]; b.Side != "white" || b.Proposal["required"] != 8 || b.Proposal["minutes"] != 20 || b.Ply <= a.Ply {
		t.Errorf("second control: %+v", b)
	}
	if al := run(ruleset.XiangqiVN2004, nil); len(al) != 0 {
		t.Errorf("no move controls: %+v", al)
	}
	if al := run(ruleset.XiangqiVN2004Rapid, []ruleset.MoveControl{{Minutes: 10, Moves: 5}}); len(al) != 1 || al[0].Severity != game.Info {
		t.Errorf("rapid: %+v", al)
	}
	// Enough moves in time: none.
	if al := run(ruleset.XiangqiVN2004, []ruleset.MoveControl{{Minutes: 10, Moves: 3}}); len(al) != 0 {
		t.Errorf("3 moves in 10 minutes made: %+v", al)
	}
}

// TestXiangqiMateThenFlag (Art. 10.2.4): Red places a mate (b0b9) with 10
// seconds left and never presses; his flag falls. The mate is completed
// at once (checkmate, provisional 1-0), but by the law's text the mater
// loses on time: a crit flag_fall citing 10.2.4 proposes 0-1 (the
// daemon never decides: the provisional result is the arbiter's to
// change). With mate_before_press_wins the mate stands (info, no
// proposal). A flag of the mated side after the mate has no effect.
func TestXiangqiMateThenFlag(t *testing.T) {
	const fen = "4k4/R8/9/9/9/9/9/9/9/1R3K3 w - - 0 1"
	play := func(mateWins bool, flagged rules.Color) []game.Verdict {
		g := newXQ(t, ruleset.XiangqiVN2004, fen, "600")
		rs := g.a.rs
		rs.Xiangqi.MateBeforePressWins = mateWins
		g.a.rs = rs
		if flagged == rules.Black {
			// Black thinks long: his clock runs down meanwhile.
			for i, m := range strings.Fields("f0f1 e9d9 f1f0 d9e9") {
				g.think = time.Second
				if i%2 == 1 {
					g.think = 290 * time.Second
				}
				g.iccs(m)
			}
		}
		m, err := g.pos.ParseMove("b0b9")
		if err != nil {
			t.Fatal(err)
		}
		next, _ := g.pos.Play(m)
		g.spend(g.w - 10*time.Second) // Red thinks until 10 s are left
		uci := g.pos.UCI(m)
		out := g.handle(game.MoveMade{Stamp: game.Stamp{At: g.at}, Ply: g.ply + 1, Side: rules.White, Move: m, SAN: g.pos.SAN(m), UCI: uci, Position: next})
		out = append(out, g.handle(game.MoveCompleted{Stamp: game.Stamp{At: g.at}, Ply: g.ply + 1, Side: rules.White, Move: m, SAN: g.pos.SAN(m), UCI: uci, Position: next, MadeAt: g.at})...)
		if r := g.a.Result(); r == nil || r.Result != "1-0" || r.Termination != "checkmate" {
			t.Fatalf("the mate: %s", describe(out))
		}
		if flagged == rules.White {
			g.spend(11 * time.Second) // no press: Red's clock runs out
		} else {
			g.run = rules.Black
			g.spend(g.b + time.Second)
		}
		return append(out, g.reading()...)
	}
	al := alertsOf(play(false, rules.White), game.KindFlagFall)
	if len(al) != 1 || al[0].Severity != game.Crit || !strings.Contains(al[0].Article, "10.2.4") || al[0].Proposal["result"] != "0-1" || al[0].Side != "white" {
		t.Errorf("the law's text: %+v", al)
	}
	al = alertsOf(play(true, rules.White), game.KindFlagFall)
	if len(al) != 1 || al[0].Severity != game.Info || al[0].Proposal["result"] != nil || !strings.Contains(al[0].Message, "the mate stands") {
		t.Errorf("mate_before_press_wins: %+v", al)
	}
	al = alertsOf(play(false, rules.Black), game.KindFlagFall)
	if len(al) != 1 || al[0].Severity != game.Info || al[0].Proposal["result"] != nil || strings.Contains(al[0].Article, "10.2.4") {
		t.Errorf("the mated side's flag: %+v", al)
	}
}

// TestXiangqiFinalPhaseChecks (Art. 10.1.2): after the last move control
// (here 1 move), a chariot checking on every move gives its third check in
// the first 10-move block of the final phase with a limit of 2: one warn
// alert naming the block, no result; the block's later checks no more
// alerts; without move controls there is no final phase.
func TestXiangqiFinalPhaseChecks(t *testing.T) {
	const fen = "3k3R1/9/9/9/9/9/9/9/9/5K3 b - - 0 1"
	run := func(controls []ruleset.MoveControl) []game.Alert {
		g := newXQ(t, ruleset.XiangqiVN2004, fen, "")
		rs := g.a.rs
		rs.Xiangqi.MoveControls = controls
		rs.Xiangqi.FinalPhaseMaxChecks = 2
		g.a.rs = rs
		out := g.iccs("d9d8 h9h8 d8d9 h8h9 d9d8 h9h8 d8d9 h8h9 d9d8 h9h8")
		if g.a.Result() != nil {
			t.Errorf("a result was set")
		}
		return alertsOf(out, game.KindCheckLimit)
	}
	al := run([]ruleset.MoveControl{{Minutes: 60, Moves: 1}})
	if len(al) != 1 {
		t.Fatalf("want one check_limit alert, got %+v", al)
	}
	a := al[0]
	if a.Side != "white" || a.Severity != game.Warn || a.Ply != 8 || a.Article != "10.1.2" || a.Proposal["checks"] != 3 ||
		a.Proposal["from_move"] != 2 || a.Proposal["to_move"] != 11 || a.Proposal["result"] != nil {
		t.Errorf("%+v", a)
	}
	if al := run(nil); len(al) != 0 {
		t.Errorf("no move controls: %+v", al)
	}
}

// TestXiangqiLateArrival (Art. 10.2.1(a), 7.1(e)): the clock started at
// the start time; Red's runs 15 minutes (late_default_minutes' default)
// without his first move: a warn late_arrival alert asks the arbiter
// (Red's loss proposed if he has not come), once, no result. Black moves
// within the limit after Red's first move: nothing for him. With a limit
// of 30 minutes, nothing at 15.
func TestXiangqiLateArrival(t *testing.T) {
	run := func(limit time.Duration) []game.Alert {
		g := newXQ(t, ruleset.XiangqiVN2004, "", "5400+30")
		if limit > 0 {
			rs := g.a.rs
			rs.DefaultTime = limit
			g.a.rs = rs
		}
		var out []game.Verdict
		for range 16 { // a reading a minute
			g.spend(time.Minute)
			out = append(out, g.reading()...)
		}
		out = append(out, g.iccs("h2e2 h9g7")...)
		if g.a.Result() != nil {
			t.Errorf("a result was set")
		}
		return alertsOf(out, game.KindLateArrival)
	}
	al := run(0)
	if len(al) != 1 || al[0].Side != "white" || al[0].Severity != game.Warn || al[0].Article != "10.2.1(a), 7.1(e)" ||
		al[0].Proposal["result"] != "0-1" || al[0].Proposal["limit_ms"] != int64(15*60000) || !strings.Contains(al[0].Message, "if he is at the board, nothing") {
		t.Errorf("15 minutes: %+v", al)
	}
	if al := run(30 * time.Minute); len(al) != 0 {
		t.Errorf("30-minute limit: %+v", al)
	}
}
