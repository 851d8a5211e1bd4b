package xiangqi

import (
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
)

// cycleCase is a position and a cycle of moves played again and again.
type cycleCase struct {
	name  string // the Art. 24 case it illustrates
	fen   string
	cycle string // ICCS moves of one cycle
	// verdict and side expected at the third occurrence; patterns of
	// White (Red) and Black.
	verdict  Verdict
	side     rules.Color
	patterns [2]Pattern
	// marks is the classification of one cycle's moves (see marks).
	marks string
}

// catalogue turns the Article 24 catalogue into
// positions of our own (the law prints move lists without their diagrams,
// and with misprints), each cycle showing the pattern its case names.
var catalogue = []cycleCase{
	{"24.2 perpetual check by one piece: the checker must change",
		"3k3R1/9/9/9/9/9/9/9/9/5K3 b - - 0 1", "d9d8 h9h8 d8d9 h8h9",
		MustChange, rules.White, [2]Pattern{PerpetualCheck, NoPattern}, "-c-c"},
	{"24.9 one check one idle move: allowed",
		"3k5/9/7R1/9/9/9/9/9/9/5K3 w - - 0 1", "h7h9 d9d8 h9h7 d8d9",
		Allowed, rules.NoColor, [2]Pattern{NoPattern, NoPattern}, "c---"},
	{"24.8 one check one chase: allowed",
		"3k5/9/9/c8/7R1/9/9/9/9/5K3 w - - 0 1", "h5h9 d9d8 h9h6 a6a5 h6h8 d8d9 h8h5 a5a6",
		Allowed, rules.NoColor, [2]Pattern{NoPattern, NoPattern}, "c-x-c-x-"},
	{"24.14 perpetual chase of an unprotected piece: the chaser must change",
		"3k5/9/9/c8/9/9/9/9/9/R3K4 b - - 0 1", "a6b6 a0b0 b6a6 b0a0",
		MustChange, rules.White, [2]Pattern{PerpetualChase, NoPattern}, "-x-x"},
	{"24.29 two pieces alternately chasing one piece (a horse, then the chariot it uncovers): the chasing side must change",
		"3k5/9/9/c8/9/9/1N7/9/9/R3K4 b - - 0 1", "a6c6 b3a5 c6a6 a5b3",
		MustChange, rules.White, [2]Pattern{PerpetualChase, NoPattern}, "-xxx"},
	{"24.16 cannon and horse alternately chasing one piece (a chariot): the chasing side must change",
		"3k5/9/9/r8/9/9/1N7/B8/9/C3K4 b - - 0 1", "a6c6 b3a5 c6a6 a5b3",
		MustChange, rules.White, [2]Pattern{PerpetualChase, NoPattern}, "-x-x"},
	{"24.20 a cannon chasing a cannon that can take back over the same screen: allowed",
		"3k5/9/9/c8/9/9/1N7/B8/9/C3K4 b - - 0 1", "a6c6 b3a5 c6a6 a5b3",
		Allowed, rules.NoColor, [2]Pattern{NoPattern, NoPattern}, "-xx-"},
	{"24.27 a chariot chasing a crossed soldier, even protected: the chariot side must change",
		"1rr1k4/9/9/9/9/2p6/9/9/9/2RK5 b - - 0 1", "c4b4 c0b0 b4c4 b0c0",
		MustChange, rules.White, [2]Pattern{PerpetualChase, NoPattern}, "-x-x"},
	{"24.13 perpetual attack on a protected piece: allowed",
		"r2k5/2n6/9/c8/9/9/9/9/9/R3K4 b - - 0 1", "a6b6 a0b0 b6a6 b0a0",
		Allowed, rules.NoColor, [2]Pattern{NoPattern, NoPattern}, "----"},
	{"24.11 a cannon may not chase a chariot even protected: the cannon side must change",
		"3k5/9/9/r1r6/9/9/PH7/9/9/C3K4 b - - 0 1", "a6b6 a0b0 b6a6 b0a0",
		MustChange, rules.White, [2]Pattern{PerpetualChase, NoPattern}, "xx-x"},
	{"24.12 one cannon threatening two chariots in turn: allowed",
		"3k5/9/9/rr7/9/9/PH7/9/9/C3K4 w - - 0 1", "a0b0 d9d8 b0a0 d8d9",
		Allowed, rules.NoColor, [2]Pattern{NoPattern, NoPattern}, "x-x-"},
	{"24.17 two chases, one counter-chase (the chased cannon attacks an unprotected horse on one of its moves): the side chasing on every move must change",
		"1N1k5/1C7/9/c8/9/9/9/9/9/R3K4 b - - 0 1", "a6b6 a0b0 b6a6 b0a0",
		MustChange, rules.White, [2]Pattern{PerpetualChase, NoPattern}, "xx-x"},
	{"24.18 one chase, one counter-chase (each side threatens on one of its two moves): allowed",
		"1N1k5/1C7/9/c8/9/9/9/9/9/2R1K4 b - - 0 1", "a6b6 c0b0 b6a6 b0c0",
		Allowed, rules.NoColor, [2]Pattern{NoPattern, NoPattern}, "xx--"},
	{"24.20 a chariot chasing a chariot that can take back: perpetual sacrifice, allowed",
		"3k5/9/9/r8/9/9/9/9/9/R3K4 b - - 0 1", "a6b6 a0b0 b6a6 b0a0",
		Allowed, rules.NoColor, [2]Pattern{NoPattern, NoPattern}, "----"},
}

// playCycle plays fen then the cycle times times and classifies.
func playCycle(t *testing.T, fen, cycle string, times int, o RepetitionOptions) []Finding {
	t.Helper()
	p := mustPos(t, fen)
	var moves []rules.Move
	q := p
	for range times {
		for _, u := range strings.Fields(cycle) {
			m, err := q.ParseMove(u)
			if err != nil {
				t.Fatalf("%s: %v (position %s)", u, err, q.FEN())
			}
			moves = append(moves, m)
			q, _ = q.PlayMove(m)
		}
	}
	fs, err := ClassifyRepetitions(p, moves, o)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

// TestArticle24Catalogue: each case's cycle, played twice, brings its
// first position back a third time: the finding names the side that must
// change (or none); played three times, a side told to change that did not
// gets the proposal of its loss, and other cycles never get a decisive
// proposal.
func TestArticle24Catalogue(t *testing.T) {
	for _, tc := range catalogue {
		t.Run(tc.name, func(t *testing.T) {
			fs := playCycle(t, tc.fen, tc.cycle, 2, RepetitionOptions{})
			if len(fs) != 1 {
				t.Fatalf("%d findings after two cycles, want 1: %+v", len(fs), fs)
			}
			f := fs[0]
			if got := marks(f.Moves); got != tc.marks+tc.marks {
				t.Errorf("the cycle's moves classified %s, want %s twice (c check, x chase, - neither)", got, tc.marks)
			}
			if f.Verdict != tc.verdict || f.Side != tc.side || f.Patterns != tc.patterns || f.Occurrence != 3 {
				t.Fatalf("finding %v side %v patterns %v occurrence %d; want %v %v %v", f.Verdict, f.Side, f.Patterns, f.Occurrence, tc.verdict, tc.side, tc.patterns)
			}
			fs = playCycle(t, tc.fen, tc.cycle, 3, RepetitionOptions{})
			last := fs[len(fs)-1]
			switch tc.verdict {
			case MustChange:
				want := map[rules.Color]string{rules.White: "0-1", rules.Black: "1-0"}[tc.side]
				if len(fs) != 2 || last.Verdict != LossProposed || last.Side != tc.side || last.Result != want {
					t.Fatalf("after a third cycle: %+v, want the proposal %s", fs, want)
				}
			default:
				for _, f := range fs {
					if f.Verdict == LossProposed || f.Verdict == MustChange {
						t.Fatalf("a decisive finding in an allowed cycle: %+v", f)
					}
				}
			}
		})
	}
}

// attackCase is one attack, judged by the forbidden-chase test: the position after
// the attacking side's move (its opponent to move), attacker and target.
type attackCase struct {
	name, fen, attacker, target string
	forbidden                   bool
}

// attacks are the catalogue's rules about what counts as a chase, each on
// a position of its own.
var attacks = []attackCase{
	{"24.14 chariot attacks an unprotected cannon: chase", "3k5/9/9/c8/9/9/9/9/9/R3K4 b - - 0 1", "a0", "a6", true},
	{"24.13/24.31 chariot attacks a really protected cannon: no chase", "r2k5/9/9/c8/9/9/9/9/9/R3K4 b - - 0 1", "a0", "a6", false},
	{"P6/24.11 cannon attacks a really protected chariot: chase", "3k5/9/9/r1r6/9/9/P8/9/9/C3K4 b - - 0 1", "a0", "a6", true},
	{"P6 horse attacks a really protected chariot: chase", "3k5/9/9/r1r6/9/1H7/9/9/9/4K4 b - - 0 1", "b4", "a6", true},
	{"24.30 false protection, the defender pinned by the flying general: chase", "3k5/9/3n5/9/2c6/9/9/9/9/2RK5 b - - 0 1", "c0", "c5", true},
	{"24.15/24.23 the target cannot move (pinned): real protection does not excuse", "3ak4/R3n4/9/9/9/9/9/9/4R4/5K3 b - - 0 1", "a8", "e8", true},
	{"24.15 the same target once it can move again: really protected, no chase", "3ak4/R3n4/9/9/9/9/9/9/9/5K3 b - - 0 1", "a8", "e8", false},
	{"24.20 same kind, the target can take back: no chase", "3k5/9/9/r8/9/9/9/9/9/R3K4 b - - 0 1", "a0", "a6", false},
	{"24.20 Fig. 55 horse whose leg is blocked cannot take back: chase", "3k5/9/9/9/2n6/2p6/1H7/9/9/4K4 b - - 0 1", "b3", "c5", true},
	{"24.21/P3 soldier that has not crossed the river: no chase", "3k5/9/9/p8/9/9/9/9/9/R3K4 b - - 0 1", "a0", "a6", false},
	{"24.21 Fig. 59 crossed unprotected soldier: chase", "3k5/9/9/9/9/p8/9/9/9/R3K4 b - - 0 1", "a0", "a4", true},
	{"24.27 chariot attacks a crossed soldier even protected: chase", "r2k5/9/9/9/9/p8/9/9/9/R3K4 b - - 0 1", "a0", "a4", true},
	{"24.23 horse attacks a chariot, protected or not: chase", "r2k5/9/9/r8/9/1H7/9/9/9/4K4 b - - 0 1", "b4", "a6", true},
}

// TestChaseRules: each attack is judged a forbidden chase or not as its
// case says.
func TestChaseRules(t *testing.T) {
	for _, tc := range attacks {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPos(t, tc.fen)
			a := Chase{Attacker: sqOf(t, tc.attacker), Target: sqOf(t, tc.target)}
			legal := false
			for _, c := range captures(p.nullMove(), int(p.turn)^1) {
				legal = legal || c == a
			}
			if !legal {
				t.Fatalf("%s cannot take %s in %s", tc.attacker, tc.target, tc.fen)
			}
			if got := forbiddenChase(p, a); got != tc.forbidden {
				t.Errorf("forbiddenChase = %v, want %v", got, tc.forbidden)
			}
		})
	}
}

func sqOf(t *testing.T, name string) rules.Square {
	t.Helper()
	s, err := rules.Xiangqi9x10.ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestJudge: the verdict — one violator must change; the same pattern on both
// sides is a mutual draw (7.2(c), Fig. 107, 24.3); check against chase
// makes the checker change, or draws under check_vs_chase = draw.
func TestJudge(t *testing.T) {
	n, ck, ch := NoPattern, PerpetualCheck, PerpetualChase
	for _, tc := range []struct {
		p       [2]Pattern
		cvc     CheckVsChase
		verdict Verdict
		side    rules.Color
	}{
		{[2]Pattern{n, n}, CheckerMustChange, Allowed, rules.NoColor},
		{[2]Pattern{ck, n}, CheckerMustChange, MustChange, rules.White},
		{[2]Pattern{n, ch}, CheckerMustChange, MustChange, rules.Black},
		{[2]Pattern{ck, ck}, CheckerMustChange, MutualDraw, rules.NoColor},
		{[2]Pattern{ch, ch}, CheckerMustChange, MutualDraw, rules.NoColor},
		{[2]Pattern{ch, ck}, CheckerMustChange, MustChange, rules.Black},
		{[2]Pattern{ck, ch}, CheckerMustChange, MustChange, rules.White},
		{[2]Pattern{ck, ch}, CheckVsChaseDraw, MutualDraw, rules.NoColor},
	} {
		if v, s := judge(tc.p, tc.cvc); v != tc.verdict || s != tc.side {
			t.Errorf("judge(%v, %v) = %v %v, want %v %v", tc.p, tc.cvc, v, s, tc.verdict, tc.side)
		}
	}
}

// TestCombinedChase: a general or soldier chasing (P9, 24.24–24.26; the
// general-and-soldier conflict of docs/xiangqi.md) under the three
// king_pawn_combined_chase settings: alone it never chases; with another piece
// chasing on every move it is a chase under the default and AlwaysLoss and not
// under AlwaysDraw; with another piece joining only now and then it is a chase
// only under AlwaysLoss.
func TestCombinedChase(t *testing.T) {
	ks := targetMove{ks: true, ksAny: true}
	other := targetMove{other: true}
	both := targetMove{other: true, ks: true, ksAny: true}
	cycles := map[string][]map[int]targetMove{
		"general alone":         {{7: ks}, {7: ks}},
		"other every move":      {{7: both}, {7: other}},
		"other now and then":    {{7: ks}, {7: both}},
		"two targets in turn":   {{7: other}, {8: other}},
		"one move without it":   {{7: other}, {}},
		"two pieces, one piece": {{7: other}, {7: other, 8: other}},
	}
	want := map[CombinedChase]map[string]bool{
		ByOtherPieces: {"general alone": false, "other every move": true, "other now and then": false, "two targets in turn": false, "one move without it": false, "two pieces, one piece": true},
		AlwaysDraw:    {"general alone": false, "other every move": false, "other now and then": false, "two targets in turn": false, "one move without it": false, "two pieces, one piece": true},
		AlwaysLoss:    {"general alone": false, "other every move": true, "other now and then": true, "two targets in turn": false, "one move without it": false, "two pieces, one piece": true},
	}
	for c, cases := range want {
		for name, w := range cases {
			got, ok := chasedThroughout(cycles[name], c)
			if ok != w || ok && got != 7 {
				t.Errorf("%s under setting %d: chase %v (target %d), want %v", name, c, ok, got, w)
			}
		}
	}
}

// TestRepetitionThreshold: with the threshold at 2 the first recurrence is
// classified; a cycle broken by a change gets no proposal.
func TestRepetitionThreshold(t *testing.T) {
	fs := playCycle(t, catalogue[0].fen, catalogue[0].cycle, 1, RepetitionOptions{Threshold: 2})
	if len(fs) != 1 || fs[0].Verdict != MustChange || fs[0].Occurrence != 2 {
		t.Fatalf("threshold 2: %+v", fs)
	}
	// Red checks twice round, then changes (the chariot stops checking):
	// told to change, never proposed to lose.
	fs = playCycle(t, catalogue[0].fen, catalogue[0].cycle+" "+catalogue[0].cycle+" d9d8 h9h6 d8d9 h6h7 d9d8 h7h6", 1, RepetitionOptions{})
	for _, f := range fs {
		if f.Verdict == LossProposed {
			t.Fatalf("a side that changed got a loss proposal: %+v", f)
		}
	}
	if len(fs) != 1 || fs[0].Verdict != MustChange || fs[0].Side != rules.White || fs[0].Moves[0].Check || !fs[0].Moves[1].Check {
		t.Fatalf("findings %+v", fs)
	}
}

// marks writes a cycle's classification, one letter per move: c check,
// x forbidden chase, b both, - neither.
func marks(ms []MoveClass) string {
	var b strings.Builder
	for _, m := range ms {
		switch {
		case m.Check && len(m.Chases) > 0:
			b.WriteByte('b')
		case m.Check:
			b.WriteByte('c')
		case len(m.Chases) > 0:
			b.WriteByte('x')
		default:
			b.WriteByte('-')
		}
	}
	return b.String()
}

func TestParseRepetitionSettings(t *testing.T) {
	for _, c := range []CheckVsChase{CheckerMustChange, CheckVsChaseDraw} {
		if got, err := ParseCheckVsChase(c.String()); err != nil || got != c {
			t.Errorf("ParseCheckVsChase(%q) = %v, %v", c, got, err)
		}
	}
	for _, c := range []CombinedChase{ByOtherPieces, AlwaysDraw, AlwaysLoss} {
		if got, err := ParseCombinedChase(c.String()); err != nil || got != c {
			t.Errorf("ParseCombinedChase(%q) = %v, %v", c, got, err)
		}
	}
	if c, err := ParseCheckVsChase(""); err != nil || c != CheckerMustChange {
		t.Errorf("default: %v, %v", c, err)
	}
	if _, err := ParseCombinedChase("sometimes"); err == nil || !strings.Contains(err.Error(), "king_pawn_combined_chase") {
		t.Errorf("bad value: %v", err)
	}
}
