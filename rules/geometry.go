package rules

import "fmt"

// Square is an index into a board: file + rank*Files of its [Geometry].
type Square int16

// NoSquare is "no square": the origin of a drop, an absent en-passant square.
const NoSquare Square = -1

// MaxSquares is the largest board any variant uses (xiangqi, 9×10).
const MaxSquares = 90

// Geometry is the shape of a board. Files and ranks are counted from 0.
type Geometry struct {
	Files, Ranks int
}

// The geometries of the supported boards.
var (
	Chess8x8    = Geometry{Files: 8, Ranks: 8}
	Xiangqi9x10 = Geometry{Files: 9, Ranks: 10}
)

// Size returns the number of squares.
func (g Geometry) Size() int { return g.Files * g.Ranks }

// Square returns the square at file f and rank r, or NoSquare when either
// is off the board.
func (g Geometry) Square(f, r int) Square {
	if f < 0 || r < 0 || f >= g.Files || r >= g.Ranks {
		return NoSquare
	}
	return Square(f + r*g.Files)
}

// File returns the file (0 = a) of s.
func (g Geometry) File(s Square) int { return int(s) % g.Files }

// Rank returns the rank (0 = the first) of s.
func (g Geometry) Rank(s Square) int { return int(s) / g.Files }

// Contains reports whether s is on the board.
func (g Geometry) Contains(s Square) bool { return s >= 0 && int(s) < g.Size() }

// Name returns the algebraic name of s: "e4" on a chess board; on the 9×10
// board ranks are numbered from 0 as in ICCS ("e0" is Red's general).
func (g Geometry) Name(s Square) string {
	if !g.Contains(s) {
		return "-"
	}
	r := g.Rank(s) + 1
	if g.Ranks == 10 {
		r--
	}
	return fmt.Sprintf("%c%d", 'a'+g.File(s), r)
}

// ParseSquare parses an algebraic square name in geometry g.
func (g Geometry) ParseSquare(name string) (Square, error) {
	if len(name) < 2 || name[0] < 'a' || int(name[0]-'a') >= g.Files {
		return NoSquare, fmt.Errorf("rules: bad square %q", name)
	}
	r := 0
	for _, c := range name[1:] {
		if c < '0' || c > '9' {
			return NoSquare, fmt.Errorf("rules: bad square %q", name)
		}
		r = r*10 + int(c-'0')
	}
	if g.Ranks != 10 {
		r--
	}
	s := g.Square(int(name[0]-'a'), r)
	if s == NoSquare {
		return NoSquare, fmt.Errorf("rules: bad square %q", name)
	}
	return s, nil
}

// Placement is what the sensors of a board can see: the piece on every
// square, nothing else (no side to move, no castling rights). Placements
// are comparable values and need no allocation; squares at or beyond
// Geo.Size() are always empty.
type Placement struct {
	Geo Geometry
	Sq  [MaxSquares]Piece
}

// NewPlacement returns an empty placement of geometry g.
func NewPlacement(g Geometry) Placement { return Placement{Geo: g} }

// At returns the piece on s (NoPiece off the board).
func (p *Placement) At(s Square) Piece {
	if !p.Geo.Contains(s) {
		return NoPiece
	}
	return p.Sq[s]
}

// Diff appends to dst the squares where p and q differ and returns it.
func (p *Placement) Diff(q *Placement, dst []Square) []Square {
	n := p.Geo.Size()
	for i := 0; i < n; i++ {
		if p.Sq[i] != q.Sq[i] {
			dst = append(dst, Square(i))
		}
	}
	return dst
}

// String returns the placement field of a FEN ("rnbqkbnr/pppppppp/8/…").
func (p *Placement) String() string {
	b := make([]byte, 0, p.Geo.Size()+p.Geo.Ranks)
	for r := p.Geo.Ranks - 1; r >= 0; r-- {
		empty := 0
		for f := 0; f < p.Geo.Files; f++ {
			pc := p.Sq[p.Geo.Square(f, r)]
			if pc.IsEmpty() {
				empty++
				continue
			}
			if empty > 0 {
				b = append(b, byte('0'+empty))
				empty = 0
			}
			b = append(b, pc.Letter())
		}
		if empty > 0 {
			b = append(b, byte('0'+empty))
		}
		if r > 0 {
			b = append(b, '/')
		}
	}
	return string(b)
}
