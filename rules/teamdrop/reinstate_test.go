package teamdrop

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
)

// TestReinstate covers corrections: a board taken back updates the other
// board's pockets, with findings.
func TestReinstate(t *testing.T) {
	t.Run("an undone capture leaves the partner's pocket", func(t *testing.T) {
		m := newMatch(t, "", "", nil)
		play(t, m, A, 1, "e4", "d5", "exd5")
		if pockets(m, B) != "-/P" {
			t.Fatalf("pockets B %s", pockets(m, B))
		}
		u, err := m.Reinstate(A, 2, sec(5))
		if err != nil {
			t.Fatal(err)
		}
		pc := only[*PocketsCorrected](u.Findings)
		if len(pc) != 1 || pc[0].Where().Board != B || pc[0].Before[1].String() != "P" || !pc[0].After[1].Empty() || !u.Pockets[A] || !u.Pockets[B] {
			t.Fatalf("findings %s, update %+v", describe(u.Findings), u)
		}
		if len(m.Plies(A)) != 2 || pockets(m, B) != "-/-" || m.Position(A).Turn() != rules.White {
			t.Errorf("after: %d plies, %s", len(m.Plies(A)), m.Position(A).FEN())
		}
		// Play goes on from the reinstated position.
		play(t, m, A, 6, "Nc3")
	})
	t.Run("a dropped piece whose capture was undone is a board_mismatch", func(t *testing.T) {
		m := newMatch(t, "", "", nil)
		play(t, m, A, 1, "e4", "d5", "exd5")
		play(t, m, B, 4, "e4", "P@d5")
		u, _ := m.Reinstate(A, 2, sec(10))
		bm := only[*BoardMismatch](u.Findings)
		if len(bm) != 1 || bm[0].Where().Board != B || bm[0].Piece != (rules.Piece{Color: rules.Black, Kind: rules.Pawn}) || bm[0].Severity() != Crit {
			t.Fatalf("findings %s", describe(u.Findings))
		}
		// The pawn stays on B (it is there), the pocket is empty and owes it.
		if m.Position(B).At(sq("d5")).Kind != rules.Pawn || pockets(m, B) != "-/-" || m.st.debt[B][rules.Black][rules.Pawn] != 1 {
			t.Errorf("B %s, pockets %s", m.Position(B).FEN(), pockets(m, B))
		}
		// The next black pawn White on A takes settles it.
		fs := play(t, m, A, 11, "exd5")
		if len(only[*PocketSettled](fs)) != 1 || pockets(m, B) != "-/-" {
			t.Errorf("%s, pockets %s", describe(fs), pockets(m, B))
		}
	})
	t.Run("a board's own undone drop goes back to its pocket", func(t *testing.T) {
		m := newMatch(t, "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", "", nil)
		play(t, m, A, 1, "N@c3")
		u, _ := m.Reinstate(A, 0, sec(2))
		if pockets(m, A) != "N/-" || len(only[*PocketsCorrected](u.Findings)) != 1 {
			t.Errorf("pockets A %s, %s", pockets(m, A), describe(u.Findings))
		}
	})
	t.Run("an undone mate is no end", func(t *testing.T) {
		m := newMatch(t, "", "", nil)
		play(t, m, A, 1, "f3", "e5", "g4", "Qh4#")
		u, _ := m.Reinstate(A, 3, sec(5))
		if m.Result(A).Result != "*" || m.Result(B).Result != "*" || !u.Results[A] || !u.Results[B] {
			t.Errorf("results %+v %+v", m.Result(A), m.Result(B))
		}
	})
	t.Run("beyond the record", func(t *testing.T) {
		m := newMatch(t, "", "", nil)
		if _, err := m.Reinstate(A, 1, sec(1)); !errors.Is(err, ErrBadCommand) {
			t.Errorf("%v", err)
		}
	})
}

func TestImpossibleMoves(t *testing.T) {
	m := newMatch(t, "4k3/8/8/8/8/8/2p5/4K3[N] w - - 0 1", "", nil)
	for _, mv := range []rules.Move{
		{From: rules.NoSquare, To: sq("c2"), Drop: rules.Knight, Flags: rules.FlagDrop}, // occupied
		{From: sq("a1"), To: sq("a2")},                                // no piece
		{From: sq("e8"), To: sq("e7")},                                // not the mover's
		{From: sq("e8"), To: rules.NoSquare, Flags: rules.FlagRemove}, // a king
		{From: sq("a5"), To: rules.NoSquare, Flags: rules.FlagRemove}, // nothing there
	} {
		before := m.Position(A).FEN()
		if _, err := m.Complete(A, mv, sec(1)); !errors.Is(err, ErrImpossible) {
			t.Errorf("%+v: %v, want ErrImpossible", mv, err)
		}
		if m.Position(A).FEN() != before || len(m.Plies(A)) != 0 {
			t.Errorf("%+v changed the match", mv)
		}
	}
	if _, err := New(teamRules(t, nil), "8/8 w", "", t0); err == nil {
		t.Error("a bad FEN was accepted")
	}
}

// TestSequence: the plies of both boards in press order, each with the
// pockets after its press.
func TestSequence(t *testing.T) {
	m := newMatch(t, "", "", nil)
	play(t, m, A, 1, "e4")
	play(t, m, B, 2, "d4")
	play(t, m, A, 3, "d5", "exd5")
	play(t, m, B, 5, "P@e5")
	var got []string
	for _, p := range m.Sequence() {
		got = append(got, p.Board.String()+":"+p.SAN+":"+dash(p.Pockets[0])+"/"+dash(p.Pockets[1]))
	}
	want := []string{"A:e4:-/-", "B:d4:-/-", "A:d5:-/-", "A:exd5:-/-", "B:P@e5:-/-"}
	if len(got) != len(want) {
		t.Fatalf("%v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: %s, want %s", i, got[i], want[i])
		}
	}
	// The black pawn taken on A was in Black's pocket on B from A's press
	// until the drop.
	if m.Plies(A)[2].Pockets != [2]Pocket{} || m.Plies(B)[0].Pockets != [2]Pocket{} {
		t.Error("pockets of the plies")
	}
}

// TestRandomMatches plays seeded random matches on both boards, with
// illegal drops and moves now and then, confiscations, removals and
// reinstatements, and checks after every step that no piece is lost or
// made: on the boards, in the pockets and out of play, less what the
// pockets owe, each colour has what it started with; and that replaying
// the log (a reinstatement that removes nothing) gives the same boards.
func TestRandomMatches(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 4))
	games := 30
	if testing.Short() {
		games = 10
	}
	moves, illegal, lifts, reinstated, ends := 0, 0, 0, 0, 0
	for g := 0; g < games; g++ {
		var o map[string]any
		if g%2 == 1 {
			o = map[string]any{"lifted_last_rank_pawn_to_partner": false, "confiscation_consumes_turn": false}
		}
		m := newMatch(t, "", "", o)
		want := census(m)
		at := 0.0
		for step := 0; step < 300 && !m.Ended(); step++ {
			at += 0.5 + r.Float64()*3
			b := Board(r.IntN(2))
			pos := m.Position(b)
			legal := pos.LegalMoves(nil)
			var mv rules.Move
			switch k := r.IntN(20); {
			case k == 0 && step > 10:
				n := r.IntN(len(m.Plies(b)) + 1)
				if _, err := m.Reinstate(b, n, sec(at)); err != nil {
					t.Fatal(err)
				}
				reinstated++
				checkCensus(t, m, want, "reinstate")
				continue
			case k == 1:
				// An illegal drop: any kind on an empty square.
				empty := []rules.Square{}
				for s := rules.Square(8); s < 56; s++ {
					if pos.At(s).IsEmpty() {
						empty = append(empty, s)
					}
				}
				mv = rules.Move{From: rules.NoSquare, To: empty[r.IntN(len(empty))], Drop: rules.Kind(1 + r.IntN(5)), Flags: rules.FlagDrop}
			case k == 2 && len(m.Plies(b)) > 0 && m.Plies(b)[len(m.Plies(b))-1].Illegal:
				last := m.Plies(b)[len(m.Plies(b))-1]
				if last.Move.To == rules.NoSquare || pos.At(last.Move.To).IsEmpty() || pos.At(last.Move.To).Color == pos.Turn() || pos.At(last.Move.To).Kind == rules.King {
					continue
				}
				mv = rules.Move{From: last.Move.To, To: rules.NoSquare, Flags: rules.FlagRemove}
				lifts++
			case k == 5 && r.IntN(40) == 0:
				if _, err := m.Flag(b, rules.Color(r.IntN(2)), sec(at)); err != nil {
					t.Fatal(err)
				}
				ends++
				continue
			case k == 4 && r.IntN(4) == 0:
				if _, err := m.ConfirmTE(Side{b, rules.Color(r.IntN(2))}, r.IntN(2) == 0, sec(at)); err != nil {
					t.Fatal(err)
				}
				continue
			case k == 3:
				// A lift of any of the opponent's pieces.
				var theirs []rules.Square
				for s := rules.Square(0); s < 64; s++ {
					if p := pos.At(s); !p.IsEmpty() && p.Color != pos.Turn() && p.Kind != rules.King {
						theirs = append(theirs, s)
					}
				}
				if len(theirs) == 0 {
					continue
				}
				mv = rules.Move{From: theirs[r.IntN(len(theirs))], To: rules.NoSquare, Flags: rules.FlagRemove}
				lifts++
			default:
				if len(legal) == 0 {
					continue
				}
				mv = legal[r.IntN(len(legal))]
				for _, c := range legal {
					if (c.IsCapture() || c.IsDrop() || c.Flags&rules.FlagRemove != 0) && r.IntN(2) == 0 {
						mv = c
						break
					}
				}
			}
			u, err := m.Complete(b, mv, sec(at))
			if errors.Is(err, ErrImpossible) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			moves++
			if len(only[*IllegalMove](u.Findings)) > 0 {
				illegal++
			}
			checkCensus(t, m, want, pos.UCI(mv))
			if step%25 == 0 {
				checkReplay(t, m)
			}
		}
		checkReplay(t, m)
		checkRestore(t, m, o)
	}
	t.Logf("%d matches, %d moves (%d illegal, %d lifts), %d reinstatements, %d flags; each restored from its events", games, moves, illegal, lifts, reinstated, ends)
	if illegal == 0 || lifts == 0 || reinstated == 0 {
		t.Error("the random matches did not exercise illegal moves, lifts and reinstatements")
	}
}

// census counts, by colour and kind, the pieces on both boards, in the
// pockets and out of play, less what the pockets owe.
func census(m *Match) [2]Pocket {
	var c [2]Pocket
	add := func(col rules.Color, k rules.Kind, n int) { c[col][k] = uint8(int(c[col][k]) + n) }
	for b := A; b <= B; b++ {
		pos := m.Position(b)
		for s := rules.Square(0); s < 64; s++ {
			if p := pos.At(s); !p.IsEmpty() && p.Kind != rules.King {
				add(p.Color, p.Kind, 1)
			}
		}
		for col := rules.White; col <= rules.Black; col++ {
			for k := rules.Pawn; k <= rules.Queen; k++ {
				add(col, k, pos.Pocket(col, k)-int(m.st.debt[b][col][k]))
			}
		}
	}
	for col := rules.White; col <= rules.Black; col++ {
		for k := rules.Pawn; k <= rules.Queen; k++ {
			add(col, k, int(m.st.out[col][k]))
		}
	}
	return c
}

func checkCensus(t *testing.T, m *Match, want [2]Pocket, after string) {
	t.Helper()
	if got := census(m); got != want {
		t.Fatalf("after %s: pieces %v, want %v\nA %s\nB %s", after, got, want, m.Position(A).FEN(), m.Position(B).FEN())
	}
}

// checkReplay reinstates each board at its last ply (nothing removed):
// the match must be unchanged.
func checkReplay(t *testing.T, m *Match) {
	t.Helper()
	fens := [2]string{m.Position(A).FEN(), m.Position(B).FEN()}
	res := [2]Result{m.Result(A), m.Result(B)}
	u, err := m.Reinstate(A, len(m.Plies(A)), sec(9999))
	if err != nil {
		t.Fatal(err)
	}
	if m.Position(A).FEN() != fens[0] || m.Position(B).FEN() != fens[1] || m.Result(A) != res[0] || m.Result(B) != res[1] ||
		len(only[*PocketsCorrected](u.Findings))+len(only[*BoardMismatch](u.Findings)) != 0 {
		t.Fatalf("replaying the log changed the match:\nA %s → %s\nB %s → %s\n%s", fens[0], m.Position(A).FEN(), fens[1], m.Position(B).FEN(), describe(u.Findings))
	}
}

// checkRestore rebuilds the match from its events, through JSON, and
// compares everything a daemon publishes.
func checkRestore(t *testing.T, m *Match, overrides map[string]any) {
	t.Helper()
	data, err := json.Marshal(m.Events())
	if err != nil {
		t.Fatal(err)
	}
	var events []Event
	if err := json.Unmarshal(data, &events); err != nil {
		t.Fatal(err)
	}
	r, err := Restore(teamRules(t, overrides), "", "", t0, events)
	if err != nil {
		t.Fatal(err)
	}
	for b := A; b <= B; b++ {
		if r.Position(b).FEN() != m.Position(b).FEN() || r.Result(b) != m.Result(b) || len(r.Plies(b)) != len(m.Plies(b)) {
			t.Fatalf("board %s restored as %s %+v, was %s %+v", b, r.Position(b).FEN(), r.Result(b), m.Position(b).FEN(), m.Result(b))
		}
		for c := rules.White; c <= rules.Black; c++ {
			te1, a1 := r.TechnicalErrors(Side{b, c})
			te2, a2 := m.TechnicalErrors(Side{b, c})
			if te1 != te2 || a1 != a2 {
				t.Fatalf("technical errors of %s restored %d/%d, were %d/%d", Side{b, c}, te1, a1, te2, a2)
			}
		}
	}
	s1, s2 := r.Sequence(), m.Sequence()
	if len(s1) != len(s2) {
		t.Fatalf("sequence %d plies restored, %d were", len(s1), len(s2))
	}
	for i := range s1 {
		if s1[i].SAN != s2[i].SAN || s1[i].Board != s2[i].Board || s1[i].Pockets != s2[i].Pockets {
			t.Fatalf("ply %d restored as %+v, was %+v", i, s1[i], s2[i])
		}
	}
}

// BenchmarkComplete: one completed move through the match (legality,
// pockets, the position judged), in a middle game with pockets.
func BenchmarkComplete(b *testing.B) {
	rs := teamRules(b, nil)
	start := "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[QRBNPqrbnp] b KQkq - 0 1"
	for b.Loop() {
		b.StopTimer()
		m, _ := New(rs, start, "", t0)
		mv := m.Position(A).LegalMoves(nil)[3]
		b.StartTimer()
		if _, err := m.Complete(A, mv, sec(1)); err != nil {
			b.Fatal(err)
		}
	}
}
