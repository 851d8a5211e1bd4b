package adjudicator

import (
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// FIDE 5.1.1, 6.2.1.1 and 6.9: checkmate ends the game
// provisionally; a later flag fall is INFO only.
func TestCheckmate(t *testing.T) {
	for _, tt := range []struct{ rs, art string }{{"fide2018-standard", "5.1.1"}, {"fide2001-standard", "2001 5.1(a)"}} {
		t.Run(tt.rs, func(t *testing.T) {
			g := newGame(t, tt.rs, "", "180", Options{})
			out := g.moves("f3 e5 g4 Qh4#")
			rs := results(out)
			if len(rs) != 1 || rs[0].Result != "0-1" || !rs[0].Provisional || rs[0].Article != tt.art || rs[0].Termination != "checkmate" {
				t.Fatalf("results %s", describe(out))
			}
			al := one(t, out, game.KindCheckmate)
			if al.Severity != game.Crit || al.Proposal["result"] != "0-1" || !strings.Contains(al.Message, "Qh4#") {
				t.Errorf("%s %v %s", al.Severity, al.Proposal, al.Message)
			}
			// White's flag falls later: no effect (#33).
			g.spend(200e9)
			out = g.reading()
			fl := one(t, out, game.KindFlagFall)
			if fl.Severity != game.Info || g.a.Result().Result != "0-1" {
				t.Errorf("flag after mate: %s, result %s", fl.Severity, g.a.Result().Result)
			}
		})
	}
}

// FIDE 5.2.1: stalemate.
func TestStalemate(t *testing.T) {
	g := newGame(t, "fide2018-blitz", "7k/8/6Q1/8/8/8/8/K7 w - - 0 1", "", Options{})
	out := g.moves("Qf7")
	r := results(out)
	if len(r) != 1 || r[0].Result != Draw || r[0].Article != "5.2.1" || !r[0].Provisional {
		t.Fatalf("%s", describe(out))
	}
	one(t, out, game.KindStalemate)
}

// FIDE 5.2.2; 2001 9.6: capturing the last pawn leaves K+B v K.
func TestDeadPosition(t *testing.T) {
	for _, tt := range []struct{ rs, art string }{{"fide2018-standard", "5.2.2"}, {"fide2001-rapid", "2001 9.6"}} {
		g := newGame(t, tt.rs, "4k3/8/8/8/8/8/3p4/2B1K3 w - - 0 1", "", Options{})
		out := g.moves("Bxd2")
		r := results(out)
		if len(r) != 1 || r[0].Result != Draw || r[0].Article != tt.art {
			t.Errorf("%s: %s", tt.rs, describe(out))
		}
		one(t, out, game.KindDeadPosition)
	}
	// K+B v K+N is not dead: nothing happens.
	g := newGame(t, "fide2018-standard", "4k3/8/n7/8/8/8/3p4/2B1K3 w - - 0 1", "", Options{})
	if out := g.moves("Bxd2"); len(out) != 0 {
		t.Errorf("K+B v K+N: %s", describe(out))
	}
}

const knightDance = "Nf3 Nf6 Ng1 Ng8"

// FIDE 9.2 and 9.6.1: threefold is claimable (INFO, also
// one move ahead, 9.2.1.1); fivefold ends the game in 2018 only.
func TestRepetition(t *testing.T) {
	g := newGame(t, "fide2018-standard", "", "", Options{})
	out := g.moves(knightDance + " Nf3 Nf6 Ng1")
	// After Ng1 (ply 7) Black's Ng8 would repeat the start a third time.
	al := one(t, out[len(out)-1:], game.KindThreefold)
	if al.Side != "black" || al.Proposal["move"] != "f6g8" || al.Severity != game.Info || !strings.Contains(al.Message, "9.2.1.1") {
		t.Errorf("ahead: %s %v %s", al.Side, al.Proposal, al.Message)
	}
	out = g.moves("Ng8")
	al = one(t, out, game.KindThreefold)
	if al.Side != "white" || al.Article != "9.2" || !strings.Contains(al.Message, "until White touches a piece (9.4)") {
		t.Errorf("third: %s %s %s", al.Side, al.Article, al.Message)
	}
	if pl, _ := al.Proposal["plies"].([]int); len(pl) != 3 || pl[0] != 0 || pl[2] != 8 {
		t.Errorf("plies %v", al.Proposal["plies"])
	}
	out = g.moves(knightDance + " " + knightDance)
	r := results(out)
	if len(r) != 1 || r[0].Result != Draw || r[0].Article != "9.6.1" || g.a.Ply() != 16 {
		t.Fatalf("fivefold 2018 at ply %d: %s", g.a.Ply(), describe(out))
	}
	one(t, out, game.KindFivefold)

	// 2001: no fivefold rule (9.7); the claim right lapses by moving.
	g = newGame(t, "fide2001-standard", "", "", Options{})
	out = g.moves(knightDance + " " + knightDance)
	al = alerts(out, game.KindThreefold)[1]
	if !strings.Contains(al.Message, "until White makes a move (2001 9.2)") {
		t.Errorf("2001 lapse: %s", al.Message)
	}
	out = g.moves(knightDance + " " + knightDance)
	if len(results(out)) != 0 {
		t.Errorf("2001 has no automatic fivefold: %s", describe(out))
	}
	if f := one(t, out, game.KindFivefold); f.Severity != game.Info {
		t.Errorf("2001 fivefold %s", f.Severity)
	}
}

// FIDE 9.3 and 9.6.2: the 50-move claim and the 75-move
// automatic draw; checkmate on the 75th move takes precedence.
func TestMoveCountRules(t *testing.T) {
	g := newGame(t, "fide2018-standard", "4k3/8/8/8/8/8/8/R3K3 w - - 98 60", "", Options{})
	out := g.moves("Ra2")
	al := one(t, out, game.KindFifty)
	if !strings.Contains(al.Message, "9.3.1") || al.Side != "black" {
		t.Errorf("99: %s", al.Message)
	}
	out = g.moves("Kd8")
	al = one(t, out, game.KindFifty)
	if al.Side != "white" || !strings.Contains(al.Message, "9.3.2") {
		t.Errorf("100: %s", al.Message)
	}

	for _, tt := range []struct{ rs, want string }{{"fide2018-standard", Draw}, {"fide2001-standard", ""}} {
		g := newGame(t, tt.rs, "4k3/8/8/8/8/8/8/R3K3 w - - 149 90", "", Options{})
		out := g.moves("Ra2")
		r := results(out)
		if tt.want == "" {
			if len(r) != 0 || alerts(out, game.KindSeventyFive)[0].Severity != game.Info {
				t.Errorf("2001 75 moves: %s", describe(out))
			}
			continue
		}
		if len(r) != 1 || r[0].Article != "9.6.2" || r[0].Result != Draw {
			t.Errorf("2018 75 moves: %s", describe(out))
		}
	}
	// Mate on the 150th ply: checkmate, not the 75-move draw.
	g = newGame(t, "fide2018-standard", "k7/8/1K6/8/8/8/8/7R w - - 149 90", "", Options{})
	out = g.moves("Rh8#")
	if r := results(out); len(r) != 1 || r[0].Result != "1-0" || r[0].Termination != "checkmate" {
		t.Errorf("mate precedence: %s", describe(out))
	}
}

// FIDE A.4.4: an illegal move that left a pawn unpromoted stood;
// after the next completed move the position is still illegal: draw.
func TestIllegalPositionA44(t *testing.T) {
	const fen = "7k/P7/8/8/8/8/8/K7 w - - 0 1"
	for _, tt := range []struct {
		rs   string
		want int
	}{{"fide2018-rapid", 1}, {"fide2001-rapid", 0}} {
		g := newGame(t, tt.rs, fen, "", Options{})
		g.illegal("a7a8", true)
		g.stand("a7a8")
		out := g.moves("Kg7")
		as := alerts(out, game.KindIllegalPosition)
		if len(as) != tt.want {
			t.Fatalf("%s: %s", tt.rs, describe(out))
		}
		if tt.want == 1 && (as[0].Proposal["result"] != Draw || as[0].Article != "A.4.4") {
			t.Errorf("%v %s", as[0].Proposal, as[0].Article)
		}
	}
}

// FIDE 5.1.2, 5.2.3: a result gesture is a proposal, never a
// result; an agreed draw needs a move by each player (2018 only).
func TestResultGesture(t *testing.T) {
	g := newGame(t, "fide2018-standard", "", "", Options{})
	g.moves("e4")
	out := g.handle(gesture(g, Draw))
	al := one(t, out, game.KindResultGesture)
	if al.Proposal["result"] != Draw || al.Article != "5.2.3" || !strings.Contains(al.Message, "at least 1 move") || len(results(out)) != 0 {
		t.Errorf("%v %s %s", al.Proposal, al.Article, al.Message)
	}
	g = newGame(t, "fide2001-standard", "", "", Options{})
	g.moves("e4")
	al = one(t, g.handle(gesture(g, Draw)), game.KindResultGesture)
	if strings.Contains(al.Message, "at least") {
		t.Errorf("2001 has no minimum: %s", al.Message)
	}
	al = one(t, g.handle(gesture(g, "1-0")), game.KindResultGesture)
	if al.Article != "2001 5.1(b)" || al.Side != "" {
		t.Errorf("%s", al.Article)
	}
	_ = rules.White
}
