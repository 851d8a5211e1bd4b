package xiangqi

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
)

func TestStatus(t *testing.T) {
	tests := []struct {
		name, fen string
		want      rules.Status
		inCheck   bool
	}{
		{"start", StartFEN, rules.Ongoing, false},
		{"in check with a reply", "3k5/9/9/9/9/4r4/9/R8/9/4K4 w - - 0 1", rules.Ongoing, true},
		// Black general d9: d8 is protected by the second chariot, e9 would
		// face the red general.
		{"checkmate", "3k5/3R5/3R5/9/9/9/9/9/9/4K4 b - - 0 1", rules.Checkmate, true},
		// Not in check, but d8 is attacked and e9 faces the red general:
		// no legal move loses (Art. 7.1(b)).
		{"no legal move", "3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1", rules.NoLegalMoveLoss, false},
		{"cannon check", "4k4/9/9/9/4p4/9/9/4C4/9/3K5 b - - 0 1", rules.Ongoing, true},
		{"horse check", "4k4/9/3N5/9/9/9/9/9/9/3K5 b - - 0 1", rules.Ongoing, true},
		{"horse leg blocks check", "4k4/3p5/3N5/9/9/9/9/9/9/3K5 b - - 0 1", rules.Ongoing, false},
		{"soldier check", "9/4k4/4P4/9/9/9/9/9/9/3K5 b - - 0 1", rules.Ongoing, true},
		{"soldier beside the general", "9/9/3kP4/9/9/9/9/9/9/4K4 b - - 0 1", rules.Ongoing, true},
		{"soldier behind the general", "9/9/9/9/9/9/9/9/3K5/3P1k3 w - - 0 1", rules.Ongoing, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPos(t, tc.fen)
			if got := p.Status(); got != tc.want {
				t.Errorf("Status = %v, want %v", got, tc.want)
			}
			if got := p.InCheck(); got != tc.inCheck {
				t.Errorf("InCheck = %v, want %v", got, tc.inCheck)
			}
			if (tc.want == rules.Ongoing) != (len(p.LegalMoves(nil)) > 0) {
				t.Errorf("status %v with %d legal moves", tc.want, len(p.LegalMoves(nil)))
			}
		})
	}
}

func TestCanMate(t *testing.T) {
	tests := []struct {
		name, fen  string
		red, black bool
	}{
		{"start", StartFEN, true, true},
		{"bare generals", "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", false, false},
		{"advisors and elephants only", "2bak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK1B2 w - - 0 1", false, false},
		{"one soldier", "3k5/9/9/9/9/9/4P4/9/9/4K4 w - - 0 1", true, false},
		{"black horse against defenders", "3k1n3/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1", false, true},
		{"cannon", "3k5/9/9/9/9/9/9/9/9/2C1K4 w - - 0 1", true, false},
		{"chariot", "3k5/9/9/9/9/9/9/9/9/r3K4 w - - 0 1", false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPos(t, tc.fen)
			if got := p.CanMate(rules.White); got != tc.red {
				t.Errorf("CanMate(red) = %v, want %v", got, tc.red)
			}
			if got := p.CanMate(rules.Black); got != tc.black {
				t.Errorf("CanMate(black) = %v, want %v", got, tc.black)
			}
		})
	}
}

func TestPlayIllegal(t *testing.T) {
	tests := []struct {
		name, fen, move string
		wantFEN         string
		wantErr         rules.Reason
	}{
		{"elephant across the river", "5k3/9/9/9/9/2B6/9/9/9/3K5 w - - 0 1", "c4e6", "5k3/9/9/4B4/9/9/9/9/9/3K5 b - - 1 1", 0},
		{"general leaves the palace", "5k3/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "d0c0", "5k3/9/9/9/9/9/9/9/9/2K6 b - - 1 1", 0},
		{"leaves check standing, capture resets the clock", "3k5/9/9/9/9/4r4/9/R8/p8/4K4 w - - 7 3", "a2a1", "3k5/9/9/9/9/4r4/9/9/R8/4K4 b - - 0 3", 0},
		{"generals facing", "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "d0e0", "4k4/9/9/9/9/9/9/9/9/4K4 b - - 1 1", 0},
		{"no piece", StartFEN, "e5e6", "", rules.ReasonNoPiece},
		{"opponent's piece", StartFEN, "a9a8", "", rules.ReasonNotYourTurn},
		{"own piece", StartFEN, "a0a3", "", rules.ReasonOwnPieceOnTarget},
		{"same point", StartFEN, "a0a0", "", rules.ReasonBadGeometry},
		{"takes the general", "4k4/9/9/9/4R4/9/9/9/9/3K5 w - - 0 1", "e5e9", "", rules.ReasonCapturesKing},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPos(t, tc.fen)
			q, err := p.PlayIllegal(iccs(t, tc.move))
			if tc.wantErr != 0 {
				var ie *rules.IllegalMoveError
				if !errors.As(err, &ie) || ie.Reason != tc.wantErr || q != nil {
					t.Fatalf("PlayIllegal = %v, %v; want reason %q", q, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if q.FEN() != tc.wantFEN {
				t.Errorf("FEN %q, want %q", q.FEN(), tc.wantFEN)
			}
			if p.FEN() != tc.fen {
				t.Errorf("PlayIllegal changed the receiver: %q", p.FEN())
			}
			back, err := NewPosition(q.FEN())
			if err != nil {
				t.Fatalf("the result's FEN does not parse: %v", err)
			}
			if back.RepetitionKey() != q.RepetitionKey() {
				t.Error("repetition key differs after a FEN round trip")
			}
		})
	}
}

// TestRepetitionKey: the incremental Zobrist key equals the key computed
// from scratch, transpositions meet, and the side to move counts.
func TestRepetitionKey(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for _, p := range randomPositions(r, 10, 60) {
		if p.hash != p.computeHash() {
			t.Fatalf("%s: incremental key %x, from scratch %x", p.FEN(), p.hash, p.computeHash())
		}
		q := mustPos(t, p.FEN())
		if q.RepetitionKey() != p.RepetitionKey() {
			t.Fatalf("%s: key changes over a FEN round trip", p.FEN())
		}
	}
	play := func(p *Position, moves ...string) *Position {
		for _, s := range moves {
			q, err := p.PlayMove(iccs(t, s))
			if err != nil {
				t.Fatalf("%s: %v", s, err)
			}
			p = q
		}
		return p
	}
	s := StartPosition()
	a := play(s, "h2e2", "h9g7", "b0c2")
	b := play(s, "b0c2", "h9g7", "h2e2")
	if a.RepetitionKey() != b.RepetitionKey() {
		t.Error("transposed move orders give different keys")
	}
	c := play(s, "h0g2", "h9g7", "g2h0", "g7h9")
	if c.RepetitionKey() != s.RepetitionKey() {
		t.Error("the start position after horses out and back has another key")
	}
	if c.HalfmoveClock() != 4 || c.FullmoveNumber() != 3 {
		t.Errorf("clock %d, move %d; want 4 and 3", c.HalfmoveClock(), c.FullmoveNumber())
	}
	d := play(s, "h0g2", "h9g7", "g2h0")
	if mustPos(t, d.FEN()).RepetitionKey() == mustPos(t, "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1").RepetitionKey() {
		t.Error("side to move does not change the key")
	}
}

func TestPlacementAndAccessors(t *testing.T) {
	p := StartPosition()
	pl := p.Placement()
	if pl.Geo != rules.Xiangqi9x10 || p.Geometry() != rules.Xiangqi9x10 || p.Variant() != "xiangqi" {
		t.Fatalf("geometry %v / %v, variant %q", pl.Geo, p.Geometry(), p.Variant())
	}
	for _, tc := range []struct {
		sq   string
		want rules.Piece
	}{
		{"e0", rules.Piece{Color: rules.White, Kind: rules.King}},
		{"c9", rules.Piece{Color: rules.Black, Kind: rules.Elephant}},
		{"h7", rules.Piece{Color: rules.Black, Kind: rules.Cannon}},
		{"b0", rules.Piece{Color: rules.White, Kind: rules.Knight}},
		{"d0", rules.Piece{Color: rules.White, Kind: rules.Advisor}},
		{"i3", rules.Piece{Color: rules.White, Kind: rules.Pawn}},
		{"e4", rules.NoPiece},
	} {
		s, err := rules.Xiangqi9x10.ParseSquare(tc.sq)
		if err != nil {
			t.Fatal(err)
		}
		if p.At(s) != tc.want || pl.At(s) != tc.want {
			t.Errorf("%s: At %v, Placement %v; want %v", tc.sq, p.At(s), pl.At(s), tc.want)
		}
	}
	if p.Pocket(rules.White, rules.Pawn) != 0 || p.Turn() != rules.White {
		t.Error("pocket or turn wrong")
	}
	buf := make([]rules.Move, 0, maxMoves)
	if n := testing.AllocsPerRun(10, func() { buf = p.LegalMoves(buf[:0]) }); n != 0 {
		t.Errorf("LegalMoves allocates %v times", n)
	}
}

func TestFromPlacement(t *testing.T) {
	for _, tc := range perftCases {
		p := mustPos(t, tc.fen)
		q, err := FromPlacement(p.Placement(), p.Turn(), Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if q.FEN() != p.FEN() || q.RepetitionKey() != p.RepetitionKey() {
			t.Errorf("%s: FromPlacement gives %q", tc.name, q.FEN())
		}
		if IsStart(p.Placement()) != (tc.name == "start") {
			t.Errorf("%s: IsStart = %v", tc.name, !(tc.name == "start"))
		}
	}
	pl := StartPosition().Placement()
	pl.Sq[4] = rules.Piece{Color: rules.White, Kind: rules.Queen}
	if _, err := FromPlacement(pl, rules.White, Options{}); !errors.Is(err, ErrFEN) {
		t.Errorf("a queen: %v", err)
	}
	pl = StartPosition().Placement()
	pl.Sq[4] = rules.NoPiece
	if _, err := FromPlacement(pl, rules.White, Options{}); !errors.Is(err, ErrFEN) {
		t.Errorf("no red general: %v", err)
	}
	if _, err := FromPlacement(rules.NewPlacement(rules.Chess8x8), rules.White, Options{}); !errors.Is(err, ErrFEN) {
		t.Errorf("a chess board: %v", err)
	}
}
