package adjudicator

import (
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// The Chess960 section's technical errors (Reg. §11): a completed
// illegal move is a technical-error candidate with no time award; only
// confirmed errors count; the third loses.
func TestChess960TechnicalErrors(t *testing.T) {
	g := newGame(t, "bgo2026-960", "", "300+3", Options{Penalties: PenaltiesAuto})
	g.moves("e4 e5")
	var last []game.Verdict
	for i := 1; i <= 3; i++ {
		out := g.illegal("d1h7", true) // the queen through its own pawn
		al := one(t, out, game.KindIllegalMove)
		if al.Severity != game.Crit || al.Proposal["technical_error"] != "white" || al.Proposal["time_add_ms"] != nil || al.Proposal["result"] != nil {
			t.Fatalf("candidate %d: %v %s", i, al.Proposal, al.Message)
		}
		if len(clockCommands(out)) != 0 {
			t.Fatal("no time award in the 960 section")
		}
		if g.a.TechnicalErrors(rules.White) != i-1 {
			t.Errorf("counted before confirmation: %d", g.a.TechnicalErrors(rules.White))
		}
		last = g.command(Command{Cmd: "apply_penalty", AlertID: al.ID, By: "IA Nguyen"})
	}
	te := one(t, last, game.KindTechnicalError)
	if te.Severity != game.Crit || te.Proposal["result"] != "0-1" || te.Article != "004 Reg. §11" || g.a.TechnicalErrors(rules.White) != 3 {
		t.Errorf("third TE: %s %v %s", te.Severity, te.Proposal, te.Article)
	}
	// Rejected candidates never count.
	g = newGame(t, "bgo2026-960", "", "", Options{})
	al := one(t, g.illegal("e2e5", true), game.KindIllegalMove)
	g.command(Command{Cmd: "reject", AlertID: al.ID})
	if g.a.TechnicalErrors(rules.White) != 0 {
		t.Error("rejected TE counted")
	}
}

// A 960 game with castling in the drawn position is
// recorded without alerts; FIDE automatic draws apply (fivefold).
func TestChess960Game(t *testing.T) {
	// SP 518 is the standard array, drawn like any other (B1).
	start := chess.Chess960Start(518)
	g := newGame(t, "bgo2026-960", start.FEN(), "", Options{})
	if out := g.moves("e4 e5 Nf3 Nf6 Bc4 Bc5 O-O O-O"); len(out) != 0 {
		t.Fatalf("castling game: %s", describe(out))
	}
	out := g.moves("Nc3 Nc6 Nb1 Nb8 Nc3 Nc6 Nb1 Nb8 Nc3 Nc6 Nb1 Nb8 Nc3 Nc6 Nb1 Nb8")
	r := results(out)
	if len(r) != 1 || r[0].Article != "9.6.1" {
		t.Errorf("fivefold in 960: %s", describe(out))
	}
}

// The clock is set other than 5:00+3; a flag with no
// mating material for the opponent is a draw (FIDE 6.9).
func TestChess960Clock(t *testing.T) {
	g := newGame(t, "bgo2026-960", "", "", Options{})
	a := New(GameInfo{ID: game.ID{Event: "bgo", Round: 1, Board: 1}}, g.a.rs, Options{TimeControl: mustTC("300+3")})
	out := a.Handle(game.ClockChanged{Stamp: game.Stamp{At: t0}, Clock: game.ClockReading{White: 3 * time.Minute, Black: 3 * time.Minute, Running: rules.NoColor}})
	if len(alerts(out, game.KindClockSetting)) != 2 {
		t.Errorf("3:00 instead of 5:00+3: %s", describe(out))
	}
	// 5:03 is what a DGT clock shows for 5+3 at the start: accepted.
	a = New(GameInfo{ID: game.ID{Event: "bgo", Round: 1, Board: 1}}, g.a.rs, Options{TimeControl: mustTC("300+3")})
	if out := a.Handle(game.ClockChanged{Stamp: game.Stamp{At: t0}, Clock: game.ClockReading{White: 303 * time.Second, Black: 303 * time.Second, Running: rules.NoColor}}); len(out) != 0 {
		t.Errorf("5:03 start: %s", describe(out))
	}
	g = newGame(t, "bgo2026-960", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "300+3", Options{})
	g.spend(310 * time.Second)
	al := one(t, g.reading(), game.KindInsufficient)
	if al.Proposal["result"] != Draw || !strings.Contains(al.Message, "cannot checkmate") {
		t.Errorf("%v %s", al.Proposal, al.Message)
	}
}

// FIDE 6.11.2 and A.4.3: the clock stopped during play
// gives the arbiter the context of a claim.
func TestClockStopped(t *testing.T) {
	g := newGame(t, "bgo2026-960", "", "300+3", Options{})
	g.moves("e4")
	g.illegal("e7e4", true)
	g.spend(2 * time.Second)
	g.run = rules.NoColor
	out := g.reading()
	al := one(t, out, game.KindClockStopped)
	if al.Severity != game.Crit || al.Proposal["white_can_mate"] != true || !strings.Contains(al.Message, "Illegal move at ply 2 still open") {
		t.Errorf("%v %s", al.Proposal, al.Message)
	}
}
