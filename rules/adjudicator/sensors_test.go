package adjudicator

import (
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

func touchEvidence(g *match, rule, article string) game.TouchEvidence {
	g1, _ := rules.Chess8x8.ParseSquare("g1")
	f3, _ := rules.Chess8x8.ParseSquare("f3")
	n := rules.Piece{Color: rules.White, Kind: rules.Knight}
	return game.TouchEvidence{Stamp: game.Stamp{At: g.at}, Ply: g.ply + 1, Side: rules.White, Rule: rule, Article: article,
		Certainty: game.Likely, Message: "the knight on g1 was lifted and put back, then e2-e4 was played",
		Touched: []rules.Square{g1}, Made: rules.Move{From: 12, To: 28},
		Evidence: []game.Touch{{At: g.at, Square: g1, Piece: n, Lift: true}, {At: g.at.Add(time.Second), Square: g1, Piece: n}, {At: g.at.Add(2 * time.Second), Square: f3, Piece: n}}}
}

// FIDE 4.2–4.7 and 2001 B5(a): touch-move
// evidence is a warning in 2018 and 2001 standard, INFO in 2001 rapid/blitz.
func TestTouchMove(t *testing.T) {
	tests := []struct{ rs, rule, art, sev, wantArt string }{
		{"fide2018-standard", "TM-1", "4.3.1", game.Warn, "4.3.1"},
		{"fide2018-blitz", "TM-5", "4.4.2", game.Warn, "4.4.2"},
		{"fide2001-standard", "TM-1", "4.3.1", game.Warn, "2001 4.3"},
		{"fide2001-rapid", "TM-1", "4.3.1", game.Info, "2001 B5(a)"},
		{"fide2001-blitz", "TM-2", "4.3.2", game.Info, "2001 B5(a)"},
	}
	for _, tt := range tests {
		t.Run(tt.rs+" "+tt.rule, func(t *testing.T) {
			g := newGame(t, tt.rs, "", "", Options{})
			al := one(t, g.handle(touchEvidence(g, tt.rule, tt.art)), game.KindTouchMove)
			if al.Severity != tt.sev || al.Article != tt.wantArt || al.Side != "white" || len(al.Evidence) != 3 {
				t.Errorf("%s %s %s %d", al.Severity, al.Article, al.Side, len(al.Evidence))
			}
			if al.Evidence[0].Square != "g1" || al.Evidence[0].Event != "lift" || al.Evidence[0].Piece != "N" {
				t.Errorf("evidence %+v", al.Evidence[0])
			}
			if tt.sev == game.Warn && !strings.Contains(al.Message, "Black until he touches a piece (4.8)") {
				t.Errorf("claim window missing: %s", al.Message)
			}
		})
	}
}

// FIDE 7.4, 7.6: displaced pieces warn; restored is INFO;
// still wrong at the clock press is crit with the position to reinstate.
func TestDisplacedPieces(t *testing.T) {
	g := newGame(t, "fide2018-standard", "", "5400+30", Options{})
	g.moves("e4 e5")
	d4, _ := rules.Chess8x8.ParseSquare("d4")
	out := g.handle(game.Unexplained{Stamp: game.Stamp{At: g.at}, Since: g.at, Squares: []rules.Square{d4}})
	al := one(t, out, game.KindDisplaced)
	if al.Severity != game.Warn || al.Article != "7.4" || !strings.Contains(al.Message, "d4") || al.Proposal["reinstate_ply"] != 2 {
		t.Errorf("%s %s %v %s", al.Severity, al.Article, al.Proposal, al.Message)
	}
	al = one(t, g.handle(game.Explained{Stamp: game.Stamp{At: g.at}}), game.KindDisplaced)
	if al.Severity != game.Info {
		t.Errorf("restored: %s", al.Severity)
	}
	g.handle(game.Unexplained{Stamp: game.Stamp{At: g.at}, Since: g.at, Squares: []rules.Square{d4}})
	g.spend(3 * time.Second)
	g.press(rules.White)
	g.reading()
	out = g.handle(clockWithoutMove(g, rules.White))
	al = one(t, out, game.KindDisplaced)
	if al.Severity != game.Crit || al.Proposal["reinstate_fen"] == nil || len(alerts(out, game.KindClockWithoutMove)) != 0 {
		t.Errorf("%s %v %s", al.Severity, al.Proposal, describe(out))
	}
}

// FIDE 2.1: a DGT board turned 180° is no irregularity (the
// corner colours are right): INFO in every rule set.
func TestOrientation(t *testing.T) {
	for _, rs := range []string{"fide2018-standard", "fide2018-rapid", "fide2001-blitz"} {
		g := newGame(t, rs, "", "", Options{})
		al := one(t, g.handle(game.OrientationChanged{Stamp: game.Stamp{At: g.at}, Rotated: true}), game.KindSetupMismatch)
		if al.Severity != game.Info || !strings.Contains(al.Message, "180") {
			t.Errorf("%s: %s %s", rs, al.Severity, al.Message)
		}
	}
}

// FIDE 2.3, Guidelines II.2, 7.2.1 and 004 B1: a set-up that
// differs from the drawn position is reported square by square.
func TestSetupMismatch(t *testing.T) {
	want := chess.Chess960Start(0) // BBQNNRKR
	got := chess.Chess960Start(1)  // BQNBNRKR
	rs, _ := ruleset.Lookup("bgo2026-960")
	a := New(GameInfo{ID: game.ID{Event: "bgo", Round: 1, Board: 1}}, rs, Options{Expected: want})
	out := a.Handle(game.SetupDetected{Stamp: game.Stamp{At: t0}, Position: got, N960: 1})
	al := one(t, out, game.KindSetupMismatch)
	if al.Severity != game.Warn || !strings.Contains(al.Message, "b1: white queen instead of white bishop") || al.Proposal["fen"] != want.FEN() {
		t.Errorf("%s %s %v", al.Severity, al.Message, al.Proposal)
	}
	if out := a.Handle(game.SetupDetected{Stamp: game.Stamp{At: t0}, Position: want, N960: 0}); len(out) != 0 {
		t.Errorf("correct set-up: %s", describe(out))
	}
}

// A set-up of the start position's pieces placed otherwise (the tracker's
// SetupMismatch: king and queen swapped, no start array at all) is the
// same setup_mismatch alert; putting it right is information.
func TestSetupMismatchSwapped(t *testing.T) {
	want := chess.StartPosition(chess.Standard)
	got := want.Placement()
	d1, _ := rules.Chess8x8.ParseSquare("d1")
	e1, _ := rules.Chess8x8.ParseSquare("e1")
	got.Sq[d1], got.Sq[e1] = got.Sq[e1], got.Sq[d1]
	rs, _ := ruleset.Lookup("fide2018-standard")
	a := New(GameInfo{ID: game.ID{Event: "open", Round: 1, Board: 1}}, rs, Options{Start: want})
	out := a.Handle(game.SetupMismatch{Stamp: game.Stamp{At: t0}, Expected: want, Squares: []rules.Square{d1, e1}, Placement: got})
	al := one(t, out, game.KindSetupMismatch)
	if al.Severity != game.Warn || !strings.Contains(al.Message, "d1: white king instead of white queen") || al.Proposal["fen"] != want.FEN() {
		t.Errorf("%s %s %v", al.Severity, al.Message, al.Proposal)
	}
	out = a.Handle(game.Explained{Stamp: game.Stamp{At: t0.Add(time.Minute)}})
	if al := one(t, out, game.KindDisplaced); al.Severity != game.Info {
		t.Errorf("put right: %+v", al)
	}
}
