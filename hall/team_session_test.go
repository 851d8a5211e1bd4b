package hall

import (
	"time"

	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/gamestore"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/rules"

	"github.com/dgtbridge/dgtbridge/rules/adjudicator"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/teamdrop"
)

// TestTeamCapturePassesAtPress: a capture completed on board 1 puts the
// piece into the pocket of the capturer's partner on board 2 at the press;
// the partner drops it (P@e5 read from the board as a piece put on an
// empty square), every MoveEvent carries both pockets and the partner's
// game, and nobody gets a warn or crit alert; the state has the pockets,
// the partner, the per-board PGN (Bughouse, teams, [%pocket]) and the BPGN.
func TestTeamCapturePassesAtPress(t *testing.T) {
	h := newTeamHarness(t, nil, nil)
	h.start()
	h.play(0, "e2e4")
	h.play(1, "g1f3")
	h.play(0, "d7d5")
	h.play(0, "e4d5") // White on 1 takes a black pawn: Black on 2 gets it
	h.play(1, "P@e5")
	a, b := h.moves(0), h.moves(1)
	if len(a) != 3 || len(b) != 2 {
		t.Fatalf("board 1 moves %+v\nboard 2 moves %+v", a, b)
	}
	if got := a[2]; got.SAN != "exd5" || got.Pockets == nil || *got.Pockets != (game.Pockets{}) || got.Partner != "open2026.1.2" {
		t.Errorf("board 1 ply 3: %+v (pockets %v)", got, got.Pockets)
	}
	if got := b[1]; got.SAN != "P@e5" || got.UCI != "P@e5" || got.Pockets == nil || *got.Pockets != (game.Pockets{}) || got.Partner != "open2026.1.1" {
		t.Errorf("board 2 ply 2: %+v (pockets %v)", got, got.Pockets)
	}
	if p := h.s[1].Record().Team.Pockets; p != (game.Pockets{}) {
		t.Errorf("board 2 pockets after the drop %+v", p)
	}
	for b := range 2 {
		if al := h.serious(b); len(al) > 0 {
			t.Errorf("board %d alerts: %+v", b+1, al)
		}
	}
	st := h.s[1].State()
	if got, want := gamerecord.StatePGN(st), h.s[1].Record().PGN(); got != want {
		t.Errorf("the PGN built from the state differs from the record's:\n%s\nwant\n%s", got, want)
	}
	st.PGN = h.s[1].Record().PGN()
	if st.Pockets == nil || st.Partner != "open2026.1.1" || !strings.Contains(st.BPGN, "1b. P@e5") || !strings.Contains(st.PGN, `[Variant "Bughouse"]`) ||
		!strings.Contains(st.PGN, "[%pocket -/-]") || !strings.Contains(st.PGN, `[WhiteTeam "Sài Gòn"]`) {
		t.Errorf("board 2 state: pockets %v partner %q\nBPGN:\n%s\nPGN:\n%s", st.Pockets, st.Partner, st.BPGN, st.PGN)
	}
}

// TestTeamIllegalDrop: a drop of a piece the pocket lacks is recorded as
// it stands and, when no capture on the partner board pressed before it
// is reported within teamdrop.PocketGrace, reported as illegal_move (crit,
// 004 A1/A2 D2), a technical-error candidate; the arbiter's apply_penalty confirms it
// (technical_error, warn, "te": 1); the second confirmed error proposes
// the loss, and applying that ends the match with partner_board on the
// other board.
func TestTeamIllegalDrop(t *testing.T) {
	h := newTeamHarness(t, nil, nil)
	h.start()
	h.play(0, "e2e4")
	h.play(0, "N@f6") // Black on board 1 has nothing to drop
	if ill := h.alerts(0, game.KindIllegalMove); len(ill) != 0 {
		t.Fatalf("reported before a capture on board 2 could have brought the knight: %+v", ill)
	}
	h.wait(teamdrop.PocketGrace)
	ill := h.alerts(0, game.KindIllegalMove)
	if len(ill) != 1 || ill[0].Severity != game.Crit || !strings.Contains(ill[0].Article, "A2") || ill[0].Side != "black" ||
		ill[0].Proposal["technical_error"] != "black" {
		t.Fatalf("illegal drop alerts %+v", ill)
	}
	if mv := h.moves(0); len(mv) != 2 || mv[1].SAN != "N@f6" {
		t.Fatalf("moves %+v", mv)
	}
	st, err := h.s[0].Command(adjudicator.Command{Cmd: "apply_penalty", AlertID: ill[0].ID}, h.at)
	if err != nil {
		t.Fatal(err)
	}
	h.take(0, st)
	if _, err := h.s[0].Command(adjudicator.Command{Cmd: "apply_penalty", AlertID: ill[0].ID}, h.at); err == nil {
		t.Error("a proposal applied twice")
	}
	te := h.alerts(0, game.KindTechnicalError)
	if len(te) != 1 || te[0].TE != 1 || te[0].Severity != game.Warn || te[0].Proposal["result"] != nil {
		t.Fatalf("technical errors %+v", te)
	}
	st, err = h.s[0].Command(adjudicator.Command{Cmd: "apply_penalty", Penalty: "technical_error", Side: "black"}, h.at)
	if err != nil {
		t.Fatal(err)
	}
	h.take(0, st)
	te = h.alerts(0, game.KindTechnicalError)
	if len(te) != 2 || te[1].TE != 2 || te[1].Proposal["result"] != "1-0" {
		t.Fatalf("technical errors %+v", te)
	}
	st, err = h.s[0].Command(adjudicator.Command{Cmd: "apply_penalty", AlertID: te[1].ID}, h.at)
	if err != nil {
		t.Fatal(err)
	}
	h.take(0, st)
	ra, rb := h.results(0), h.results(1)
	if len(ra) == 0 || ra[len(ra)-1].Result != "1-0" || len(rb) == 0 || rb[len(rb)-1].Result != "0-1" || rb[len(rb)-1].Termination != "partner_board" {
		t.Fatalf("results board 1 %+v, board 2 %+v", ra, rb)
	}
	// A move on board 2 after the end is not recorded; the arbiter is told.
	h.play(1, "e2e4")
	if mv := h.moves(1); len(mv) != 0 {
		t.Errorf("board 2 recorded %+v after the end", mv)
	}
	if nr := h.alerts(1, "not_recorded"); len(nr) != 1 {
		t.Errorf("not_recorded alerts %+v", h.alerts(1, ""))
	}
}

// TestTeamRemoval: a pawn reaching the last rank stays a pawn (no
// promotion, 004 A6): the opponent is told (unpromoted_pawn) and lifts it
// off the board; the lift is the move -e8, and the pawn goes to the
// remover's partner on the other board.
func TestTeamRemoval(t *testing.T) {
	oa, ob := teamOptions(t)
	oa.StartFEN = "k7/4P3/8/8/8/8/8/K7[] w - - 0 1"
	ss, err := session.NewTeamSessions(oa, ob, nil, nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	h := &teamHarness{t: t, s: ss, at: t0, clk: [2][2]time.Duration{{5 * time.Minute, 5 * time.Minute}, {5 * time.Minute, 5 * time.Minute}},
		run: [2]rules.Color{rules.NoColor, rules.NoColor}}
	h.start()
	h.play(0, "e7e8")
	if up := h.alerts(0, game.KindUnpromotedPawn); len(up) != 1 || up[0].Side != "black" || up[0].Proposal["remove"] != "e8" {
		t.Fatalf("unpromoted_pawn alerts %+v", h.alerts(0, ""))
	}
	h.play(0, "-e8")
	mv := h.moves(0)
	if len(mv) != 2 || mv[0].SAN != "e8" || mv[1].SAN != "-e8" || mv[1].UCI != "-e8" {
		t.Fatalf("moves %+v", mv)
	}
	if p := h.s[1].Record().Team.Pockets; p.White != "P" {
		t.Errorf("board 2 pockets %+v, want White P", p)
	}
	if st := h.s[1].State(); st.Pockets == nil || st.Pockets.White != "P" {
		t.Errorf("board 2 state pockets %v", st.Pockets)
	}
	for b := range 2 {
		if al := h.serious(b); len(al) > 0 {
			t.Errorf("board %d alerts: %+v", b+1, al)
		}
	}
}

// TestTeamMateEndsMatch: a mate on board 1 ends the match (004 A11): board
// 1's Result is checkmate (provisional, crit alert proposing it), board
// 2's the team's result with termination partner_board; a move completed
// on board 2 afterwards is not recorded and the arbiter is told.
func TestTeamMateEndsMatch(t *testing.T) {
	h := newTeamHarness(t, nil, nil)
	h.start()
	h.play(1, "e2e4")
	for _, m := range []string{"f2f3", "e7e5", "g2g4", "d8h4"} {
		h.play(0, m)
	}
	mate := h.alerts(0, game.KindCheckmate)
	if len(mate) != 1 || mate[0].Severity != game.Crit || mate[0].Proposal["result"] != "0-1" {
		t.Fatalf("checkmate alerts %+v", h.alerts(0, ""))
	}
	ra, rb := h.results(0), h.results(1)
	if len(ra) != 1 || ra[0].Result != "0-1" || ra[0].Termination != "checkmate" || !ra[0].Provisional {
		t.Errorf("board 1 results %+v", ra)
	}
	if len(rb) != 1 || rb[0].Result != "1-0" || rb[0].Termination != "partner_board" {
		t.Errorf("board 2 results %+v", rb)
	}
	h.play(1, "e7e5")
	if mv := h.moves(1); len(mv) != 1 {
		t.Errorf("board 2 moves %+v", mv)
	}
	if nr := h.alerts(1, "not_recorded"); len(nr) != 1 || nr[0].Severity != game.Warn {
		t.Errorf("board 2 alerts %+v", h.alerts(1, ""))
	}
	if st := h.s[1].State(); !strings.Contains(st.PGN, `[Termination "partner_board"]`) || !strings.Contains(st.BPGN, "0-1") {
		t.Errorf("board 2 PGN:\n%s\nBPGN:\n%s", st.PGN, st.BPGN)
	}
}

// TestTeamRestart: both records saved mid-match and loaded again rebuild
// the match: the pockets are intact, ply numbers go on, and the piece in
// the pocket can be dropped after the restart.
func TestTeamRestart(t *testing.T) {
	dir := t.TempDir()
	h := newTeamHarness(t, nil, nil)
	h.start()
	h.play(0, "e2e4")
	h.play(0, "d7d5")
	h.play(0, "e4d5")
	h.play(1, "g1f3")
	for _, s := range h.s {
		if err := gamestore.SaveRecord(dir, s.Record()); err != nil {
			t.Fatal(err)
		}
	}
	var recs [2]*gamerecord.Record
	for i, s := range h.s {
		r, ok, err := gamestore.LoadRecord(dir, s.Record().Info.Game)
		if err != nil || !ok {
			t.Fatalf("load: %v %v", ok, err)
		}
		recs[i] = r
	}
	h2 := newTeamHarness(t, recs[0], recs[1])
	h2.at = h.at
	h2.clk = h.clk
	h2.reconnect()
	if p := h2.s[1].Record().Team.Pockets; p.Black != "P" {
		t.Fatalf("board 2 pockets after the restart %+v", p)
	}
	h2.play(1, "P@e5")
	mv := h2.moves(1)
	if len(mv) != 1 || mv[0].Ply != 2 || mv[0].SAN != "P@e5" || mv[0].Pockets.Black != "" {
		t.Fatalf("board 2 moves after the restart %+v", mv)
	}
	h2.play(0, "d8d5")
	if mv := h2.moves(0); len(mv) != 1 || mv[0].Ply != 4 || mv[0].SAN != "Qxd5" {
		t.Fatalf("board 1 moves after the restart %+v", mv)
	}
	if p := h2.s[1].Record().Team.Pockets; p.White != "P" {
		t.Errorf("board 2 pockets %+v, want White P", p)
	}
	for b := range 2 {
		if al := h2.serious(b); len(al) > 0 {
			t.Errorf("board %d alerts: %+v", b+1, al)
		}
	}
}

// TestTeamReinstate: the arbiter reinstates board 1 before a capture: the
// piece leaves the partner's pocket on board 2 (pockets_corrected, warn);
// when the partner had already dropped it, board_mismatch (crit) names the
// drop.
func TestTeamReinstate(t *testing.T) {
	h := newTeamHarness(t, nil, nil)
	h.start()
	h.play(0, "e2e4")
	h.play(0, "d7d5")
	h.play(0, "e4d5")
	h.play(1, "g1f3")
	h.play(0, "d8d5")
	h.play(1, "P@e5")
	ply := 2
	st, err := h.s[0].Command(adjudicator.Command{Cmd: "reinstate", Ply: &ply}, h.at)
	if err != nil {
		t.Fatal(err)
	}
	h.take(0, st)
	if pc := h.alerts(1, "pockets_corrected"); len(pc) != 1 || pc[0].Severity != game.Warn {
		t.Errorf("board 2 pockets_corrected %+v", h.alerts(1, ""))
	}
	if bm := h.alerts(1, game.KindBoardMismatch); len(bm) != 1 || bm[0].Severity != game.Crit {
		t.Errorf("board 2 board_mismatch %+v", h.alerts(1, ""))
	}
	if n := len(h.s[0].Record().Moves); n != 2 {
		t.Errorf("board 1 has %d moves after the reinstatement", n)
	}
	if p := h.s[1].Record().Team.Pockets; p != (game.Pockets{}) {
		t.Errorf("board 2 pockets %+v", p)
	}
	// Board 1 is set back on the board and play goes on from ply 2.
	h.place(0, "d5", rules.NoPiece)
	h.place(0, "d8", rules.Piece{Color: rules.Black, Kind: rules.Queen})
	h.place(0, "d5", rules.Piece{Color: rules.Black, Kind: rules.Pawn})
	h.place(0, "e4", rules.Piece{Color: rules.White, Kind: rules.Pawn})
	h.wait(time.Second)
	h.play(0, "g1f3")
	if mv := h.moves(0); mv[len(mv)-1].Ply != 3 || mv[len(mv)-1].SAN != "Nf3" {
		t.Errorf("board 1 moves %+v", mv)
	}
}
