package pgn

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
)

func TestReplay(t *testing.T) {
	tests := []struct {
		name     string
		text     string
		main     []string // SAN as the position formats it
		final    string   // FEN after the main line
		variant  string
		checkVar func(t *testing.T, g *Game)
	}{
		{
			name:    "standard with variations",
			text:    "1. e4 e5 (1... c5 2. Nf3 (2. c3) d6) 2. Nf3 Nc6 3. Bb5 a6 *",
			main:    []string{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6"},
			final:   "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4",
			variant: "chess",
			checkVar: func(t *testing.T, g *Game) {
				v := g.Moves[1].Variations[0]
				wantLine(t, v, "c5", "Nf3", "d6")
				wantLine(t, v[1].Variations[0], "c3")
				if v[0].Move.From != rules.Chess8x8.Square(2, 6) || v[0].Move.To != rules.Chess8x8.Square(2, 4) {
					t.Errorf("c5 resolved to %+v", v[0].Move)
				}
			},
		},
		{
			name:    "notation normalised to the position's SAN",
			text:    "1. e2e4 d7-d5 2. exd5 Qxd5 3. Nbc3 Qd8 4. Nf3+ *",
			main:    []string{"e4", "d5", "exd5", "Qxd5", "Nc3", "Qd8", "Nf3"},
			variant: "chess",
		},
		{
			name:    "castling with zeros, promotion without =",
			text:    "[SetUp \"1\"]\n[FEN \"4k3/1P6/8/8/8/8/8/R3K2R w KQ - 0 1\"]\n\n1. 0-0-0 Kf7 2. b8Q *",
			main:    []string{"O-O-O", "Kf7", "b8=Q"},
			final:   "1Q6/5k2/8/8/8/8/8/2KR3R b - - 0 2",
			variant: "chess",
		},
		{
			name:    "FIDE forms: e.p., long form, draw offer (=)",
			text:    "[FEN \"4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1\"]\n\n1. e2-e4 d4xe3 e.p. 2. Ke1-f1 (=) Ke8-d7 *",
			main:    []string{"e4", "dxe3", "Kf1", "Kd7"},
			final:   "8/3k4/8/8/8/4p3/8/5K2 w - - 2 3",
			variant: "chess",
			checkVar: func(t *testing.T, g *Game) {
				if g.Moves[2].Comment != "(=)" || len(g.Moves[2].Variations) != 0 {
					t.Errorf("draw offer: comment %q, %d variations", g.Moves[2].Comment, len(g.Moves[2].Variations))
				}
			},
		},
		{
			name:    "Chess960 written chess 960, king-takes-rook castling",
			text:    "[Variant \"chess 960\"]\n[FEN \"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1\"]\n\n1. Ng3 Ng6 2. O-O O-O *",
			main:    []string{"Ng3", "Ng6", "O-O", "O-O"},
			variant: "chess960",
		},
		{
			name:    "Fischerandom without FEN is the standard set-up",
			text:    "[Variant \"Fischerandom\"]\n\n1. e4 *",
			main:    []string{"e4"},
			variant: "chess960",
		},
		{
			name:    "crazyhouse drops",
			text:    "[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. P@d4 *",
			main:    []string{"e4", "d5", "exd5", "Qxd5", "Nc3", "Qa5", "P@d4"},
			variant: "crazyhouse",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := readOne(t, tt.text, ReaderOptions{})
			wantLine(t, g.Moves, tt.main...)
			if g.Start == nil || g.Start.Variant() != tt.variant {
				t.Fatalf("start %v", g.Start)
			}
			ps, err := g.Positions()
			if err != nil || len(ps) != len(g.Moves)+1 {
				t.Fatalf("Positions: %d, %v", len(ps), err)
			}
			if tt.final != "" {
				if got := ps[len(ps)-1].FEN(); got != tt.final {
					t.Errorf("final FEN %q, want %q", got, tt.final)
				}
			}
			if tt.checkVar != nil {
				tt.checkVar(t, g)
			}
			// Written and read back, the game is the same.
			back := readOne(t, g.String(), ReaderOptions{})
			if back.Start.FEN() != g.Start.FEN() || back.Start.Variant() != g.Start.Variant() {
				t.Errorf("start %s %s, read back %s %s", g.Start.Variant(), g.Start.FEN(), back.Start.Variant(), back.Start.FEN())
			}
			wantLine(t, back.Moves, tt.main...)
		})
	}
}

func TestWriteSetupTags(t *testing.T) {
	g := readOne(t, "[Event \"E\"]\n[Variant \"fischerandom\"]\n[SetUp \"1\"]\n[FEN \"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1\"]\n[Annotator \"x\"]\n\n1. Ng3 *", ReaderOptions{})
	s := g.String()
	want := "[Result \"*\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"" + g.Start.FEN() + "\"]\n[Annotator \"x\"]\n\n1. Ng3 *\n"
	if !strings.Contains(s, want) {
		t.Errorf("got\n%s\nwant it to contain\n%s", s, want)
	}
	std := readOne(t, "[Variant \"Standard\"]\n\n1. e4 *", ReaderOptions{})
	if s := std.String(); strings.Contains(s, "Variant") || strings.Contains(s, "FEN") || strings.Contains(s, "SetUp") {
		t.Errorf("standard game got set-up tags:\n%s", s)
	}
}

// TestBadMoves checks the *MoveError: where, which game, the partial game,
// and that the next game reads.
func TestBadMoves(t *testing.T) {
	const next = "\n[Event \"Next\"]\n\n1. d4 d5 1-0\n"
	tests := []struct {
		name      string
		text      string
		line, col int
		ply       int
		number    int
		turn      rules.Color
		variation bool
		moves     []string
		illegal   bool // errors.Is(err, rules.ErrIllegalMove)
	}{
		{"illegal move", "[Event \"Bad\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n", 3, 13, 3, 2, rules.White, false, []string{"e4", "e5"}, true},
		{"not a move", "[Event \"Bad\"]\n\n1. e4 e5\n2. Nf3 Xyz9 *\n", 4, 8, 4, 2, rules.Black, false, []string{"e4", "e5", "Nf3"}, false},
		{"ambiguous", "[Event \"Bad\"]\n[FEN \"4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1\"]\n\n1. Nd2 *\n", 4, 4, 1, 1, rules.White, false, []string{}, false},
		{"illegal in a variation", "[Event \"Bad\"]\n\n1. e4 (1. d4 d5 2. Bxd5) e5 *\n", 3, 20, 3, 2, rules.White, true, []string{"e4"}, false},
		{"bad move skipped with its variation", "[Event \"Bad\"]\n\n1. e4 e5 2. Qxf7 (2. Bc4) *\n", 3, 13, 3, 2, rules.White, false, []string{"e4", "e5"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(tt.text+next), ReaderOptions{})
			g, err := r.Next()
			var me *MoveError
			if !errors.As(err, &me) {
				t.Fatalf("err %T %v, want *MoveError", err, err)
			}
			if !errors.Is(err, ErrBadMove) {
				t.Errorf("not ErrBadMove: %v", err)
			}
			if tt.illegal && !errors.Is(err, rules.ErrIllegalMove) {
				t.Errorf("not rules.ErrIllegalMove: %v", err)
			}
			if me.Line != tt.line || me.Col != tt.col || me.Ply != tt.ply || me.Number != tt.number || me.Turn != tt.turn || me.Variation != tt.variation {
				t.Errorf("got %d:%d ply %d number %d turn %v variation %v; want %d:%d ply %d number %d turn %v variation %v (%v)",
					me.Line, me.Col, me.Ply, me.Number, me.Turn, me.Variation, tt.line, tt.col, tt.ply, tt.number, tt.turn, tt.variation, err)
			}
			if me.Game.Index != 1 || me.Game.Event != "Bad" {
				t.Errorf("game %+v", me.Game)
			}
			if g == nil {
				t.Fatal("no partial game")
			}
			wantLine(t, g.Moves, tt.moves...)
			g, err = r.Next()
			if err != nil || g.Tag("Event") != "Next" {
				t.Fatalf("next game: %v %v", g, err)
			}
			wantLine(t, g.Moves, "d4", "d5")
			if _, err := r.Next(); err != io.EOF {
				t.Errorf("then %v", err)
			}
		})
	}
}

func TestBadSetup(t *testing.T) {
	tests := []struct {
		name      string
		text      string
		want      error
		line, col int
	}{
		{"unknown variant", "[Event \"Bad\"]\n[Variant \"Atomic\"]\n\n1. e4 *\n", ErrUnknownVariant, 2, 1},
		{"bad FEN", "[Event \"Bad\"]\n[SetUp \"1\"]\n[FEN \"8/8/8 w - - 0 1\"]\n\n1. e4 *\n", ErrBadFEN, 3, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(tt.text+"\n[Event \"Next\"]\n1. e4 *"), ReaderOptions{})
			_, err := r.Next()
			var se *SyntaxError
			if !errors.Is(err, tt.want) || !errors.As(err, &se) {
				t.Fatalf("err %v, want %v", err, tt.want)
			}
			if se.Line != tt.line || se.Col != tt.col {
				t.Errorf("at %d:%d, want %d:%d", se.Line, se.Col, tt.line, tt.col)
			}
			if g, err := r.Next(); err != nil || g.Tag("Event") != "Next" {
				t.Errorf("next game %v %v", g, err)
			}
			// Parse-only reading does not need the engine to know the variant.
			if tt.want == ErrUnknownVariant {
				if _, err := NewReader(strings.NewReader(tt.text), parseOnly).Next(); err != nil {
					t.Errorf("parse-only: %v", err)
				}
			}
		})
	}
}

func TestWriteBadMove(t *testing.T) {
	g := readOne(t, "1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *", ReaderOptions{})
	bad := rules.Move{From: rules.Chess8x8.Square(4, 0), To: rules.Chess8x8.Square(4, 4)} // Ke1-e5
	tests := []struct {
		name      string
		edit      func(g *Game)
		ply       int
		variation bool
	}{
		{"main line", func(g *Game) { g.Moves[2].Move = bad }, 3, false},
		{"variation", func(g *Game) { g.Moves[1].Variations[0][1].Move = bad }, 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := *g
			c.Moves = append([]MoveNode(nil), g.Moves...)
			c.Moves[1].Variations = [][]MoveNode{append([]MoveNode(nil), g.Moves[1].Variations[0]...)}
			tt.edit(&c)
			var b strings.Builder
			err := Write(&b, &c, WriteOptions{})
			var me *MoveError
			if !errors.As(err, &me) || !errors.Is(err, ErrBadMove) || !errors.Is(err, rules.ErrIllegalMove) {
				t.Fatalf("err %v, want a *MoveError for an illegal move", err)
			}
			if me.Ply != tt.ply || me.Variation != tt.variation || me.Number != 2 || me.Turn != rules.White || me.Text != "e1e5" {
				t.Errorf("error %+v", me)
			}
			if b.Len() != 0 {
				t.Errorf("wrote %q", b.String())
			}
		})
	}
}

// TestWriteUsesPositionSAN checks that with a start position the writer
// writes the position's SAN, not what MoveNode.SAN holds.
func TestWriteUsesPositionSAN(t *testing.T) {
	g := readOne(t, "1. e4 e5 *", ReaderOptions{})
	g.Moves[0].SAN = "Pe2-e4"
	g.Moves[1].SAN = ""
	if s := g.String(); !strings.HasSuffix(s, "\n1. e4 e5 *\n\n") {
		t.Errorf("got\n%s", s)
	}
}
