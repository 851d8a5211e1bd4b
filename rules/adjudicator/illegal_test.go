package adjudicator

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/clock"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// FIDE 7.5.1, 7.5.5; 2001 7.4: completed illegal moves, the
// 2018 and 2001 ladders side by side on the same incidents.
func TestIllegalLadder(t *testing.T) {
	type step struct {
		result string // proposed result, "" for none
		award  int64  // proposed time_add_ms
	}
	tests := []struct {
		name, rs, article string
		steps             []step
	}{
		{"2018 standard 7.5.5: +2 min, then loss", "fide2018-standard", "7.5.1", []step{{"", 120000}, {"1-0", 0}}},
		{"2018 blitz B.2: +1 min, then loss", "fide2018-blitz", "7.5.1", []step{{"", 60000}, {"1-0", 0}}},
		{"2001 standard 7.4(b): +2, +2, loss on the third", "fide2001-standard", "2001 7.4(a)", []step{{"", 120000}, {"", 120000}, {"1-0", 0}}},
		{"2001 rapid 7.4(b): +2, +2, loss on the third", "fide2001-rapid", "2001 7.4(a)", []step{{"", 120000}, {"", 120000}, {"1-0", 0}}},
		{"2001 blitz C3: the opponent may claim a win at once", "fide2001-blitz", "2001 C3", []step{{"1-0", 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGame(t, tt.rs, "", "", Options{})
			g.moves("e4")
			for i, st := range tt.steps {
				out := g.illegal("e7e4", true) // black pawn e7-e4: bad geometry
				al := one(t, out, game.KindIllegalMove)
				if al.Severity != game.Crit || al.Article != tt.article || al.Side != "black" {
					t.Errorf("illegal %d: %s %s %s", i+1, al.Severity, al.Article, al.Side)
				}
				if got, _ := al.Proposal["result"].(string); got != st.result {
					t.Errorf("illegal %d: result %q, want %q: %s", i+1, got, st.result, al.Message)
				}
				if got, _ := al.Proposal["time_add_ms"].(int64); got != st.award {
					t.Errorf("illegal %d: time_add_ms %d, want %d", i+1, got, st.award)
				}
				if st.award > 0 && al.Proposal["side"] != "white" {
					t.Errorf("award to %v, want white", al.Proposal["side"])
				}
				if al.Proposal["reinstate_ply"] != 1 || al.Proposal["reinstate_fen"] == nil || len(al.Evidence) != 2 {
					t.Errorf("reinstatement/evidence missing: %v %v", al.Proposal, al.Evidence)
				}
				// Under A.4/B.4 the arbiter acts before White moves, so
				// the move counts (acknowledge).
				g.command(Command{Cmd: "acknowledge", AlertID: al.ID})
			}
		})
	}
}

// FIDE 7.5.5, its exception: the second illegal move is a draw when
// the opponent cannot mate; 2001 7.4(b) has no such exception.
func TestIllegalDrawException(t *testing.T) {
	// White has a bare king; Black (to move) has king and rook.
	const fen = "4k3/8/8/8/8/8/r7/4K3 b - - 0 1"
	for _, tt := range []struct {
		rs, want string
		n        int
	}{
		{"fide2018-standard", "1/2-1/2", 2},
		{"fide2001-standard", "1-0", 3},
	} {
		t.Run(tt.rs, func(t *testing.T) {
			g := newGame(t, tt.rs, fen, "", Options{})
			var al game.Alert
			for i := 0; i < tt.n; i++ {
				al = one(t, g.illegal("a2b4", true), game.KindIllegalMove) // rook moves like a knight
			}
			if al.Proposal["result"] != tt.want {
				t.Errorf("result %v, want %s: %s", al.Proposal["result"], tt.want, al.Message)
			}
		})
	}
}

// FIDE 7.5.1, 12.6: an illegal move not yet completed is INFO
// in 2018; in 2001 an illegal move counts once made (7.4(a)).
func TestIllegalNotCompleted(t *testing.T) {
	g := newGame(t, "fide2018-standard", "", "", Options{})
	al := one(t, g.illegal("e2e5", false), game.KindIllegalMove)
	if al.Severity != game.Info || g.a.IllegalMoves(rules.White) != 0 || al.Proposal != nil {
		t.Errorf("2018: %s %v count %d", al.Severity, al.Proposal, g.a.IllegalMoves(rules.White))
	}
	// 2001: it counts once made, but the board cannot tell a made move
	// from a transient state: a warning with the ladder step, counted
	// when the arbiter acknowledges it.
	g = newGame(t, "fide2001-standard", "", "", Options{})
	al = one(t, g.illegal("e2e5", false), game.KindIllegalMove)
	if al.Severity != game.Warn || al.Article != "2001 7.4(a)" || g.a.IllegalMoves(rules.White) != 0 || al.Proposal["time_add_ms"] != int64(120000) {
		t.Errorf("2001: %s %s count %d %v", al.Severity, al.Article, g.a.IllegalMoves(rules.White), al.Proposal)
	}
	g.command(Command{Cmd: "acknowledge", AlertID: al.ID})
	if g.a.IllegalMoves(rules.White) != 1 {
		t.Errorf("2001 acknowledged: count %d", g.a.IllegalMoves(rules.White))
	}
}

// FIDE rapid/blitz (A.4.2, B.4): the window closes at the
// opponent's next move and the illegal move stands; unpunished, it does not
// count (count_unpenalised_illegal_moves false), so the next one is again
// the first.
func TestIllegalWindowA42(t *testing.T) {
	g := newGame(t, "fide2018-rapid", "", "", Options{})
	g.moves("e4")
	al := one(t, g.illegal("e7e4", true), game.KindIllegalMove)
	if al.Proposal["time_add_ms"] != int64(120000) {
		t.Fatalf("first: %v", al.Proposal)
	}
	out := g.stand("e7e4") // nobody acted; the tracker carries on
	out = append(out, g.moves("d4")...)
	st := one(t, out, game.KindIllegalMove)
	if st.Severity != game.Info || st.Article != "A.4.2" || st.Proposal["stands"] != true {
		t.Errorf("stands: %s %s %v", st.Severity, st.Article, st.Proposal)
	}
	if g.a.IllegalMoves(rules.Black) != 0 {
		t.Errorf("unpunished illegal move counted: %d", g.a.IllegalMoves(rules.Black))
	}
	al = one(t, g.illegal("d8d4", true), game.KindIllegalMove) // queen through its own pawn... blocked
	if al.Proposal["time_add_ms"] != int64(120000) {
		t.Errorf("second illegal move should be the first penalised: %v", al.Proposal)
	}

	// With the parameter set, the unpunished move counts.
	g = newGame(t, "fide2018-rapid", "", "", Options{})
	g.a.rs.Illegal.CountUnpenalised = true
	g.moves("e4")
	g.illegal("e7e4", true)
	g.stand("e7e4")
	g.moves("d4")
	al = one(t, g.illegal("d8d4", true), game.KindIllegalMove)
	if al.Proposal["result"] != "1-0" {
		t.Errorf("count_unpenalised: %v", al.Proposal)
	}
}

// 2001 B5(b): in rapid the claim lapses when the claimant touches a piece.
func TestIllegalWindow2001Rapid(t *testing.T) {
	g := newGame(t, "fide2001-rapid", "", "", Options{})
	g.moves("e4")
	g.illegal("e7e4", true)
	out := g.handle(turnStarted(g, rules.White))
	st := one(t, out, game.KindIllegalMove)
	if st.Article != "2001 B5(b)" || st.Proposal["stands"] != true {
		t.Errorf("%s %v", st.Article, st.Proposal)
	}
}

// FIDE 7.5.2: a pawn left unpromoted; 2001 has no such rule and
// treats it as an illegal move.
func TestUnpromotedPawn(t *testing.T) {
	const fen = "8/P6k/8/8/8/8/8/K7 w - - 0 1"
	g := newGame(t, "fide2018-standard", fen, "", Options{})
	al := one(t, g.illegal("a7a8", true), game.KindUnpromotedPawn)
	if al.Article != "7.5.2" || al.Proposal["replace_with"] != "queen" || al.Proposal["time_add_ms"] != int64(120000) {
		t.Errorf("2018: %s %v", al.Article, al.Proposal)
	}
	g = newGame(t, "fide2001-standard", fen, "", Options{})
	al = one(t, g.illegal("a7a8", true), game.KindIllegalMove)
	if al.Article != "2001 7.4(a)" || al.Proposal["replace_with"] != nil {
		t.Errorf("2001: %s %v", al.Article, al.Proposal)
	}
}

// FIDE 7.5.3: a clock press without a move is an illegal move
// in 2018; clock misuse (2001 13.4) in 2001.
func TestClockWithoutMove(t *testing.T) {
	for _, tt := range []struct{ rs, sev, art string }{
		{"fide2018-standard", game.Crit, "7.5.3"},
		{"fide2001-standard", game.Warn, "2001 13.4"},
	} {
		t.Run(tt.rs, func(t *testing.T) {
			g := newGame(t, tt.rs, "", "5400+30", Options{})
			g.spend(5 * time.Second)
			g.press(rules.White)
			g.reading()
			out := g.handle(clockWithoutMove(g, rules.White))
			al := one(t, out, game.KindClockWithoutMove)
			if al.Severity != tt.sev || al.Article != tt.art {
				t.Errorf("%s %s: %s", al.Severity, al.Article, al.Message)
			}
			if tt.sev == game.Crit && al.Proposal["time_add_ms"] != int64(120000) {
				t.Errorf("ladder: %v", al.Proposal)
			}
		})
	}
}

// Penalties: auto sends the 7.5.5 time award to the clock (SetNRun);
// alert only proposes it, and apply_penalty on the alert sends it then.
func TestPenaltyAuto(t *testing.T) {
	g := newGame(t, "fide2018-standard", "", "5400+30", Options{Penalties: PenaltiesAuto})
	g.moves("e4")
	out := g.illegal("e7e4", true)
	cc := clockCommands(out)
	if len(cc) != 1 {
		t.Fatalf("clock commands %s", describe(out))
	}
	// White moved after 10 s with +30 s, Black thought 10 s: 5420 / 5390 +2 min.
	if cc[0].White != 5540*time.Second || cc[0].Black != 5420*time.Second || cc[0].Running != rules.White {
		t.Errorf("SetNRun %v / %v run %s", cc[0].White, cc[0].Black, cc[0].Running)
	}
	// The clock now shows the new times: no inconsistency.
	g.w, g.b = cc[0].White, cc[0].Black
	if out := g.reading(); len(out) != 0 {
		t.Errorf("after the penalty: %s", describe(out))
	}
	// The alert says it was applied and what SetNRun did to the clock.
	al := one(t, out, game.KindIllegalMove)
	if al.Proposal["applied"] != true || !strings.Contains(al.Message, "Applied (penalties: auto): White gets 2 min") ||
		!strings.Contains(al.Message, "adds no increment") {
		t.Errorf("alert %v: %s", al.Proposal, al.Message)
	}
	// The DGT 3000 under PC control adds no increment: play goes on
	// without clock defects.
	g.tc = clock.MustParse("5400") // what the test's clock adds at a press: nothing
	for _, o := range g.moves("e5 Nf3 Nc6 Bb5") {
		if al, ok := o.(game.Alert); ok && al.Kind == game.KindClockDefect {
			t.Errorf("after SetNRun: %s", al.Message)
		}
	}

	g = newGame(t, "fide2018-standard", "", "5400+30", Options{})
	g.moves("e4")
	out = g.illegal("e7e4", true)
	if len(clockCommands(out)) != 0 {
		t.Fatal("penalties: alert must not touch the clock")
	}
	al = one(t, out, game.KindIllegalMove)
	out = g.command(Command{Cmd: "apply_penalty", AlertID: al.ID})
	if cc := clockCommands(out); len(cc) != 1 || cc[0].White != 5540*time.Second {
		t.Errorf("apply_penalty: %s", describe(out))
	}
	// The same request again (a retry after a lost reply) adds nothing.
	if out, err := g.a.Command(Command{Cmd: "apply_penalty", AlertID: al.ID}, g.at); !errors.Is(err, ErrNotApplicable) || len(out) != 0 {
		t.Errorf("apply_penalty twice: %v, %s", err, describe(out))
	}
	if n := g.a.IllegalMoves(rules.Black); n != 1 {
		t.Errorf("illegal moves counted %d, want 1", n)
	}
}

// FIDE 4.1, 7.5.4: a two-handed move the arbiter confirms runs
// the ladder in 2018; 2001 has no such rule (clock misuse).
func TestTwoHands(t *testing.T) {
	g := newGame(t, "fide2018-standard", "", "", Options{})
	g.moves("e4 e5")
	out := g.command(Command{Cmd: "apply_penalty", Penalty: "illegal_move", Side: "black"})
	al := one(t, out, game.KindIllegalMove)
	if al.Article != "7.5.4" || al.Proposal["time_add_ms"] != int64(120000) || g.a.IllegalMoves(rules.Black) != 1 {
		t.Errorf("%s %v", al.Article, al.Proposal)
	}
	g = newGame(t, "fide2001-standard", "", "", Options{})
	if _, err := g.a.Command(Command{Cmd: "apply_penalty", Penalty: "illegal_move", Side: "black"}, g.at); !errors.Is(err, ErrNotApplicable) {
		t.Errorf("2001: %v", err)
	}
}
