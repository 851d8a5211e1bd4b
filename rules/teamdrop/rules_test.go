package teamdrop

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// TestHouseRules has one case per rule of the match (docs/team-drop.md),
// named by its article. Each plays moves on the boards and checks what the
// match recorded, the pockets and the findings.
func TestHouseRules(t *testing.T) {
	tests := []struct {
		name      string
		fenA      string
		fenB      string
		overrides map[string]any
		run       func(t *testing.T, m *Match)
	}{
		{"A1, R2.1, R2.2: a capture feeds the partner's pocket at the press", "", "", nil, func(t *testing.T, m *Match) {
			play(t, m, A, 1, "e4", "d5")
			u, err := m.Complete(A, parse(t, m, A, "exd5"), sec(3))
			if err != nil {
				t.Fatal(err)
			}
			// White on A took a black pawn: it goes to Black on B.
			if got := pockets(m, B); got != "-/P" || !u.Pockets[B] || u.Pockets[A] {
				t.Fatalf("pockets of B %s, update %+v", got, u.Pockets)
			}
			if got := pockets(m, A); got != "-/-" {
				t.Errorf("the capturer's own pocket changed: %s", got)
			}
			ply := m.Plies(A)[2]
			if ply.Taken != (rules.Piece{Color: rules.Black, Kind: rules.Pawn}) || ply.TakenTo != (Side{B, rules.Black}) || !ply.TakenToPocket {
				t.Errorf("ply %+v", ply)
			}
			// Black on B may now drop it (A2), after White's first move there.
			play(t, m, B, 4, "d4", "P@e5")
			if got := pockets(m, B); got != "-/-" || m.Plies(B)[1].SAN != "P@e5" || m.Plies(B)[1].Kind != PlyDrop {
				t.Errorf("after the drop: pockets %s, %+v", got, m.Plies(B)[1])
			}
		}},
		{"A2, D2: a drop of a piece not in the pocket", "", "", nil, func(t *testing.T, m *Match) {
			play(t, m, A, 1, "e4", "e5")
			// The drop waits PocketGrace for a capture pressed before it on
			// the partner board; none comes: the illegal drop is reported
			// at the next call after the grace (here Tick).
			if fs := play(t, m, A, 3, "N@f3"); len(fs) != 0 {
				t.Fatalf("findings at the drop %s", describe(fs))
			}
			if m.Position(A).At(sq("f3")).Kind != rules.Knight {
				t.Fatal("the dropped knight is not on the board as it stands")
			}
			if u := m.Tick(sec(3).Add(PocketGrace - time.Millisecond)); len(u.Findings) != 0 {
				t.Fatalf("reported before the grace: %s", describe(u.Findings))
			}
			fs := m.Tick(sec(3).Add(PocketGrace)).Findings
			im := only[*IllegalMove](fs)
			if len(im) != 1 || im[0].Violation != DropNotInPocket || im[0].Where().Article != "004 App. I A1, A2 (D2)" || !im[0].Confiscable || !im[0].Candidate ||
				im[0].Where().Ply != 3 || !im[0].Where().At.Equal(sec(3)) || !m.Plies(A)[2].Illegal {
				t.Fatalf("findings %s", describe(fs))
			}
			// A knight captured on B by White's partner (Black on B) arrives
			// later: it settles the owed piece, the pocket stays empty.
			play(t, m, B, 10, "Nf3", "e5", "Ng5", "Qxg5")
			if got := pockets(m, A); got != "-/-" {
				t.Errorf("pockets of A %s, want -/- (the knight was owed)", got)
			}
		}},
		{"A2, D2: a capture pressed before the drop but reported after it", "", "", nil, func(t *testing.T, m *Match) {
			play(t, m, B, 1, "Nf3", "e5", "Ng5")
			play(t, m, A, 2, "e4", "e5")
			// Black on B takes the knight at 9.0 s; the board reports it
			// late, after White on A, handed the knight, dropped it (10 s).
			if fs := play(t, m, A, 10, "N@f3"); len(fs) != 0 {
				t.Fatalf("findings at the drop %s", describe(fs))
			}
			u, err := m.Complete(B, parse(t, m, B, "Qxg5"), sec(9))
			if err != nil {
				t.Fatal(err)
			}
			if len(u.Findings) != 0 || pockets(m, A) != "-/-" || m.Plies(A)[2].Illegal {
				t.Fatalf("findings %s, pockets of A %s, ply %+v", describe(u.Findings), pockets(m, A), m.Plies(A)[2])
			}
			if u := m.Tick(sec(30)); len(u.Findings) != 0 {
				t.Errorf("late findings %s", describe(u.Findings))
			}
		}},
		{"A2, D2: a drop before the capture that gave the piece was pressed", "", "", nil, func(t *testing.T, m *Match) {
			play(t, m, B, 1, "Nf3", "e5", "Ng5")
			play(t, m, A, 2, "e4", "e5")
			play(t, m, A, 10, "N@f3")
			u, err := m.Complete(B, parse(t, m, B, "Qxg5"), sec(11))
			if err != nil {
				t.Fatal(err)
			}
			if im := only[*IllegalMove](u.Findings); len(im) != 1 || im[0].Violation != DropNotInPocket || len(only[*PocketSettled](u.Findings)) != 1 || !m.Plies(A)[2].Illegal {
				t.Fatalf("findings %s", describe(u.Findings))
			}
		}},
		{"A4 D3: a drop giving check, even mate, is illegal and ends nothing", "6rk/6pp/8/8/8/8/8/4K3[N] w - - 0 1", "", nil, func(t *testing.T, m *Match) {
			fs := play(t, m, A, 1, "N@f7")
			im := only[*IllegalMove](fs)
			if len(im) != 1 || im[0].Violation != DropGivesCheck || im[0].Where().Article != "004 App. I A4 (D3)" || !im[0].Confiscable || im[0].Square != sq("f7") {
				t.Fatalf("findings %s", describe(fs))
			}
			if m.Result(A).Result != "*" || len(only[*Checkmate](fs)) != 0 {
				t.Errorf("an illegal mating drop ended the game: %+v %s", m.Result(A), describe(fs))
			}
		}},
		{"R8.4: illegal_time_award proposes time for the opponent", "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", "", map[string]any{"illegal_time_award": "1m"}, func(t *testing.T, m *Match) {
			fs := play(t, m, A, 1, "N@d6")
			if im := only[*IllegalMove](fs); len(im) != 1 || im[0].TimeAward != time.Minute || !strings.Contains(im[0].Message(), "1m0s extra for Black") {
				t.Fatalf("findings %s", describe(fs))
			}
		}},
		{"A4 D4: a drop on the last rank", "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", "", nil, func(t *testing.T, m *Match) {
			fs := play(t, m, A, 1, "N@a8")
			if im := only[*IllegalMove](fs); len(im) != 1 || im[0].Violation != DropOnLastRank || im[0].Where().Article != "004 App. I A4 (D4)" {
				t.Fatalf("findings %s", describe(fs))
			}
		}},
		{"A4 D5: a pawn dropped on the first rank", "4k3/8/8/8/8/8/8/K7[P] w - - 0 1", "", nil, func(t *testing.T, m *Match) {
			fs := play(t, m, A, 1, "P@h1")
			if im := only[*IllegalMove](fs); len(im) != 1 || im[0].Violation != DropPawnRank || im[0].Where().Article != "004 App. I A4 (D5)" {
				t.Fatalf("findings %s", describe(fs))
			}
		}},
		{"A4 §2.4: confiscation of an illegal drop", "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", "", nil, func(t *testing.T, m *Match) {
			before := m.Position(A).Placement()
			play(t, m, A, 1, "N@f6")
			fs := play(t, m, A, 2, "-f6")
			c := only[*Confiscation](fs)
			if len(c) != 1 || c[0].Piece != (rules.Piece{Color: rules.White, Kind: rules.Knight}) || c[0].To != (Side{B, rules.White}) || !c[0].ConsumesTurn {
				t.Fatalf("findings %s", describe(fs))
			}
			// The board is as before the drop, White lost the knight to its
			// opponent's partner (White on B), and White moves (the lift was
			// Black's move).
			if m.Position(A).Placement() != before || pockets(m, A) != "-/-" || pockets(m, B) != "N/-" || m.Position(A).Turn() != rules.White {
				t.Errorf("after the confiscation: %s, pockets B %s", m.Position(A).FEN(), pockets(m, B))
			}
			if p := m.Plies(A)[1]; p.Kind != PlyConfiscation || p.SAN != "-f6" || p.UCI != "-f6" || !p.PassesTurn {
				t.Errorf("ply %+v", p)
			}
		}},
		{"A4 §2.4: confiscation of an illegal board move that captured", "4k3/8/8/3r4/8/8/8/1N2K3[] w - - 0 1", "", nil, func(t *testing.T, m *Match) {
			// The knight jumps b1-d5 like no knight can, taking the rook.
			fs := play(t, m, A, 1, "b1d5")
			if im := only[*IllegalMove](fs); len(im) != 1 || im[0].Violation != IllegalOther || !im[0].Confiscable {
				t.Fatalf("findings %s", describe(fs))
			}
			// The rook it took has already gone to White's partner (Black on B).
			if pockets(m, B) != "-/R" {
				t.Fatalf("pockets of B %s", pockets(m, B))
			}
			play(t, m, A, 2, "-d5")
			pos := m.Position(A)
			if !pos.At(sq("d5")).IsEmpty() || !pos.At(sq("b1")).IsEmpty() || pockets(m, B) != "N/R" {
				t.Errorf("after the confiscation %s, pockets B %s: the knight leaves d5, b1 stays empty, the knight goes to White on B", pos.FEN(), pockets(m, B))
			}
		}},
		{"A4: confiscation_consumes_turn off: the confiscator still moves", "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", "", map[string]any{"confiscation_consumes_turn": false}, func(t *testing.T, m *Match) {
			play(t, m, A, 1, "N@f6", "-f6")
			if m.Position(A).Turn() != rules.Black || m.Plies(A)[1].PassesTurn {
				t.Fatalf("after the lift %s, ply %+v", m.Position(A).FEN(), m.Plies(A)[1])
			}
			play(t, m, A, 3, "Kd7", "Kd2")
			if len(m.Plies(A)) != 4 {
				t.Errorf("plies %d", len(m.Plies(A)))
			}
		}},
		{"A4: confiscation_scope drops_only: an illegal board move is not confiscated", "4k3/8/8/8/8/8/8/1N2K3[] w - - 0 1", "", map[string]any{"confiscation_scope": "drops_only"}, func(t *testing.T, m *Match) {
			fs := play(t, m, A, 1, "b1b5")
			if im := only[*IllegalMove](fs); len(im) != 1 || im[0].Confiscable {
				t.Fatalf("findings %s", describe(fs))
			}
			fs = play(t, m, A, 2, "-b5")
			if im := only[*IllegalMove](fs); len(im) != 1 || im[0].Violation != IllegalLift || m.Plies(A)[1].Kind != PlyIllegalLift {
				t.Errorf("the lift should be illegal: %s", describe(fs))
			}
			if pockets(m, B) != "-/-" {
				t.Errorf("an illegal lift fed a pocket: %s", pockets(m, B))
			}
		}},
		{"A4: the king is never confiscated", "4k3/8/8/8/8/8/8/4K3[] w - - 0 1", "", nil, func(t *testing.T, m *Match) {
			fs := play(t, m, A, 1, "e1e3")
			if im := only[*IllegalMove](fs); len(im) != 1 || im[0].Confiscable {
				t.Fatalf("findings %s", describe(fs))
			}
			if _, err := m.Complete(A, parse(t, m, A, "-e3"), sec(2)); !errors.Is(err, ErrImpossible) {
				t.Errorf("lifting the king: %v, want ErrImpossible", err)
			}
		}},
		{"A4: the right lapses once the confiscator moves", "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", "", nil, func(t *testing.T, m *Match) {
			play(t, m, A, 1, "N@f6", "Kd7", "Ke2")
			fs := play(t, m, A, 4, "-f6")
			if im := only[*IllegalMove](fs); len(im) != 1 || im[0].Violation != IllegalLift {
				t.Fatalf("findings %s", describe(fs))
			}
		}},
		{"A5: a king left in check; two errors lose once the arbiter confirms", "4k3/8/8/8/1b6/8/8/4K2R[] w - - 0 1", "", nil, func(t *testing.T, m *Match) {
			fs := play(t, m, A, 1, "Rh2")
			im := only[*IllegalMove](fs)
			if len(im) != 1 || im[0].Violation != KingLeftInCheck || im[0].Where().Article != "004 App. I A5" || !strings.Contains(im[0].Message(), "stop the clock") {
				t.Fatalf("findings %s", describe(fs))
			}
			if len(only[*TechnicalError](fs)) != 0 {
				t.Fatal("counted without the arbiter (te_requires_arbiter)")
			}
			white := Side{A, rules.White}
			u, _ := m.ConfirmTE(white, true, sec(2))
			if te := only[*TechnicalError](u.Findings); len(te) != 1 || te[0].Count != 1 || te[0].Proposal != "" {
				t.Fatalf("first: %s", describe(u.Findings))
			}
			u, _ = m.ConfirmTE(white, false, sec(3))
			if te := only[*TechnicalError](u.Findings); len(te) != 1 || te[0].Count != 2 || te[0].Proposal != "0-1" || te[0].Severity() != Warn {
				t.Fatalf("second (A5 and A10 counted together): %s", describe(u.Findings))
			}
			// The arbiter applies it: the match ends, B gets the team's result.
			m.SetResult(A, "0-1", "technical errors", sec(4))
			if m.Result(A).Result != "0-1" || m.Result(B) != (Result{Result: "1-0", Termination: TermPartnerBoard, Article: "004 App. I A11", At: sec(4)}) {
				t.Errorf("results %+v %+v", m.Result(A), m.Result(B))
			}
		}},
		{"R5.2: king_in_check_counts_as_te off: A5 errors have their own count", "", "", map[string]any{"king_in_check_counts_as_te": false}, func(t *testing.T, m *Match) {
			s := Side{B, rules.Black}
			m.ConfirmTE(s, true, sec(1))
			u, _ := m.ConfirmTE(s, false, sec(2))
			if te := only[*TechnicalError](u.Findings); len(te) != 1 || te[0].Count != 1 || te[0].Proposal != "" {
				t.Fatalf("%s", describe(u.Findings))
			}
			if te, a5 := m.TechnicalErrors(s); te != 1 || a5 != 1 {
				t.Errorf("counts %d, %d", te, a5)
			}
		}},
		{"Reg. §11: te_requires_arbiter off counts every violation", "4k3/8/8/8/8/8/8/4K3[NN] w - - 0 1", "", map[string]any{"te_requires_arbiter": false}, func(t *testing.T, m *Match) {
			fs := play(t, m, A, 1, "N@d6", "Kd7", "N@b6")
			te := only[*TechnicalError](fs)
			if len(te) != 2 || te[1].Count != 2 || te[1].Proposal != "0-1" || only[*IllegalMove](fs)[0].Candidate {
				t.Fatalf("%s", describe(fs))
			}
		}},
		{"A6: no promotion; the lifted pawn goes to the lifter's partner", "4k3/P7/8/8/8/8/8/4K3[] w - - 0 1", "", nil, func(t *testing.T, m *Match) {
			fs := play(t, m, A, 1, "a8")
			up := only[*UnpromotedPawn](fs)
			if len(up) != 1 || up[0].Deferred != NotDeferred || up[0].Side != (Side{A, rules.Black}) || up[0].Where().Article != "004 App. I A6" {
				t.Fatalf("findings %s", describe(fs))
			}
			if m.Plies(A)[0].SAN != "a8" {
				t.Errorf("SAN %q", m.Plies(A)[0].SAN)
			}
			play(t, m, A, 2, "-a8")
			if p := m.Plies(A)[1]; p.Kind != PlyRemoval || p.SAN != "-a8" || pockets(m, B) != "P/-" {
				t.Errorf("removal %+v, pockets B %s", p, pockets(m, B))
			}
		}},
		{"A6, R6.6: lifted_last_rank_pawn_to_partner off: out of play", "4k3/P7/8/8/8/8/8/4K3[] w - - 0 1", "", map[string]any{"lifted_last_rank_pawn_to_partner": false}, func(t *testing.T, m *Match) {
			play(t, m, A, 1, "a8", "-a8")
			if pockets(m, B) != "-/-" {
				t.Errorf("pockets B %s", pockets(m, B))
			}
		}},
		{"A6, R6.6(b): captured by a piece, the pawn goes to the partner anyway", "1r2k3/P7/8/8/8/8/8/4K3[] w - - 0 1", "", map[string]any{"lifted_last_rank_pawn_to_partner": false}, func(t *testing.T, m *Match) {
			play(t, m, A, 1, "a8", "Rxa8")
			if pockets(m, B) != "P/-" {
				t.Errorf("pockets B %s", pockets(m, B))
			}
		}},
		{"A6 §2.6 R6.3: the removal waits while in check, then is due", "5nk1/6P1/8/8/8/8/8/4K1R1[] w - - 0 1", "", nil, func(t *testing.T, m *Match) {
			fs := play(t, m, A, 1, "gxf8")
			up := only[*UnpromotedPawn](fs)
			if len(up) != 1 || up[0].Deferred != DeferredCheck || up[0].Severity() != Warn {
				t.Fatalf("findings %s", describe(fs))
			}
			// Black must defend; the lift is no answer to the check.
			fs = play(t, m, A, 2, "-f8")
			if im := only[*IllegalMove](fs); len(im) != 1 || im[0].Violation != IllegalLift {
				t.Fatalf("lift in check: %s", describe(fs))
			}
			m.Reinstate(A, 1, sec(3))
			fs = play(t, m, A, 4, "Kh7", "Kd2")
			up = only[*UnpromotedPawn](fs)
			if len(up) != 1 || !up[0].Due || up[0].Square != sq("f8") {
				t.Fatalf("after the evasion: %s", describe(fs))
			}
			fs = play(t, m, A, 6, "Kh6")
			if im := only[*IllegalMove](fs); len(im) != 1 || im[0].Violation != RemovalDue || im[0].Where().Article != "004 App. I A6 (R6.7)" {
				t.Fatalf("another move while due: %s", describe(fs))
			}
		}},
		{"A6 R6.5: a removal that would expose the king waits", "R2Pk3/8/8/8/8/8/8/4K3[] b - - 0 1", "", nil, func(t *testing.T, m *Match) {
			fs := play(t, m, A, 1, "Kf7")
			if len(only[*IllegalMove](fs)) != 0 {
				t.Fatalf("a move while the removal is illegal is allowed: %s", describe(fs))
			}
		}},
		{"A8: castling with a dropped rook", "4k3/8/8/8/8/8/8/4K3[R] w - - 0 1", "", nil, func(t *testing.T, m *Match) {
			play(t, m, A, 1, "R@h1", "Kd7")
			mv := rules.Move{From: sq("e1"), To: sq("h1"), Flags: rules.FlagCastle}
			u, err := m.Complete(A, mv, sec(3))
			if err != nil {
				t.Fatal(err)
			}
			im := only[*IllegalMove](u.Findings)
			if len(im) != 1 || im[0].Violation != DroppedRookCastles || im[0].Where().Article != "004 App. I A8" || im[0].Confiscable {
				t.Fatalf("findings %s", describe(u.Findings))
			}
		}},
		{"A7: a dropped pawn's double step", "4k3/8/8/8/3p4/8/8/4K3[P] w - - 0 1", "", nil, func(t *testing.T, m *Match) {
			fs := play(t, m, A, 1, "P@e2", "Kd7", "e4", "dxe3")
			if len(only[*IllegalMove](fs)) != 0 || m.Plies(A)[3].Taken.Kind != rules.Pawn || pockets(m, B) != "P/-" {
				t.Fatalf("%s; pockets B %s", describe(fs), pockets(m, B))
			}
		}},
		{"A11: the first mate ends the match; the partner board gets partner_board", "", "", nil, func(t *testing.T, m *Match) {
			play(t, m, B, 0.5, "d4")
			fs := play(t, m, A, 1, "f3", "e5", "g4", "Qh4#")
			cm := only[*Checkmate](fs)
			// Mate with White's (empty) pocket; a drop on g3 would block, so
			// not under any_possible_drop.
			if len(cm) != 1 || !cm[0].Ends || !cm[0].Current || cm[0].AnyDrop || cm[0].Severity() != Crit {
				t.Fatalf("findings %s", describe(fs))
			}
			if r := m.Result(A); r.Result != "0-1" || r.Termination != TermCheckmate || !r.Provisional {
				t.Errorf("A %+v", r)
			}
			if r := m.Result(B); r.Result != "1-0" || r.Termination != TermPartnerBoard {
				t.Errorf("B %+v: Black on A's partner is White on B", r)
			}
			u, err := m.Complete(B, parse(t, m, B, "d5"), sec(5))
			if err != nil || u.Recorded || len(only[*NotRecorded](u.Findings)) != 1 || len(m.Plies(B)) != 1 {
				t.Errorf("a move after the end: %+v %v", u, err)
			}
			// One pressed before the mate but reported after it is recorded.
			if u, _ := m.Complete(B, parse(t, m, B, "d5"), sec(3.5)); !u.Recorded {
				t.Error("a move made before the end was not recorded")
			}
		}},
		{"A11, R9.3: a flag loses whatever the material", "4k3/8/8/8/8/8/8/4K3[] w - - 0 1", "", nil, func(t *testing.T, m *Match) {
			u, _ := m.Flag(B, rules.White, sec(300))
			if m.Result(B).Result != "0-1" || m.Result(B).Termination != TermTime || m.Result(A).Result != "1-0" || !u.Results[A] || !u.Results[B] {
				t.Errorf("results %+v %+v", m.Result(A), m.Result(B))
			}
		}},
		{"R9.7: ends on both boards within the tolerance go to the arbiter", "", "", nil, func(t *testing.T, m *Match) {
			play(t, m, A, 1, "f3", "e5", "g4")
			play(t, m, A, 100, "Qh4#")
			u, _ := m.Flag(B, rules.Black, sec(100.6))
			se := only[*SimultaneousEnd](u.Findings)
			if len(se) != 1 || se[0].Late || se[0].First.Board != A || se[0].Second.Board != B || se[0].Severity() != Crit || se[0].Where().Article != "004 App. I A11 (R9.7)" {
				t.Fatalf("findings %s", describe(u.Findings))
			}
			if m.Result(A).Result != "0-1" || !m.Result(A).Provisional || m.Result(B).Termination != TermPartnerBoard {
				t.Errorf("the earlier end must stand provisionally: %+v %+v", m.Result(A), m.Result(B))
			}
		}},
		{"R9.7: the later-reported end came first", "", "", nil, func(t *testing.T, m *Match) {
			play(t, m, A, 1, "f3", "e5", "g4")
			play(t, m, A, 100, "Qh4#")
			// B's flag fell 0.4 s before the mate, but is reported after it.
			u, _ := m.Flag(B, rules.Black, sec(99.6))
			if se := only[*SimultaneousEnd](u.Findings); len(se) != 1 || se[0].First.Board != B {
				t.Fatalf("findings %s", describe(u.Findings))
			}
			if m.Result(B).Result != "1-0" || m.Result(B).Termination != TermTime || m.Result(A).Termination != TermPartnerBoard || m.Result(A).Result != "0-1" {
				t.Errorf("results %+v %+v", m.Result(A), m.Result(B))
			}
			// Much earlier and reported late: the arbiter hears of it too.
			u, _ = m.Flag(A, rules.White, sec(50))
			if se := only[*SimultaneousEnd](u.Findings); len(se) != 1 || !se[0].Late || m.Result(A).Result != "0-1" || m.Result(A).Termination != TermTime {
				t.Errorf("late end: %s %+v", describe(u.Findings), m.Result(A))
			}
		}},
		{"R9.7: an end after the tolerance changes nothing", "", "", nil, func(t *testing.T, m *Match) {
			play(t, m, A, 1, "f3", "e5", "g4", "Qh4#")
			u, _ := m.Flag(B, rules.Black, sec(10))
			if len(u.Findings) != 0 || m.Result(B).Termination != TermPartnerBoard {
				t.Errorf("%s %+v", describe(u.Findings), m.Result(B))
			}
		}},
		{"A11, R9.6: stalemate is no draw", "k7/8/1K6/8/8/8/8/2Q5[] w - - 0 1", "", nil, func(t *testing.T, m *Match) {
			fs := play(t, m, A, 1, "Qc7")
			if s := only[*Stalemate](fs); len(s) != 1 || m.Result(A).Result != "*" || s[0].Where().Article != "004 App. I A11 (R9.6)" {
				t.Fatalf("%s", describe(fs))
			}
			// A piece from the partner gives Black a move.
			play(t, m, B, 2, "e4", "d5", "exd5")
			if m.Position(A).NumLegalMoves() == 0 {
				t.Error("the pawn from B gives no move")
			}
		}},
		{"A11: threefold repetition on a board, confirmed by the arbiter, draws the match", "", "", nil, func(t *testing.T, m *Match) {
			if _, err := m.ConfirmThreefold(A, sec(1)); !errors.Is(err, ErrBadCommand) {
				t.Fatalf("no repetition yet: %v", err)
			}
			fs := play(t, m, A, 1, "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8")
			if tf := only[*Threefold](fs); len(tf) != 1 || tf[0].Count != 3 {
				t.Fatalf("%s", describe(fs))
			}
			m.ConfirmThreefold(A, sec(10))
			if m.Result(A).Result != Draw || m.Result(B).Result != Draw || m.Result(B).Termination != TermPartnerBoard {
				t.Errorf("%+v %+v", m.Result(A), m.Result(B))
			}
		}},
		{"R9.8: repetition_includes_reserves off: the pockets do not count", "", "", nil, func(t *testing.T, m *Match) {
			play(t, m, A, 1, "Nf3", "Nf6", "Ng1", "Ng8")
			play(t, m, B, 5, "e4", "d5", "exd5") // a black pawn for Black on A
			fs := play(t, m, A, 8, "Nf3", "Nf6", "Ng1", "Ng8")
			if pockets(m, A) != "-/P" || len(only[*Threefold](fs)) != 1 {
				t.Fatalf("pockets %s: %s", pockets(m, A), describe(fs))
			}
		}},
		{"R9.8: repetition_includes_reserves on: a different pocket is another position", "", "", map[string]any{"repetition_includes_reserves": true}, func(t *testing.T, m *Match) {
			play(t, m, A, 1, "Nf3", "Nf6", "Ng1", "Ng8")
			play(t, m, B, 5, "e4", "d5", "exd5")
			if fs := play(t, m, A, 8, "Nf3", "Nf6", "Ng1", "Ng8"); len(only[*Threefold](fs)) != 0 {
				t.Fatalf("%s", describe(fs))
			}
		}},
		{"A11, R9.9: a draw agreed by both teams", "", "", nil, func(t *testing.T, m *Match) {
			m.AgreeDraw(sec(30))
			if m.Result(A).Result != Draw || m.Result(B).Result != Draw {
				t.Errorf("%+v %+v", m.Result(A), m.Result(B))
			}
		}},
		{"A11: draw_modes without team_agreement", "", "", map[string]any{"draw_modes": []any{"threefold_on_board"}}, func(t *testing.T, m *Match) {
			if _, err := m.AgreeDraw(sec(30)); !errors.Is(err, ErrBadCommand) {
				t.Errorf("agreement allowed: %v", err)
			}
		}},
		{"R9.5: mate_definition any_possible_drop: a blockable check is not mate", "7k/6pp/8/8/8/8/8/K6Q[] w - - 0 1", "", map[string]any{"mate_definition": "any_possible_drop"}, func(t *testing.T, m *Match) {
			fs := play(t, m, A, 1, "Qa8+")
			cm := only[*Checkmate](fs)
			if len(cm) != 1 || cm[0].Ends || !cm[0].Current || cm[0].AnyDrop || cm[0].Severity() != Warn || m.Result(A).Result != "*" {
				t.Fatalf("%s", describe(fs))
			}
		}},
		{"R9.5: mate_definition current_reserve: mate with the pocket as it is", "7k/6pp/8/8/8/8/8/K6Q[] w - - 0 1", "", nil, func(t *testing.T, m *Match) {
			fs := play(t, m, A, 1, "Qa8+")
			if cm := only[*Checkmate](fs); len(cm) != 1 || !cm[0].Ends || cm[0].AnyDrop || !strings.Contains(cm[0].Message(), "any_possible_drop") {
				t.Fatalf("%s", describe(fs))
			}
		}},
		{"A11: first_result_ends_match off: each board plays to its end", "", "", map[string]any{"first_result_ends_match": false}, func(t *testing.T, m *Match) {
			play(t, m, A, 1, "f3", "e5", "g4", "Qh4#")
			if m.Result(A).Result != "0-1" || m.Result(B).Result != "*" || m.Ended() {
				t.Fatalf("%+v %+v", m.Result(A), m.Result(B))
			}
			if u, _ := m.Complete(B, parse(t, m, B, "e4"), sec(10)); !u.Recorded {
				t.Error("board B stopped")
			}
		}},
		{"A9: report_long_think", "", "", map[string]any{"report_long_think": "90s"}, func(t *testing.T, m *Match) {
			fs := play(t, m, A, 100, "e4")
			if lt := only[*LongThink](fs); len(lt) != 1 || lt[0].Severity() != Info || lt[0].Think != 100*1e9 {
				t.Fatalf("%s", describe(fs))
			}
			if fs := play(t, m, A, 120, "e5"); len(only[*LongThink](fs)) != 0 {
				t.Errorf("20 s reported: %s", describe(fs))
			}
		}},
		{"promotion standard: a captured promoted piece goes over as a pawn", "4k3/P7/8/8/8/8/8/4K2r[] w - - 0 1", "", map[string]any{"promotion": "standard"}, func(t *testing.T, m *Match) {
			play(t, m, A, 1, "a8=Q+", "Kd7", "Qa7+", "Kd6", "Qa1", "Rxa1+")
			if pockets(m, B) != "P/-" {
				t.Errorf("pockets B %s", pockets(m, B))
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.run(t, newMatch(t, tc.fenA, tc.fenB, tc.overrides))
		})
	}
}

func sq(s string) rules.Square {
	x, err := rules.Chess8x8.ParseSquare(s)
	if err != nil {
		panic(err)
	}
	return x
}
