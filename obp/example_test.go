package obp_test

import (
	"fmt"

	"github.com/dgtbridge/dgtbridge/obp"
	"github.com/dgtbridge/dgtbridge/rules"
)

// The exchange of docs/open-board-protocol.md: a xiangqi board
// identifies itself, sends its board, and Red plays the central cannon
// (C2.5, ICCS h2e2) and presses the lever. The checksums are real (the
// shared page's are placeholders); a Python one-liner agrees:
// functools.reduce(lambda a, c: a ^ ord(c), line, 0).
func Example() {
	g := rules.Xiangqi9x10
	start := obp.Board{Placement: startArray()}
	h2, _ := g.ParseSquare("h2")
	e2, _ := g.ParseSquare("e2")
	lines := []obp.Message{
		obp.Ident{Version: 1, Geo: g, Serial: "XQ0042"},
		start,
		obp.Lift{Square: h2, Stamp: obp.At(81234)},
		obp.Put{Square: e2, Piece: rules.Piece{Color: rules.White, Kind: rules.Cannon}, Stamp: obp.At(81890)},
		obp.Clock{First: 899000e6, Second: 900000e6, Running: rules.Black, Stamp: obp.At(82011)},
	}
	d := obp.NewDecoder(g)
	for _, m := range lines {
		line := m.AppendLine(nil, g)
		fmt.Print(string(line))
		d.Feed(line)
		if _, err := d.Next(); err != nil {
			fmt.Println("decode:", err)
		}
	}
	// Output:
	// I OBP/1 9x10 XQ0042 id*48
	// B rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR*4D
	// L h2 @81234*6A
	// P e2 C @81890*1C
	// C 899000 900000 2 @82011*0A
}

func startArray() rules.Placement {
	pl := rules.NewPlacement(rules.Xiangqi9x10)
	back := []rules.Kind{rules.Rook, rules.Knight, rules.Elephant, rules.Advisor, rules.King, rules.Advisor, rules.Elephant, rules.Knight, rules.Rook}
	for f, k := range back {
		pl.Sq[rules.Xiangqi9x10.Square(f, 0)] = rules.Piece{Color: rules.White, Kind: k}
		pl.Sq[rules.Xiangqi9x10.Square(f, 9)] = rules.Piece{Color: rules.Black, Kind: k}
	}
	for _, f := range []int{1, 7} {
		pl.Sq[rules.Xiangqi9x10.Square(f, 2)] = rules.Piece{Color: rules.White, Kind: rules.Cannon}
		pl.Sq[rules.Xiangqi9x10.Square(f, 7)] = rules.Piece{Color: rules.Black, Kind: rules.Cannon}
	}
	for f := 0; f < 9; f += 2 {
		pl.Sq[rules.Xiangqi9x10.Square(f, 3)] = rules.Piece{Color: rules.White, Kind: rules.Pawn}
		pl.Sq[rules.Xiangqi9x10.Square(f, 6)] = rules.Piece{Color: rules.Black, Kind: rules.Pawn}
	}
	return pl
}
