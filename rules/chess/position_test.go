package chess

import (
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
)

func TestRepetitionKey(t *testing.T) {
	key := func(v Variant, fen string) rules.RepetitionKey { return mustPos(t, v, fen).RepetitionKey() }
	tests := []struct {
		name  string
		v     Variant
		a, b  string
		equal bool
	}{
		{"e.p. without an enemy pawn ignored", Standard,
			"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
			"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", true},
		{"pseudo-legal but illegal e.p. ignored (pinned on the rank)", Standard,
			"8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1", "8/8/8/8/k2pP2R/8/8/4K3 b - - 0 1", true},
		{"legal e.p. counts", Standard,
			"4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", "4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1", false},
		{"castling rights count", Standard, castleFEN, "r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1", false},
		{"side to move counts", Standard, castleFEN, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", false},
		{"move counters ignored", Standard, castleFEN, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 37 80", true},
		{"pockets count", Crazyhouse, zhFEN, "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", false},
		{"promoted mark counts", Crazyhouse, "4k3/1Q~6/8/8/8/8/8/4K3[] w - - 0 1", "4k3/1Q6/8/8/8/8/8/4K3[] w - - 0 1", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := key(tc.v, tc.a) == key(tc.v, tc.b); got != tc.equal {
				t.Errorf("keys equal = %v, want %v", got, tc.equal)
			}
		})
	}
	// A transposition back to the start has the start's key.
	p := playAll(t, StartPosition(Standard), "Nf3", "Nf6", "Ng1", "Ng8")
	if p.RepetitionKey() != StartPosition(Standard).RepetitionKey() {
		t.Error("start position after Nf3 Nf6 Ng1 Ng8 has another key")
	}
	// BoardKey ignores pockets.
	a, b := mustPos(t, TeamDrop, "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1"), mustPos(t, TeamDrop, "4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1")
	if a.BoardKey() != b.BoardKey() || a.RepetitionKey() == b.RepetitionKey() {
		t.Error("BoardKey must ignore pockets and RepetitionKey must not")
	}
}

func TestCanMate(t *testing.T) {
	tests := []struct {
		name         string
		v            Variant
		fen          string
		white, black bool
	}{
		{"bare kings", Standard, "4k3/8/8/8/8/8/8/4K3 w - - 0 1", false, false},
		{"K+N v K", Standard, "4k3/8/8/8/8/8/8/4KN2 w - - 0 1", false, false},
		{"K+B v K", Standard, "4k3/8/8/8/8/8/8/4KB2 w - - 0 1", false, false},
		{"K+B+B same colour v K", Standard, "4k3/8/8/8/8/4B3/8/2B1K3 w - - 0 1", false, false},
		{"K+B v K+B same colour", Standard, "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", false, false},
		{"K+B v K+B opposite colours", Standard, "2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", true, true},
		{"K+B+B opposite colours v K", Standard, "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", true, false},
		{"K+N+N v K", Standard, "4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1", true, false},
		{"K+N v K+P", Standard, "4k3/4p3/8/8/8/8/8/4KN2 w - - 0 1", true, true},
		{"K+N v K+N", Standard, "4kn2/8/8/8/8/8/8/4KN2 w - - 0 1", true, true},
		{"K+R v K", Standard, "4k3/8/8/8/8/8/8/4KR2 w - - 0 1", true, false},
		{"K+P v K", Standard, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", true, false},
		{"start", Standard, Standard.StartFEN(), true, true},
		{"crazyhouse bare kings", Crazyhouse, "4k3/8/8/8/8/8/8/4K3[] w - - 0 1", false, false},
		{"crazyhouse pocket", Crazyhouse, "4k3/8/8/8/8/8/8/4K3[n] w - - 0 1", true, true},
		{"crazyhouse K+N v K", Crazyhouse, "4k3/8/8/8/8/8/8/4KN2[] w - - 0 1", true, true},
		{"team drop bare kings", TeamDrop, "4k3/8/8/8/8/8/8/4K3[] w - - 0 1", true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPos(t, tc.v, tc.fen)
			if got := p.CanMate(rules.White); got != tc.white {
				t.Errorf("CanMate(white) = %v, want %v", got, tc.white)
			}
			if got := p.CanMate(rules.Black); got != tc.black {
				t.Errorf("CanMate(black) = %v, want %v", got, tc.black)
			}
		})
	}
}

func TestStatus(t *testing.T) {
	tests := []struct {
		name    string
		v       Variant
		fen     string
		want    rules.Status
		inCheck bool
	}{
		{"start", Standard, Standard.StartFEN(), rules.Ongoing, false},
		{"back-rank mate", Standard, "R5k1/5ppp/8/8/8/8/8/4K3 b - - 1 1", rules.Checkmate, true},
		{"fool's mate", Standard, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", rules.Checkmate, true},
		{"stalemate", Standard, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", rules.Stalemate, false},
		{"crazyhouse: a drop blocks", Crazyhouse, "R5k1/5ppp/8/8/8/8/8/4K3[n] b - - 1 1", rules.Ongoing, true},
		{"crazyhouse: empty pocket mates", Crazyhouse, "R5k1/5ppp/8/8/8/8/8/4K3[] b - - 1 1", rules.Checkmate, true},
		{"team drop: blocking drop that checks is illegal", TeamDrop, "6k1/8/8/8/8/4n3/7P/5r1K[R] w - - 0 1", rules.Checkmate, true},
		{"crazyhouse: checking block allowed", Crazyhouse, "6k1/8/8/8/8/4n3/7P/5r1K[R] w - - 0 1", rules.Ongoing, true},
		{"team drop: no blocking drop on the last rank", TeamDrop, "8/8/8/8/8/6K1/8/R6k[n] b - - 1 1", rules.Checkmate, true},
		{"crazyhouse: same drop allowed", Crazyhouse, "8/8/8/8/8/6K1/8/R6k[n] b - - 1 1", rules.Ongoing, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPos(t, tc.v, tc.fen)
			if got := p.Status(); got != tc.want {
				t.Errorf("Status = %v, want %v", got, tc.want)
			}
			if got := p.InCheck(); got != tc.inCheck {
				t.Errorf("InCheck = %v, want %v", got, tc.inCheck)
			}
		})
	}
}

func TestCheckmateAnyDrop(t *testing.T) {
	tests := []struct {
		name string
		v    Variant
		fen  string
		want bool
	}{
		{"empty pocket, blockable check", TeamDrop, "R5k1/5ppp/8/8/8/8/8/4K3[] b - - 1 1", false},
		{"contact mate", TeamDrop, "6k1/5pQp/6pP/8/8/8/8/4K3[] b - - 1 1", true},
		{"only blocks on the last rank", TeamDrop, "8/8/8/8/8/6K1/8/R6k[] b - - 1 1", true},
		{"standard back-rank mate", Standard, "R5k1/5ppp/8/8/8/8/8/4K3 b - - 1 1", true},
		{"not in check", TeamDrop, "4k3/8/8/8/8/8/8/4K3[] b - - 1 1", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := mustPos(t, tc.v, tc.fen).CheckmateAnyDrop(); got != tc.want {
				t.Errorf("CheckmateAnyDrop = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestChess960Numbering(t *testing.T) {
	if got := Chess960Start(518).FEN(); got != Standard.StartFEN() {
		t.Errorf("Chess960Start(518) = %q, want the standard start", got)
	}
	if got := Chess960Start(0).FEN(); !strings.HasPrefix(got, "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq") {
		t.Errorf("Chess960Start(0) = %q, want BBQNNRKR", got)
	}
	if Chess960Start(-1) != nil || Chess960Start(960) != nil {
		t.Error("out-of-range numbers must give nil")
	}
	seen := map[string]bool{}
	for n := 0; n < 960; n++ {
		p := Chess960Start(n)
		back := chess960BackRank(n)
		if seen[back] {
			t.Fatalf("%d: back rank %s repeated", n, back)
		}
		seen[back] = true
		b1, b2 := strings.IndexByte(back, 'B'), strings.LastIndexByte(back, 'B')
		r1, k, r2 := strings.IndexByte(back, 'R'), strings.IndexByte(back, 'K'), strings.LastIndexByte(back, 'R')
		if (b1+b2)%2 == 0 || !(r1 < k && k < r2) {
			t.Fatalf("%d: %s breaks the Chess960 constraints", n, back)
		}
		if got, ok := Chess960Number(p.Placement()); !ok || got != n {
			t.Fatalf("Chess960Number(Chess960Start(%d)) = %d, %v", n, got, ok)
		}
		if p.NumLegalMoves() < 18 {
			t.Fatalf("%d: only %d moves", n, p.NumLegalMoves())
		}
	}
	pl := StartPosition(Standard).Placement()
	pl.Sq[sq("e4")] = pl.Sq[sq("e2")]
	pl.Sq[sq("e2")] = rules.NoPiece
	if _, ok := Chess960Number(pl); ok {
		t.Error("a position after 1.e4 is not a start array")
	}
}

// Guidelines II.3: every castling form, king-takes-rook encoded.
func TestChess960CastlingForms(t *testing.T) {
	tests := []struct {
		name, fen, san string
		move           rules.Move
		wantRank       string // white's first rank after castling
	}{
		{"only the rook moves (king on g1)", "4k3/8/8/8/8/8/8/6KR w H - 0 1", "O-O", mv("g1", "h1"), "5RK1"},
		{"only the rook moves (king on c1)", "4k3/8/8/8/8/8/8/1RK5 w B - 0 1", "O-O-O", mv("c1", "b1"), "2KR4"},
		{"rook already on d1, king passes it", "4k3/8/8/8/8/8/8/3R1K2 w D - 0 1", "O-O-O", mv("f1", "d1"), "2KR4"},
		{"rook already on f1", "4k3/8/8/8/8/8/8/4KR2 w F - 0 1", "O-O", mv("e1", "f1"), "5RK1"},
		{"king and rook swap (h-side)", "4k3/8/8/8/8/8/8/5KR1 w G - 0 1", "O-O", mv("f1", "g1"), "5RK1"},
		{"king and rook swap (a-side)", "4k3/8/8/8/8/8/8/2RK4 w C - 0 1", "O-O-O", mv("d1", "c1"), "2KR4"},
		{"rook lands on an attacked square", "4kr2/8/8/8/8/8/8/6KR w H - 0 1", "O-O", mv("g1", "h1"), "5RK1"},
		{"standard king side", castleFEN, "O-O", mv("e1", "h1"), "R4RK1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPos(t, Chess960, tc.fen)
			m := mustParse(t, p, tc.san)
			if !m.SameAs(tc.move) || !m.IsCastle() {
				t.Fatalf("ParseMove(%s) = %+v, want %+v castling", tc.san, m, tc.move)
			}
			if got := p.SAN(m); got != tc.san {
				t.Errorf("SAN = %q", got)
			}
			if got := p.UCI(m); got != p.UCI(tc.move) || got != sqName(int(tc.move.From))+sqName(int(tc.move.To)) {
				t.Errorf("UCI = %q", got)
			}
			q, err := p.PlayMove(m)
			if err != nil {
				t.Fatal(err)
			}
			fen := q.FEN()
			rank1 := strings.Fields(fen)[0][strings.LastIndexByte(strings.Fields(fen)[0], '/')+1:]
			if rank1 != tc.wantRank {
				t.Errorf("after castling rank 1 = %s, want %s (%s)", rank1, tc.wantRank, fen)
			}
			if q.CastlingRook(rules.White, false) != rules.NoSquare || q.CastlingRook(rules.White, true) != rules.NoSquare {
				t.Error("castling rights survive castling")
			}
		})
	}
	// The king in check may not castle even when it does not move.
	p := mustPos(t, Chess960, "4k1r1/8/8/8/8/8/8/6KR w H - 0 1")
	if err := p.Check(mv("g1", "h1")); err == nil || err.(*rules.IllegalMoveError).Reason != rules.ReasonCastleOutOfCheck {
		t.Errorf("castling out of check: %v", err)
	}
	// Removing the castling rook may open a line onto the king's square.
	p = mustPos(t, Chess960, "4k3/8/8/8/8/8/8/qRK5 w B - 0 1")
	if err := p.Check(mv("c1", "b1")); err == nil || err.(*rules.IllegalMoveError).Reason != rules.ReasonCastleIntoCheck {
		t.Errorf("castling uncovering an attack: %v", err)
	}
}

func TestFromPlacement(t *testing.T) {
	start := StartPosition(Standard)
	p, err := FromPlacement(Standard, start.Placement(), rules.White)
	if err != nil || p.FEN() != start.FEN() {
		t.Fatalf("FromPlacement(start) = %v, %v", p, err)
	}
	// Rights only where king and rook stand on their squares.
	q := mustPos(t, Standard, "r3k3/8/8/8/8/8/8/4K2R w - - 0 1")
	p, err = FromPlacement(Standard, q.Placement(), rules.Black)
	if err != nil || p.FEN() != "r3k3/8/8/8/8/8/8/4K2R b Kq - 0 1" {
		t.Fatalf("FromPlacement = %v, %v", p, err)
	}
	// Chess960: the outermost rooks on each side.
	c := Chess960Start(0)
	p, err = FromPlacement(Chess960, c.Placement(), rules.White)
	if err != nil || p.FEN() != c.FEN() {
		t.Fatalf("FromPlacement(960 #0) = %v, %v", p, err)
	}
	// Drop variants get empty pockets.
	p, err = FromPlacement(Crazyhouse, start.Placement(), rules.White)
	if err != nil || p.FEN() != Crazyhouse.StartFEN() {
		t.Fatalf("FromPlacement(crazyhouse) = %v, %v", p, err)
	}
	// No king: a typed error.
	pl := start.Placement()
	pl.Sq[sq("e1")] = rules.NoPiece
	if _, err := FromPlacement(Standard, pl, rules.White); err == nil {
		t.Error("a placement without a white king was accepted")
	}
	if _, err := FromPlacement(Standard, rules.NewPlacement(rules.Xiangqi9x10), rules.White); err == nil {
		t.Error("a xiangqi placement was accepted")
	}
}

func TestTeamDrop(t *testing.T) {
	t.Run("no promotion, then removal", func(t *testing.T) {
		p := mustPos(t, TeamDrop, "4k3/P7/8/8/8/8/8/4K3[] w - - 0 1")
		for _, m := range p.LegalMoves(nil) {
			if m.Promo != rules.NoKind {
				t.Fatalf("promotion %s generated", p.UCI(m))
			}
		}
		p = playAll(t, p, "a8")
		got := uciList(p)
		if len(got) != 1 || !got["-a8"] {
			t.Fatalf("black must remove the pawn, got %v", got)
		}
		p = playAll(t, p, "-a8")
		if p.FEN() != "4k3/8/8/8/8/8/8/4K3[] w - - 0 2" {
			t.Errorf("after removal %s", p.FEN())
		}
	})
	t.Run("capture also removes", func(t *testing.T) {
		p := mustPos(t, TeamDrop, "Pr2k3/8/8/8/8/8/8/4K3[] b - - 0 1")
		got := uciList(p)
		if len(got) != 2 || !got["-a8"] || !got["b8a8"] {
			t.Fatalf("want removal or Rxa8, got %v", got)
		}
	})
	t.Run("in check: defend first (R6.3)", func(t *testing.T) {
		p := playAll(t, mustPos(t, TeamDrop, "4k3/3P4/8/8/B7/8/8/4K3[] w - - 0 1"), "d8")
		got := uciList(p)
		if !p.InCheck() || got["-d8"] || !got["e8d8"] || !got["e8f7"] {
			t.Fatalf("evasions expected, got %v", got)
		}
	})
	t.Run("removal illegal: obligation waits (R6.5)", func(t *testing.T) {
		p := mustPos(t, TeamDrop, "R2Pk3/8/8/8/8/8/8/4K3[] b - - 0 1")
		got := uciList(p)
		if got["-d8"] || got["e8d8"] || !got["e8f7"] {
			t.Fatalf("got %v", got)
		}
	})
	t.Run("drop rules D3-D5", func(t *testing.T) {
		p := mustPos(t, TeamDrop, "4k3/8/8/8/8/8/8/4K3[NP] w - - 0 1")
		got := uciList(p)
		for _, bad := range []string{"N@d6", "N@f6", "N@a8", "P@a1", "P@a8", "P@d7", "P@f7"} {
			if got[bad] {
				t.Errorf("%s must be illegal", bad)
			}
		}
		for _, good := range []string{"N@a1", "N@c6", "P@a2", "P@a7"} {
			if !got[good] {
				t.Errorf("%s must be legal", good)
			}
		}
	})
	t.Run("dropped pawn on the second rank double-steps", func(t *testing.T) {
		p := playAll(t, mustPos(t, TeamDrop, "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1"), "P@a2", "Kd8")
		if !uciList(p)["a2a4"] {
			t.Error("a2a4 not legal after P@a2")
		}
	})
	t.Run("dropped rook never castles", func(t *testing.T) {
		p := playAll(t, mustPos(t, TeamDrop, "4k3/8/8/8/8/8/8/4K3[R] w - - 0 1"), "R@h1", "Kd8")
		if _, err := p.ParseMove("O-O"); err == nil {
			t.Error("castling with a dropped rook")
		}
	})
	t.Run("captures do not feed the own pocket", func(t *testing.T) {
		p := playAll(t, mustPos(t, TeamDrop, "4k3/8/8/3n4/4P3/8/8/4K3[] w - - 0 1"), "exd5")
		if p.Pocket(rules.White, rules.Knight) != 0 {
			t.Error("the captured knight went to the capturer's pocket")
		}
		p = p.WithPocket(rules.Black, rules.Knight, 2)
		if p.Pocket(rules.Black, rules.Knight) != 2 || !uciList(p)["N@c6"] {
			t.Error("WithPocket did not give black two knights to drop")
		}
	})
}

func TestCrazyhousePockets(t *testing.T) {
	p := mustPos(t, Crazyhouse, "4k3/1Q~6/8/8/4b3/8/8/4K3[] b - - 0 1")
	p = playAll(t, p, "Bxb7")
	if p.Pocket(rules.Black, rules.Pawn) != 1 || p.Pocket(rules.Black, rules.Queen) != 0 {
		t.Errorf("a captured promoted queen must enter as a pawn: %s", p.FEN())
	}
	p = mustPos(t, Crazyhouse, "4k3/P7/8/8/8/8/8/4K3[] w - - 0 1")
	p = playAll(t, p, "a8=Q+")
	if !p.Promoted(sq("a8")) || !strings.HasPrefix(p.FEN(), "Q~3k3/") {
		t.Errorf("promoted piece not marked: %s", p.FEN())
	}
}

func TestLegalMovesDoesNotAllocate(t *testing.T) {
	p := mustPos(t, Standard, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -")
	buf := make([]rules.Move, 0, 64)
	if n := testing.AllocsPerRun(100, func() { buf = p.LegalMoves(buf[:0]) }); n != 0 {
		t.Errorf("LegalMoves allocates %v times per call", n)
	}
	z := mustPos(t, Crazyhouse, "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1")
	if n := testing.AllocsPerRun(20, func() { _ = z.NumLegalMoves() }); n != 0 {
		t.Errorf("NumLegalMoves allocates %v times per call", n)
	}
	if n := testing.AllocsPerRun(5, func() { _ = p.Perft(3) }); n > 1 {
		t.Errorf("Perft(3) allocates %v times, want at most 1", n)
	}
}
