package dgt

import (
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
)

func TestFieldSquare(t *testing.T) {
	g := rules.Chess8x8
	tests := []struct {
		f       Field
		o       Orientation
		name    string
		squareN string
	}{
		{0, Normal, "a8", "a8"},
		{7, Normal, "h8", "h8"},
		{56, Normal, "a1", "a1"},
		{63, Normal, "h1", "h1"},
		{36, Normal, "e4", "e4"},
		{0, Rotated, "a8", "h1"},
		{63, Rotated, "h1", "a8"},
		{52, Rotated, "e2", "d7"},
	}
	for _, tt := range tests {
		t.Run(tt.o.String()+"/"+tt.name, func(t *testing.T) {
			if got := tt.f.Name(); got != tt.name {
				t.Fatalf("Name %q, want %q", got, tt.name)
			}
			if pf, err := ParseField(tt.name); err != nil || pf != tt.f {
				t.Fatalf("ParseField %v %v", pf, err)
			}
			s := tt.f.Square(tt.o)
			if got := g.Name(s); got != tt.squareN {
				t.Fatalf("Square %q, want %q", got, tt.squareN)
			}
			if back, ok := FieldOf(s, tt.o); !ok || back != tt.f {
				t.Fatalf("FieldOf %v %v", back, ok)
			}
		})
	}
	for f := Field(0); f < 64; f++ {
		for _, o := range []Orientation{Normal, Rotated} {
			if back, _ := FieldOf(f.Square(o), o); back != f {
				t.Fatalf("field %d %v round-trips to %d", f, o, back)
			}
		}
	}
	if Field(64).Square(Normal) != rules.NoSquare || Field(64).Name() != "-" {
		t.Error("field 64 is not rejected")
	}
	if _, ok := FieldOf(64, Normal); ok {
		t.Error("square 64 has a field")
	}
	for _, bad := range []string{"", "i1", "a9", "a0", "a10"} {
		if _, err := ParseField(bad); err == nil {
			t.Errorf("ParseField(%q) succeeded", bad)
		}
	}
}

func TestPieceCodes(t *testing.T) {
	tests := []struct {
		c      PieceCode
		letter byte
		piece  rules.Piece
		ok     bool
	}{
		{Empty, '.', rules.NoPiece, false},
		{WhitePawn, 'P', rules.Piece{Color: rules.White, Kind: rules.Pawn}, true},
		{WhiteRook, 'R', rules.Piece{Color: rules.White, Kind: rules.Rook}, true},
		{WhiteKnight, 'N', rules.Piece{Color: rules.White, Kind: rules.Knight}, true},
		{WhiteBishop, 'B', rules.Piece{Color: rules.White, Kind: rules.Bishop}, true},
		{WhiteKing, 'K', rules.Piece{Color: rules.White, Kind: rules.King}, true},
		{WhiteQueen, 'Q', rules.Piece{Color: rules.White, Kind: rules.Queen}, true},
		{BlackPawn, 'p', rules.Piece{Color: rules.Black, Kind: rules.Pawn}, true},
		{BlackRook, 'r', rules.Piece{Color: rules.Black, Kind: rules.Rook}, true},
		{BlackKnight, 'n', rules.Piece{Color: rules.Black, Kind: rules.Knight}, true},
		{BlackBishop, 'b', rules.Piece{Color: rules.Black, Kind: rules.Bishop}, true},
		{BlackKing, 'k', rules.Piece{Color: rules.Black, Kind: rules.King}, true},
		{BlackQueen, 'q', rules.Piece{Color: rules.Black, Kind: rules.Queen}, true},
		{MagicDraw, 'X', rules.NoPiece, false},
		{MagicWhiteWin, 'Y', rules.NoPiece, false},
		{MagicBlackWin, 'Z', rules.NoPiece, false},
		{16, '?', rules.NoPiece, false},
	}
	for _, tt := range tests {
		t.Run(string(tt.letter), func(t *testing.T) {
			p, ok := tt.c.Piece()
			if tt.c.Letter() != tt.letter || p != tt.piece || ok != tt.ok {
				t.Fatalf("%d: letter %c piece %v ok %v", tt.c, tt.c.Letter(), p, ok)
			}
			if tt.c.IsMagic() != (tt.letter >= 'X' && tt.letter <= 'Z') || tt.c.Valid() != (tt.c < 16) {
				t.Fatal("IsMagic/Valid")
			}
			if ok {
				if back, ok := PieceCodeOf(p); !ok || back != tt.c {
					t.Fatalf("PieceCodeOf %v %v", back, ok)
				}
				if pc, _ := rules.PieceFromLetter(tt.letter); pc != p {
					t.Fatalf("letter %c is %v in rules", tt.letter, pc)
				}
			}
			if tt.c.Valid() {
				if back, ok := PieceCodeFromLetter(tt.letter); !ok || back != tt.c {
					t.Fatalf("PieceCodeFromLetter %v", back)
				}
			}
		})
	}
	if c, ok := PieceCodeOf(rules.NoPiece); !ok || c != Empty {
		t.Error("empty square")
	}
	if _, ok := PieceCodeOf(rules.Piece{Kind: rules.Cannon}); ok {
		t.Error("cannon has a DGT code")
	}
}

const startFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"

func TestCaptureDumpsPlacement(t *testing.T) {
	for _, tt := range []struct {
		name string
		o    Orientation
	}{{"1", Normal}, {"2", Rotated}, {"johan", Normal}} {
		t.Run(tt.name, func(t *testing.T) {
			raw, _ := loadCapture(t, tt.name)
			m, _, err := ParseMessage(SingleBoard, raw[0])
			if err != nil {
				t.Fatal(err)
			}
			d := m.(BoardDump)
			p := d.Placement(tt.o)
			if got := p.String(); got != startFEN {
				t.Fatalf("placement %s, want the start position", got)
			}
			back, err := DumpOf(&p, tt.o)
			if err != nil || back != d {
				t.Fatalf("DumpOf: %v %v", back, err)
			}
		})
	}
}

func TestDumpMagic(t *testing.T) {
	var d BoardDump
	d.Fields[27] = MagicWhiteWin
	d.Fields[0] = BlackRook
	if got := d.Magic(nil); len(got) != 1 || got[0] != 27 {
		t.Fatalf("Magic %v", got)
	}
	p := d.Placement(Normal)
	if p.String() != "r7/8/8/8/8/8/8/8" {
		t.Fatalf("placement %s", p.String())
	}
	if s := d.String(); s[:9] != "r......./" || s[30:32] != "Y." {
		t.Fatalf("String %q", s)
	}
	x := rules.NewPlacement(rules.Xiangqi9x10)
	if _, err := DumpOf(&x, Normal); err == nil {
		t.Fatal("xiangqi placement dumped")
	}
}

func TestXLText(t *testing.T) {
	got := XLText("12")
	if got != [6]byte{0, 0, 0, 0, 0x06, 0x5B} {
		t.Fatalf("XLText(12) = % x", got)
	}
	if XLText("1234567")[5] != Segment('6') || Segment(0xFF) != 0 || Segment('8') != 0x7F {
		t.Fatal("segments")
	}
}
