package xiangqi

import "github.com/dgtbridge/dgtbridge/rules"

// Position is a xiangqi position. It is an immutable value once built:
// every method leaves the receiver unchanged, so a *Position is safe for
// concurrent use by readers. It implements [rules.Position].
type Position struct {
	board [nPoints]uint8
	occ   [2]bitset // the points of each side's pieces
	gen   [2]int8   // the generals' points, Red (White) first
	turn  rules.Color
	half  int32 // plies since the last capture (Art. 12)
	full  int32
	hash  uint64
	opts  Options
}

var _ rules.Position = (*Position)(nil)

// StartFEN is the initial position (Art. 3) in the FEN dialect
// of docs/xiangqi.md, "Board, pieces, FEN".
const StartFEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

// StartPosition returns the initial position with default options.
func StartPosition() *Position {
	p, err := NewPosition(StartFEN)
	if err != nil {
		panic("xiangqi: start position: " + err.Error())
	}
	return p
}

// WithOptions returns a copy of p that formats and parses notation under
// opts.
func (p *Position) WithOptions(opts Options) *Position {
	q := *p
	q.opts = opts
	return &q
}

// Options returns the options p was built with.
func (p *Position) Options() Options { return p.opts }

// Variant implements rules.Position: "xiangqi".
func (p *Position) Variant() string { return "xiangqi" }

// Geometry implements rules.Position: 9 files × 10 ranks.
func (p *Position) Geometry() rules.Geometry { return rules.Xiangqi9x10 }

// Turn implements rules.Position; White is Red.
func (p *Position) Turn() rules.Color { return p.turn }

// At implements rules.Position.
func (p *Position) At(s rules.Square) rules.Piece {
	if s < 0 || int(s) >= nPoints {
		return rules.NoPiece
	}
	return pieceOf(p.board[s])
}

func pieceOf(x uint8) rules.Piece {
	if x == 0 {
		return rules.NoPiece
	}
	return rules.Piece{Color: rules.Color(colorOf(x)), Kind: rules.Kind(x & kindMask)}
}

// Placement implements rules.Position.
func (p *Position) Placement() rules.Placement {
	pl := rules.NewPlacement(rules.Xiangqi9x10)
	for s, x := range p.board {
		pl.Sq[s] = pieceOf(x)
	}
	return pl
}

// Pocket implements rules.Position: xiangqi has no drops, always 0.
func (p *Position) Pocket(rules.Color, rules.Kind) int { return 0 }

// HalfmoveClock implements rules.Position. In xiangqi it counts the plies
// since the last capture only: Art. 12's 50-move count is reset by
// captures, not by soldier moves (Art. 12).
func (p *Position) HalfmoveClock() int { return int(p.half) }

// FullmoveNumber implements rules.Position: 1 at the start, incremented
// after each Black move.
func (p *Position) FullmoveNumber() int { return int(p.full) }

// RepetitionKey implements rules.Position: a Zobrist hash of the
// placement and the side to move (xiangqi has no castling, en passant or
// pockets).
func (p *Position) RepetitionKey() rules.RepetitionKey { return rules.RepetitionKey(p.hash) }

// InCheck implements rules.Position: a piece of the opponent attacks the
// general of the side to move. Facing generals (possible only after an
// illegal move stood) are not a check.
func (p *Position) InCheck() bool {
	us := int(p.turn)
	return attacked(&p.board, int(p.gen[us]), us^1)
}

// Status implements rules.Position: with no legal move the side to move
// loses, by Checkmate when in check, by NoLegalMoveLoss otherwise
// (Art. 6, 7.1(a)–(c)).
func (p *Position) Status() rules.Status {
	if p.hasLegal() {
		return rules.Ongoing
	}
	if p.InCheck() {
		return rules.Checkmate
	}
	return rules.NoLegalMoveLoss
}

// CanMate implements rules.Position. It answers false exactly when side c
// has no chariot, horse, cannon or soldier: the general, advisors and
// elephants never leave their own half, so they can never attack the
// other general (Art. 7.2(a) "no pieces left that can attack", RB 8).
// A win of such a side because the opponent
// walled in all of its own pieces (no legal move loses) is not counted:
// the law's test is about pieces that can attack. Otherwise it answers
// true, also where a mate is impossible for deeper reasons (conservative).
func (p *Position) CanMate(c rules.Color) bool {
	if c > rules.Black {
		return false
	}
	for _, x := range p.board {
		if x == 0 || colorOf(x) != int(c) {
			continue
		}
		switch x & kindMask {
		case chariot, horse, cannon, soldier:
			return true
		}
	}
	return false
}

// LegalMoves implements rules.Position. The moves carry FlagCapture where
// they take a piece; with a dst of capacity 128 it does not allocate.
func (p *Position) LegalMoves(dst []rules.Move) []rules.Move {
	var l moveList
	p.genLegal(&l)
	for i := 0; i < l.n; i++ {
		dst = append(dst, p.toRules(l.m[i]))
	}
	return dst
}

// toRules converts an internal move.
func (p *Position) toRules(m mv) rules.Move {
	r := rules.Move{From: rules.Square(m.from), To: rules.Square(m.to)}
	if p.board[m.to] != 0 {
		r.Flags = rules.FlagCapture
	}
	return r
}

// doMove plays m on p, which must be physically possible (own piece on
// from, no own piece on to).
func (p *Position) doMove(m mv) {
	x := p.board[m.from]
	y := p.board[m.to]
	p.hash ^= zPiece[x][m.from] ^ zPiece[x][m.to] ^ zSide
	us := p.turn
	p.occ[us].clear(int(m.from))
	p.occ[us].set(int(m.to))
	if y != 0 {
		p.hash ^= zPiece[y][m.to]
		p.occ[us^1].clear(int(m.to))
		p.half = 0
	} else {
		p.half++
	}
	p.board[m.to] = x
	p.board[m.from] = 0
	if x&kindMask == general {
		p.gen[p.turn] = m.to
	}
	if p.turn == rules.Black {
		p.full++
	}
	p.turn ^= 1
}
