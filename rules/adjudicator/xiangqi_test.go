package adjudicator

import (
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/clock"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/pgn"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi/games"
)

// newXQ starts a xiangqi game of rule set rsName from fen ("" the start)
// with time control tc ("" no clock).
func newXQ(t *testing.T, rsName, fen, tc string) *match {
	t.Helper()
	rs, err := ruleset.Lookup(rsName)
	if err != nil {
		t.Fatal(err)
	}
	if fen == "" {
		fen = xiangqi.StartFEN
	}
	pos, err := xiangqi.NewPositionOptions(fen, xiangqi.Options{Notation: xiangqi.DialectWXF})
	if err != nil {
		t.Fatal(err)
	}
	g := &match{t: t, pos: pos, at: t0, think: 10 * 1e9, run: rules.NoColor}
	var opts Options
	opts.Start = pos
	if tc != "" {
		g.tc = clock.MustParse(tc)
		opts.TimeControl = g.tc
		g.w, g.b = g.tc.Base(), g.tc.Base()
	}
	g.a = New(GameInfo{ID: game.ID{Event: "open2026", Round: 1, Board: 1}}, rs, opts)
	if tc != "" {
		g.run = pos.Turn()
		g.reading()
	}
	return g
}

// iccs plays ICCS moves legally.
func (g *match) iccs(moves string) []game.Verdict {
	g.t.Helper()
	var out []game.Verdict
	for _, u := range strings.Fields(moves) {
		m, err := g.pos.ParseMove(u)
		if err != nil {
			g.t.Fatalf("ply %d: %s: %v (%s)", g.ply+1, u, err, g.pos.FEN())
		}
		next, err := g.pos.Play(m)
		if err != nil {
			g.t.Fatalf("ply %d: %s: %v", g.ply+1, u, err)
		}
		out = append(out, g.complete(m, next, false)...)
	}
	return out
}

// alertsOf returns the alerts of kind in vs.
func alertsOf(vs []game.Verdict, kind string) []game.Alert {
	var out []game.Alert
	for _, v := range vs {
		if a, ok := v.(game.Alert); ok && a.Kind == kind {
			out = append(out, a)
		}
	}
	return out
}

// TestXiangqiPerpetualCheck: Art. 24.2 played on: at the third occurrence
// the checker (Red) must change (warn, no result); when Red makes the
// position occur again his loss is proposed (crit, 0-1). Nothing is a
// result: the daemon never decides alone.
func TestXiangqiPerpetualCheck(t *testing.T) {
	g := newXQ(t, ruleset.XiangqiVN2004, "3k3R1/9/9/9/9/9/9/9/9/5K3 b - - 0 1", "5400+30")
	cycle := "d9d8 h9h8 d8d9 h8h9"
	if al := alertsOf(g.iccs(cycle), game.KindPerpetual); len(al) != 0 {
		t.Fatalf("after one cycle: %+v", al)
	}
	out := g.iccs(cycle)
	al := alertsOf(out, game.KindPerpetual)
	if len(al) != 1 {
		t.Fatalf("after two cycles want one perpetual alert, got %+v", out)
	}
	a := al[0]
	if a.Side != "white" || a.Severity != game.Warn || a.Proposal["must_change"] != "white" || a.Proposal["result"] != nil || a.Ply != 8 {
		t.Errorf("third occurrence: %+v", a)
	}
	if !strings.Contains(a.Article, "7.1(g)") || len(a.Evidence) != 8 || a.Evidence[1].Event != "check" || a.Evidence[1].Square != "h8" || a.Evidence[1].Piece != "R" {
		t.Errorf("article or evidence: %q %+v", a.Article, a.Evidence)
	}
	if g.a.Result() != nil {
		t.Fatalf("a result was set: %+v", g.a.Result())
	}
	out = g.iccs(cycle)
	al = alertsOf(out, game.KindPerpetual)
	if len(al) != 1 || al[0].Severity != game.Crit || al[0].Proposal["result"] != "0-1" || al[0].Side != "white" {
		t.Fatalf("fourth occurrence: want the loss proposed, got %+v", al)
	}
	if g.a.Result() != nil {
		t.Fatalf("a result was set: %+v", g.a.Result())
	}
}

// TestXiangqiAllowedCycle: one check one idle move (24.9) is allowed: an
// info alert, never a decisive proposal; and no threefold or fivefold
// alert of chess.
func TestXiangqiAllowedCycle(t *testing.T) {
	g := newXQ(t, ruleset.XiangqiVN2004, "3k5/9/7R1/9/9/9/9/9/9/5K3 w - - 0 1", "")
	var out []game.Verdict
	for range 4 {
		out = append(out, g.iccs("h7h9 d9d8 h9h7 d8d9")...)
	}
	al := alertsOf(out, game.KindPerpetual)
	if len(al) != 3 {
		t.Fatalf("want alerts at the 3rd, 4th and 5th occurrence, got %d: %+v", len(al), al)
	}
	for _, a := range al {
		if a.Severity != game.Info || a.Side != "" || a.Proposal["result"] != nil || a.Proposal["verdict"] != "allowed" {
			t.Errorf("%+v", a)
		}
	}
	for _, k := range []string{game.KindThreefold, game.KindFivefold, game.KindFifty} {
		if n := len(alertsOf(out, k)); n != 0 {
			t.Errorf("%d %s alerts in xiangqi", n, k)
		}
	}
}

// TestXiangqiNoLegalMoveLoses: a side with no legal move, not in check,
// loses (7.1(b)): a provisional result for the arbiter to confirm.
func TestXiangqiNoLegalMoveLoses(t *testing.T) {
	// Black's general on d9, alone: d8 is covered by the chariot coming
	// to a8, e9 by the flying general.
	g := newXQ(t, ruleset.XiangqiVN2004, "3k5/9/R8/9/9/9/9/9/9/4K4 w - - 0 1", "")
	out := g.iccs("a7a8")
	if g.pos.InCheck() || g.pos.Status() != rules.NoLegalMoveLoss {
		t.Fatalf("test position: %s status %v", g.pos.FEN(), g.pos.Status())
	}
	al := alertsOf(out, game.KindStalemate)
	r := g.a.Result()
	if len(al) != 1 || r == nil || r.Result != "1-0" || !r.Provisional || al[0].Proposal["result"] != "1-0" || al[0].Article != "7.1(b)" {
		t.Fatalf("want Red's provisional win by 7.1(b), got %+v %+v", al, r)
	}
}

// TestXiangqiNoAttackers: the capture of the last chariot leaves neither
// side an attacking piece: the arbiter may declare the draw (20.4 b.6),
// said once.
func TestXiangqiNoAttackers(t *testing.T) {
	g := newXQ(t, ruleset.XiangqiVN2004, "3k5/4a4/9/9/9/9/9/9/4r4/3AK4 w - - 0 1", "")
	out := g.iccs("e0e1")
	al := alertsOf(out, game.KindDeadPosition)
	if len(al) != 1 || al[0].Proposal["result"] != Draw || al[0].Severity != game.Warn || g.a.Result() != nil {
		t.Fatalf("want one draw proposal and no result: %+v %+v", al, g.a.Result())
	}
	if out := g.iccs("d9d8 e1e0"); len(alertsOf(out, game.KindDeadPosition)) != 0 {
		t.Fatalf("said again: %+v", out)
	}
}

// TestXiangqiNoCaptureCount: Art. 12 in standard play: 50 move pairs
// without a capture make a claim correct (an info alert when the count
// gets there, once); a claim before is premature and gives the opponent
// 2 minutes; rapid has no such claim (RB 3).
func TestXiangqiNoCaptureCount(t *testing.T) {
	fen := "3ak4/4a4/9/9/9/9/9/9/9/R2A1K3 w - - 0 1"
	g := newXQ(t, ruleset.XiangqiVN2004, fen, "")
	// A chariot walking a long path of quiet moves, Black's advisor
	// shuffling: no capture, no check from the chariot on the a-file.
	walk := []string{"a0a1", "a1a2", "a2a3", "a3a4", "a4a5", "a5a6", "a6a7", "a7a8", "a8b8", "b8b7", "b7b6", "b6b5", "b5b4", "b4b3", "b3b2", "b2b1", "b1c1", "c1c2", "c2c3", "c3c4", "c4c5", "c5c6", "c6c7", "c7c8", "c8b8", "b8a8", "a8a7", "a7a6", "a6a5", "a5a4", "a4a3", "a3a2", "a2a1", "a1b1", "b1b2", "b2b3", "b3b4", "b4b5", "b5b6", "b6b7", "b7c7", "c7c6", "c6c5", "c5c4", "c4c3", "c3c2", "c2c1", "c1b1", "b1a1", "a1a0"}
	black := []string{"e8f7", "f7e8"}
	var out []game.Verdict
	for i, w := range walk {
		if i == 40 {
			c := g.command(Command{Cmd: "claim", Side: "black", Claim: "no_capture"})
			if len(c) != 1 || c[0].(game.Alert).Proposal["time_add_ms"] != int64(120000) || c[0].(game.Alert).Proposal["side"] != "white" {
				t.Fatalf("premature claim: %+v", c)
			}
		}
		out = append(out, g.iccs(w+" "+black[i%2])...)
	}
	al := alertsOf(out, game.KindFifty)
	if len(al) != 1 || al[0].Ply != 100 || al[0].Proposal["count"] != 50 {
		t.Fatalf("want one fifty_claimable alert at ply 100, got %+v", al)
	}
	c := g.command(Command{Cmd: "claim", Side: "white", Claim: "fifty"})
	if len(c) != 1 || c[0].(game.Alert).Proposal["result"] != Draw {
		t.Fatalf("claim at 50: %+v", c)
	}

	r := newXQ(t, ruleset.XiangqiVN2004Rapid, fen, "")
	r.iccs("a0a1 e8f7")
	if _, err := r.a.Command(Command{Cmd: "claim", Side: "white", Claim: "no_capture"}, r.at); err == nil {
		t.Fatal("rapid accepted a no-capture claim (RB 3)")
	}
}

// TestXiangqiIllegalRapid: in rapid an illegal move completed by the press
// is a technical error candidate that the opponent may claim before his
// own move and win (RB 4.2), with the TE's 2 minutes (RB 5); in standard
// play it is a technical error candidate, the position restored (9.10),
// no result.
func TestXiangqiIllegalRapid(t *testing.T) {
	for _, c := range []struct {
		rs     string
		result any
		add    any
	}{{ruleset.XiangqiVN2004Rapid, "0-1", int64(120000)}, {ruleset.XiangqiVN2004, nil, nil}} {
		g := newXQ(t, c.rs, "", "900+5")
		geo := g.pos.Geometry()
		from, _ := geo.ParseSquare("b0")
		to, _ := geo.ParseSquare("b3")
		m := rules.Move{From: from, To: to}
		err := g.pos.Check(m)
		ie, ok := err.(*rules.IllegalMoveError)
		if !ok {
			t.Fatalf("b0b3 should be illegal: %v", err)
		}
		after, _ := g.pos.PlayIllegal(m)
		g.spend(g.think)
		g.press(rules.White)
		g.reading()
		out := g.handle(game.IllegalMove{Stamp: game.Stamp{At: g.at}, Ply: 1, Side: rules.White, Attempt: m, Text: "b0b3",
			Reason: ie.Reason, Completed: true, Position: after})
		al := alertsOf(out, game.KindIllegalMove)
		if len(al) != 1 || al[0].Severity != game.Crit || al[0].Proposal["technical_error"] != "white" ||
			al[0].Proposal["result"] != c.result || al[0].Proposal["time_add_ms"] != c.add {
			t.Errorf("%s: %+v", c.rs, al)
		}
		if g.a.Result() != nil {
			t.Errorf("%s: a result was set", c.rs)
		}
	}
}

// TestXiangqiFlag: in standard play whoever runs out of time first loses
// (7.1(d)), even when the opponent could not mate; in rapid the arbiter
// acts on the claim (RB 8, 9), a draw when the claimant cannot mate.
func TestXiangqiFlag(t *testing.T) {
	for _, c := range []struct {
		rs, fen, kind, sev, art string
		result                  any
	}{
		{ruleset.XiangqiVN2004, "", game.KindFlagFall, game.Crit, "7.1(d), 10.1", "0-1"},
		{ruleset.XiangqiVN2004, "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", game.KindFlagFall, game.Crit, "7.1(d), 10.1", "0-1"},
	} {
		g := newXQ(t, c.rs, c.fen, "600")
		g.spend(601 * time.Second) // Red never moves
		out := g.reading()
		al := alertsOf(out, c.kind)
		if len(al) != 1 || al[0].Severity != c.sev || al[0].Article != c.art || al[0].Proposal["result"] != c.result || al[0].Side != "white" {
			t.Errorf("%s %s: %+v (all: %+v)", c.rs, c.fen, al, out)
		}
		if g.a.Result() != nil {
			t.Errorf("%s: a flag fall set a result", c.rs)
		}
	}
	g := newXQ(t, ruleset.XiangqiVN2004Rapid, "", "600")
	g.spend(601 * time.Second)
	al := alertsOf(g.reading(), game.KindFlagFall)
	if len(al) != 1 || al[0].Severity != game.Info || al[0].Proposal["result"] != "0-1" {
		t.Errorf("rapid: %+v", al)
	}
}

// BenchmarkXiangqiGame: the adjudicator's cost of a whole master game
// (game 12 of rules/xiangqi/games, 170 plies, a repetition in it): every
// move is judged by the Art. 22–24 classifier and the Art. 12 count, which
// replay the game from its start (so a move costs more the longer the
// game). Reported per game and per move.
func BenchmarkXiangqiGame(b *testing.B) {
	all, errs := pgn.ReadAll(strings.NewReader(games.CCPD), pgn.ReaderOptions{Variations: pgn.SkipVariations})
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	g := all[11]
	rs, _ := ruleset.Lookup(ruleset.XiangqiVN2004)
	type ply struct {
		m    rules.Move
		next rules.Position
		side rules.Color
		san  string
		uci  string
	}
	var plies []ply
	pos := g.Start
	for _, mn := range g.Moves {
		next, err := pos.Play(mn.Move)
		if err != nil {
			b.Fatal(err)
		}
		plies = append(plies, ply{mn.Move, next, pos.Turn(), pos.SAN(mn.Move), pos.UCI(mn.Move)})
		pos = next
	}
	b.ReportAllocs()
	for b.Loop() {
		a := New(GameInfo{ID: game.ID{Event: "b", Round: 1, Board: 1}}, rs, Options{Start: g.Start})
		for i, p := range plies {
			a.Handle(game.MoveCompleted{Stamp: game.Stamp{At: t0}, Ply: i + 1, Side: p.side, Move: p.m, SAN: p.san, UCI: p.uci, Position: p.next})
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/float64(len(plies)), "µs/move")
}
