package chess

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/internal/fsf"
	"github.com/dgtbridge/dgtbridge/rules"
)

// teamDropINI is the 004 "Cờ đặt" board as a Fairy-Stockfish variant
// (Fairy-Stockfish's bughouse perft): crazyhouse whose captures do not enter
// the capturer's pocket (the pockets are given in the FEN, as our
// perft --variant team-drop reads them), no drop giving check (D3), no drop
// on the dropper's last rank (D4: White's region ranks 1–7, Black's 2–8),
// no pawn drop on the first rank (D5; crazyhouse already keeps pawns off
// the last), no promotion: a pawn may step onto the last rank and stays a
// pawn ("-" because FSF 11.1 ignores an empty value).
//
// What FSF cannot express is the removal obligation of A6: in FSF a pawn on
// the last rank just stands there, and its opponent moves freely; in ours
// the opponent's moves are then the lift (-e8, which FSF has no move for)
// and the captures of that pawn, unless in check or unless no removal is
// legal (R6.3, R6.5). TestTeamDropFSF accounts for it exactly: see there.
const teamDropINI = `[teamdrop:crazyhouse]
capturesToHand = false
dropChecks = false
promotionPieceTypes = -
mandatoryPawnPromotion = false
whiteDropRegion = *1 *2 *3 *4 *5 *6 *7
blackDropRegion = *2 *3 *4 *5 *6 *7 *8
firstRankPawnDrops = false
`

// startTeamDropFSF starts Fairy-Stockfish with teamDropINI loaded.
func startTeamDropFSF(t *testing.T) *fsf.Engine {
	t.Helper()
	ini := filepath.Join(t.TempDir(), "variants.ini")
	if err := os.WriteFile(ini, []byte(teamDropINI), 0o644); err != nil {
		t.Fatal(err)
	}
	e := fsf.Start(t, 10*time.Minute, "VariantPath", ini, "UCI_Variant", "teamdrop")
	// Its start position has pockets only if the variant was loaded; an
	// unknown name would leave it at chess.
	e.Send(t, "position startpos")
	e.Send(t, "d")
	for _, l := range e.Until(t, "Checkers") {
		if strings.HasPrefix(l, "Fen:") && strings.Contains(l, "[]") {
			return e
		}
	}
	t.Fatalf("fairy-stockfish did not load the teamdrop variant from %s", ini)
	return nil
}

// randomTeamDropPositions plays seeded random team-drop games, putting a
// random piece into the mover's pocket a third of the time (as the partner
// board would) and preferring pawn moves so that pawns reach the last rank
// and the removal obligation comes up.
func randomTeamDropPositions(r *rand.Rand, games, plies int) []*Position {
	kinds := []rules.Kind{rules.Pawn, rules.Knight, rules.Bishop, rules.Rook, rules.Queen}
	var out []*Position
	for g := 0; g < games; g++ {
		p := StartPosition(TeamDrop)
		for ply := 0; ply < plies; ply++ {
			if r.IntN(3) == 0 {
				k := kinds[r.IntN(len(kinds))]
				p = p.WithPocket(p.Turn(), k, p.Pocket(p.Turn(), k)+1)
			}
			out = append(out, p)
			legal := p.LegalMoves(nil)
			if len(legal) == 0 {
				break
			}
			m := legal[r.IntN(len(legal))]
			for _, c := range legal {
				if (p.At(c.From).Kind == rules.Pawn || c.Flags&rules.FlagRemove != 0) && r.IntN(3) == 0 {
					m = c
					break
				}
			}
			p, _ = p.PlayMove(m)
		}
	}
	return out
}

// teamDropExpected returns the moves our generator must produce in p, given
// Fairy-Stockfish's moves there: FSF's moves when no pawn of the opponent
// stands on the mover's first rank, when the mover is in check (R6.3) or
// when no removal is legal (R6.5); otherwise (A6) the lifts of those pawns
// that do not expose the king, plus FSF's moves that capture one of them.
func teamDropExpected(p *Position, fsf map[string]uint64) map[string]bool {
	want := map[string]bool{}
	stuck := p.stuckPawns()
	if stuck == 0 || p.InCheck() {
		for m := range fsf {
			want[m] = true
		}
		return want
	}
	us := int(p.turn)
	for s := stuck; s != 0; s &= s - 1 {
		sq := lsb(s)
		if !p.attacked(p.kingSq(us), us^1, p.occupied()^sqBB(sq)) {
			want["-"+sqName(sq)] = true
		}
	}
	for m := range fsf {
		if !strings.Contains(m, "@") && len(m) >= 4 {
			if to, err := rules.Chess8x8.ParseSquare(m[2:4]); err == nil && stuck&sqBB(int(to)) != 0 {
				want[m] = true
			}
		}
	}
	if len(want) == 0 {
		for m := range fsf {
			want[m] = true
		}
	}
	return want
}

// TestTeamDropFSF cross-checks the team-drop move generator with
// Fairy-Stockfish 11.1 and the variant definition teamDropINI, on
// seeded random team-drop positions and a few hand-picked ones:
//
//   - every position: our legal moves against FSF's depth-1 list, with the
//     removal obligation applied to FSF's list by teamDropExpected (the
//     one rule FSF cannot express);
//   - the positions where the obligation cannot arise within the search
//     (no pawn on its seventh or last rank) and that have at most 80
//     moves: perft 3, root move by root move.
func TestTeamDropFSF(t *testing.T) {
	f := startTeamDropFSF(t)
	r := rand.New(rand.NewPCG(15, 2026))
	games, plies := 40, 90
	if testing.Short() {
		games = 12
	}
	positions := randomTeamDropPositions(r, games, plies)
	for _, fen := range []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Nn] w KQkq - 0 1",            // D3 knight squares
		"4k3/P7/8/8/8/8/8/4K3[QRBNP] w - - 0 1",                                   // D4, D5, arrival on a8
		"4k3/8/8/8/8/8/8/R3K2R[QRBNPqrbnp] b KQ - 0 1",                            // Black's D4 is rank 1
		"4k3/8/8/8/1b6/8/8/4K3[NP] w - - 0 1",                                     // interposing drops in check
		"3qk3/8/8/8/8/8/8/4K3[BP] w - - 0 1",                                      // a drop that blocks check and gives check
		"4k3/8/8/8/8/8/8/4K3[P] w - - 0 1",                                        // pawn drops on rank 2 only to 7
		"rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPP1PPP/RNBQKBNR[P] w KQkq - 0 3",           // P@e2, then e4 allows dxe3 e.p.
		"r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K1R1[R] w Qkq - 0 1",                   // a rook on h1 would not castle
		"5nk1/6P1/8/8/8/8/8/4K1R1[] w - - 0 1",                                    // gxf8 with discovered check (R6.3)
		"R2Pk3/8/8/8/8/8/8/4K3[] b - - 0 1",                                       // removal exposes the king (R6.5)
		"Pr2k3/8/8/8/8/8/8/4K3[] b - - 0 1",                                       // removal or capture
		"2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1",                               // crazyhouse perft position, full pockets
		"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR[] w KQkq d6 0 2",         // the bughouse perft row, no pockets
		"r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq - 0 1", // the crazyhouse perft row, no pockets
	} {
		p := mustPos(t, TeamDrop, fen)
		positions = append(positions, p)
		for _, m := range p.LegalMoves(nil) {
			c, _ := p.PlayMove(m)
			positions = append(positions, c)
		}
	}

	agree, moves, obliged, perfts := 0, 0, 0, 0
	var perftNodes uint64
	for _, p := range positions {
		fen := p.FEN()
		fsf := f.Divide(t, fen, 1)
		want := teamDropExpected(p, fsf)
		got := map[string]bool{}
		for _, m := range p.LegalMoves(nil) {
			got[p.UCI(m)] = true
		}
		if len(want) != len(fsf) {
			obliged++
		}
		if d := diffSets(got, want); d != "" {
			t.Errorf("%s: %s", fen, d)
			continue
		}
		agree++
		moves += len(got)

		if len(got) > 80 || !noPawnNearLastRank(p) || r.IntN(4) != 0 {
			continue
		}
		ours := map[string]uint64{}
		for _, e := range p.Divide(3) {
			ours[e.UCI] = e.Nodes
		}
		theirs := f.Divide(t, fen, 3)
		var total uint64
		for m, n := range theirs {
			total += n
			if ours[m] != n {
				t.Errorf("%s: perft 3 below %s: ours %d, fairy-stockfish %d", fen, m, ours[m], n)
			}
		}
		if len(ours) != len(theirs) {
			t.Errorf("%s: perft 3 root moves: ours %d, fairy-stockfish %d", fen, len(ours), len(theirs))
		}
		if got := p.Perft(3); got != total {
			t.Errorf("%s: perft 3 ours %d, fairy-stockfish %d", fen, got, total)
		}
		perfts++
		perftNodes += total
	}
	t.Logf("fairy-stockfish agrees on %d of %d positions (%d moves; %d positions with the removal obligation applied to its list); perft 3 on %d positions, %d leaf nodes",
		agree, len(positions), moves, obliged, perfts, perftNodes)
	if obliged == 0 || perfts < 20 {
		t.Errorf("the positions exercised the removal obligation %d times and perft 3 %d times: too few", obliged, perfts)
	}
}

// noPawnNearLastRank reports whether no pawn stands on its seventh or last
// rank, so that in a search of depth 3 no pawn reaches the last rank before
// the leaves, and the removal obligation plays no part.
func noPawnNearLastRank(p *Position) bool {
	return (p.bb[white][pawn]&(rank7|rank8))|(p.bb[black][pawn]&(rank2|rank1)) == 0
}

func diffSets(got, want map[string]bool) string {
	var missing, extra []string
	for m := range want {
		if !got[m] {
			missing = append(missing, m)
		}
	}
	for m := range got {
		if !want[m] {
			extra = append(extra, m)
		}
	}
	if len(missing)+len(extra) == 0 {
		return ""
	}
	slices.Sort(missing)
	slices.Sort(extra)
	return fmt.Sprintf("missing %v, extra %v", missing, extra)
}
