package emu

import (
	"errors"
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// Style is how a hand handles the pieces of one move.
type Style uint8

// Handling styles.
const (
	// Clean: lift the piece, take a captured piece off after lifting
	// one's own (en passant: after placing), place the piece.
	Clean Style = iota
	// Slow: like Clean, but the piece is slid across every square in
	// between and rests on each long enough for the scanner to see it
	// (a slide a real board reports square by square).
	Slow
	// CaptureFirst: the captured piece is taken off before the mover is
	// lifted.
	CaptureFirst
	// DestinationFirst: lift and place within a fraction of a scan, so
	// the scanner's field order decides what the host hears first — often
	// the destination before the origin.
	DestinationFirst
)

// String returns the style's name.
func (s Style) String() string {
	switch s {
	case Clean:
		return "clean"
	case Slow:
		return "slow"
	case CaptureFirst:
		return "capture-first"
	case DestinationFirst:
		return "destination-first"
	}
	return fmt.Sprintf("style(%d)", s)
}

// Handling says how one move is made physically.
type Handling struct {
	Style Style
	// Speed scales the hand's pace: 1 (or 0) an ordinary player, 2 twice
	// as fast, 0.5 half as fast.
	Speed float64
	// RookFirst: castle by moving the rook before the king.
	RookFirst bool
	// Press: press the clock lever on Side after the move.
	Press bool
	Side  Side
}

// Physical is what a move does to the squares: the only thing the
// emulator needs to know about chess. Build it with [Expand] from a
// position, or directly from squares.
type Physical struct {
	From, To rules.Square // the moving piece's squares; From is NoSquare for a drop, To for a lift off the board
	Piece    rules.Piece  // the moving piece
	Placed   rules.Piece  // what is put on To (the promotion piece; else Piece)
	Captured rules.Square // the captured piece's square (To, or the en-passant square); NoSquare if none
	// Castling: the rook's squares (NoSquare when not castling).
	RookFrom, RookTo rules.Square
	Rook             rules.Piece
}

// ErrNotPhysical is returned by [Expand] for a move that cannot be made
// on a DGT board (no piece on the origin, not an 8×8 board).
var ErrNotPhysical = errors.New("emu: move cannot be made on the board")

// Expand returns the square-level effect of m in pos. It needs only
// pos.At, pos.Turn and pos.Geometry, so it works for any 8×8 variant
// (chess, Chess960 with king-takes-rook castling, drops).
func Expand(pos rules.Position, m rules.Move) (Physical, error) {
	g := pos.Geometry()
	if g != rules.Chess8x8 {
		return Physical{}, fmt.Errorf("%w: %dx%d board", ErrNotPhysical, g.Files, g.Ranks)
	}
	p := Physical{From: m.From, To: m.To, Captured: rules.NoSquare, RookFrom: rules.NoSquare, RookTo: rules.NoSquare}
	if m.IsDrop() {
		p.From = rules.NoSquare
		p.Piece = rules.Piece{Color: pos.Turn(), Kind: m.Drop}
		p.Placed = p.Piece
		return p, nil
	}
	if m.Flags&rules.FlagRemove != 0 {
		// A piece of the opponent lifted off the board (team-drop: the
		// removal of a pawn on the last rank, a confiscation).
		p.Piece = pos.At(m.From)
		if p.Piece.IsEmpty() {
			return Physical{}, fmt.Errorf("%w: no piece on %s", ErrNotPhysical, g.Name(m.From))
		}
		p.To, p.Placed = rules.NoSquare, rules.NoPiece
		return p, nil
	}
	p.Piece = pos.At(m.From)
	if p.Piece.IsEmpty() {
		return Physical{}, fmt.Errorf("%w: no piece on %s", ErrNotPhysical, g.Name(m.From))
	}
	p.Placed = p.Piece
	if m.Promo != rules.NoKind {
		p.Placed = rules.Piece{Color: p.Piece.Color, Kind: m.Promo}
	}
	target := pos.At(m.To)
	castle := m.IsCastle() || (p.Piece.Kind == rules.King && target.Kind == rules.Rook && target.Color == p.Piece.Color)
	if castle {
		rank := g.Rank(m.From)
		kf, rf := 6, 5 // O-O: king to g, rook to f
		if g.File(m.To) < g.File(m.From) {
			kf, rf = 2, 3 // O-O-O
		}
		p.Rook = target
		p.RookFrom, p.RookTo = m.To, g.Square(rf, rank)
		p.To = g.Square(kf, rank)
		return p, nil
	}
	switch {
	case !target.IsEmpty():
		p.Captured = m.To
	case p.Piece.Kind == rules.Pawn && g.File(m.From) != g.File(m.To):
		p.Captured = g.Square(g.File(m.To), g.Rank(m.From)) // en passant
	}
	return p, nil
}

// Script returns the timed lifts and placements that make the move with
// handling h, starting at offset 0.
func (p Physical) Script(h Handling) Script {
	speed := h.Speed
	if speed <= 0 {
		speed = 1
	}
	var s Script
	t := time.Duration(0)
	step := func(d time.Duration) { t += time.Duration(float64(d) / speed) }
	lift := func(sq rules.Square) { s = append(s, Action{At: t, Kind: Lift, Square: sq}) }
	place := func(sq rules.Square, pc rules.Piece) {
		s = append(s, Action{At: t, Kind: Place, Square: sq, Piece: pc})
	}
	beat := 350 * time.Millisecond
	if h.Style == DestinationFirst {
		beat = 15 * time.Millisecond
	}

	switch {
	case p.RookFrom != rules.NoSquare:
		p.castleScript(h, beat, step, lift, place)
	case p.To == rules.NoSquare:
		lift(p.From) // a lift off the board
	default:
		ep := p.Captured != rules.NoSquare && p.Captured != p.To
		if p.Captured != rules.NoSquare && (h.Style == CaptureFirst || h.Style == DestinationFirst) {
			lift(p.Captured)
			step(beat)
		}
		if p.From != rules.NoSquare {
			lift(p.From)
			step(beat)
		}
		if p.Captured != rules.NoSquare && !ep && (h.Style == Clean || h.Style == Slow) {
			lift(p.Captured)
			step(beat)
		}
		if h.Style == Slow && p.From != rules.NoSquare {
			for _, sq := range between(p.From, p.To) {
				place(sq, p.Piece)
				step(2 * DefaultScanPeriod)
				lift(sq)
				step(beat / 3)
			}
		}
		place(p.To, p.Placed)
		if ep && (h.Style == Clean || h.Style == Slow) {
			step(beat)
			lift(p.Captured)
		}
	}
	if h.Press {
		step(beat)
		s = append(s, Action{At: t, Kind: Press, Side: h.Side})
	}
	return s
}

// castleScript appends the king's and the rook's moves in the order h
// asks for. When one piece's destination is the other's origin (Chess960)
// both are lifted before either is placed.
func (p Physical) castleScript(h Handling, beat time.Duration, step func(time.Duration), lift func(rules.Square), place func(rules.Square, rules.Piece)) {
	type mv struct {
		from, to rules.Square
		pc       rules.Piece
	}
	k := mv{p.From, p.To, p.Piece}
	r := mv{p.RookFrom, p.RookTo, p.Rook}
	first, second := k, r
	if h.RookFirst {
		first, second = r, k
	}
	if p.To == p.RookFrom || p.RookTo == p.From {
		for _, m := range []mv{first, second} {
			if m.from != m.to {
				lift(m.from)
				step(beat)
			}
		}
		for _, m := range []mv{first, second} {
			if m.from != m.to {
				place(m.to, m.pc)
				step(beat)
			}
		}
		return
	}
	for _, m := range []mv{first, second} {
		if m.from == m.to {
			continue
		}
		lift(m.from)
		step(beat)
		place(m.to, m.pc)
		step(beat)
	}
}

// between returns the squares strictly between a and b on a line (rank,
// file or diagonal), in order from a; nil when they are not on one line
// (a knight's move) or adjacent.
func between(a, b rules.Square) []rules.Square {
	g := rules.Chess8x8
	df, dr := g.File(b)-g.File(a), g.Rank(b)-g.Rank(a)
	if df != 0 && dr != 0 && df != dr && df != -dr {
		return nil
	}
	n := max(abs(df), abs(dr))
	sf, sr := sign(df), sign(dr)
	var out []rules.Square
	for i := 1; i < n; i++ {
		out = append(out, g.Square(g.File(a)+i*sf, g.Rank(a)+i*sr))
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// MoveScript is [Expand] followed by [Physical.Script].
func MoveScript(pos rules.Position, m rules.Move, h Handling) (Script, error) {
	p, err := Expand(pos, m)
	if err != nil {
		return nil, err
	}
	return p.Script(h), nil
}
