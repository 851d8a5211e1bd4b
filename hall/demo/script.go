package demo

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/pgn"
)

// Incident is an irregularity a demo game is scripted to contain, so that
// the arbiter subjects have something to show.
type Incident uint8

const (
	// NoIncident: a clean game.
	NoIncident Incident = iota
	// TouchMove: the player to move lifts one of their pieces that has a
	// legal move, puts it back, and moves another piece (FIDE 4.3).
	TouchMove
	// IllegalMove: the player about to move a knight moves it one square
	// diagonally instead (like a bishop), presses the clock, then puts the
	// knight back and makes the game's move with it (FIDE 7.5).
	IllegalMove
)

// String returns the incident's name.
func (i Incident) String() string {
	switch i {
	case TouchMove:
		return "touch-move"
	case IllegalMove:
		return "illegal move"
	}
	return "none"
}

// IncidentFor is the incident scripted on board (1-based) in round
// (1-based): every third game touch-move, every third an illegal move, the
// rest clean; in round 1, board 2 has the touch-move and board 3 the
// illegal move.
func IncidentFor(round, board int) Incident {
	switch (round + board) % 3 {
	case 0:
		return TouchMove
	case 1:
		return IllegalMove
	}
	return NoIncident
}

// ErrNoIncident: the game offers no position for the requested incident
// (no knight move from a square with an empty diagonal neighbour, no
// second movable piece).
var ErrNoIncident = errors.New("demo: no position in the game for the incident")

// maxHandSpeed caps the pace of the hands: beyond about three times a
// normal player's, a piece is lifted and put down within one sensor scan
// and a board (real or emulated) no longer shows the move as hands make it.
const maxHandSpeed = 3

// PlayOptions say how Play plays a game.
type PlayOptions struct {
	// Speed divides think times and speeds up the hands, up to three
	// times (1: think 1–4 s a move; 0 means 1).
	Speed float64
	// Seed draws the think times, handling styles and incident ply.
	Seed uint64
	// Incident to script, at a ply drawn from Seed past the opening.
	Incident Incident
	// Gesture: after the last move, both players put their kings in the
	// centre (the DGT result signal for the game's result).
	Gesture bool
}

// Played is the script of one game and what it will show.
type Played struct {
	Script emu.Script
	// IncidentPly is the ply (1-based) before whose move the incident
	// happens; 0 when none.
	IncidentPly int
	// Final is what stands on the board when the script is over.
	Final rules.Placement
}

// Play returns the script of g played on an emulated board with White on
// the clock's left: Black starts White's clock, then each move comes after a
// think pause, made in a handling style drawn from the seed (mostly clean,
// some destination-first, capture-first and slow slides, castling rook
// first now and then) and completed by the mover's press; the incident, if
// any, comes before its ply's move; the result gesture after the last.
func Play(g *pgn.Game, o PlayOptions) (Played, error) {
	if o.Speed <= 0 {
		o.Speed = 1
	}
	if g.Start == nil {
		return Played{}, errors.New("demo: game without a start position")
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0xde70))
	scale := func(d time.Duration) time.Duration { return time.Duration(float64(d) / o.Speed) }
	s := emu.Script{{Kind: emu.Press, Side: emu.Right}}
	incidentPly := 0
	if o.Incident != NoIncident {
		incidentPly = findIncidentPly(g, o.Incident, rng)
		if incidentPly == 0 {
			return Played{}, fmt.Errorf("%w: %s in %s–%s", ErrNoIncident, o.Incident, g.Tag("White"), g.Tag("Black"))
		}
	}
	pos := g.Start
	for i, mv := range g.Moves {
		ply := i + 1
		side := emu.Left
		if pos.Turn() == rules.Black {
			side = emu.Right
		}
		think := scale(time.Second + time.Duration(rng.Int64N(int64(3*time.Second))))
		h := emu.Handling{Speed: min(o.Speed, maxHandSpeed) * (0.8 + 0.4*rng.Float64()), RookFirst: rng.IntN(10) < 3, Press: true, Side: side}
		switch r := rng.IntN(20); {
		case r < 3:
			h.Style = emu.DestinationFirst
		case r < 5:
			h.Style = emu.CaptureFirst
		case r < 7:
			h.Style = emu.Slow
		}
		if ply == incidentPly {
			h.Style = emu.Clean // the incident is the only irregularity
		}
		if incidentPly > 0 && ply == incidentPly+1 {
			// The reply waits until the incident's move has been judged
			// on its own.
			think = max(think, 1500*time.Millisecond)
		}
		ms, err := emu.MoveScript(pos, mv.Move, h)
		if err != nil {
			return Played{}, fmt.Errorf("demo: ply %d %s: %w", ply, mv.SAN, err)
		}
		if ply == incidentPly {
			// The incident waits until the opponent's press has surely
			// been read (the turn has begun for the board's reader).
			pre := incidentScript(pos, mv.Move, o.Incident, side, o.Speed)
			s = s.Then(max(think, 1500*time.Millisecond), pre)
			think = scale(1500 * time.Millisecond)
		}
		s = s.Then(think, ms)
		if pos, err = pos.Play(mv.Move); err != nil {
			return Played{}, fmt.Errorf("demo: ply %d %s: %w", ply, mv.SAN, err)
		}
	}
	final := pos.Placement()
	if o.Gesture && (g.Result == emu.WhiteWins || g.Result == emu.BlackWins || g.Result == emu.Draw) {
		gs, err := emu.ResultGesture(&final, g.Result, min(o.Speed, maxHandSpeed))
		if err != nil {
			return Played{}, err
		}
		// The players look at the final position a while: a board
		// reader judges the last move before the kings move (at least
		// 2.5 s, whatever the speed).
		s = s.Then(max(scale(3*time.Second), 2500*time.Millisecond), gs)
		final = apply(final, gs)
	}
	return Played{Script: s, IncidentPly: incidentPly, Final: final}, nil
}

// findIncidentPly draws the ply of the incident among those past the
// opening (ply 5 on, before the last three) that allow it; 0 when none.
func findIncidentPly(g *pgn.Game, inc Incident, rng *rand.Rand) int {
	var ok []int
	pos := g.Start
	for i, mv := range g.Moves {
		ply := i + 1
		if ply >= 5 && ply <= len(g.Moves)-3 {
			switch inc {
			case TouchMove:
				if _, found := touchable(pos, mv.Move); found {
					ok = append(ok, ply)
				}
			case IllegalMove:
				if _, _, found := knightAsBishop(pos, mv.Move); found {
					ok = append(ok, ply)
				}
			}
		}
		next, err := pos.Play(mv.Move)
		if err != nil {
			return 0
		}
		pos = next
	}
	if len(ok) == 0 {
		return 0
	}
	return ok[rng.IntN(len(ok))]
}

// touchable returns a square of a piece of the side to move, other than the
// one m moves, that has a legal move (touching it obliges, 4.3.1).
func touchable(pos rules.Position, m rules.Move) (rules.Square, bool) {
	for _, lm := range pos.LegalMoves(nil) {
		if lm.From != m.From && lm.From != rules.NoSquare && pos.At(lm.From).Kind != rules.King {
			return lm.From, true
		}
	}
	return rules.NoSquare, false
}

// knightAsBishop returns the knight that m moves and an empty square one
// step diagonally from it: a move no knight can make. Only the piece the
// game moves next is taken, so that putting it back and making the game's
// move honours touch-move (7.5.1: 4.3 applies to the move replacing the
// illegal one) and the incident is the illegal move alone.
func knightAsBishop(pos rules.Position, m rules.Move) (from, to rules.Square, ok bool) {
	geo := pos.Geometry()
	for _, sq := range []rules.Square{m.From} {
		p := pos.At(sq)
		if m.IsDrop() || p.Kind != rules.Knight || p.Color != pos.Turn() {
			continue
		}
		f, r := geo.File(sq), geo.Rank(sq)
		for _, d := range [][2]int{{1, 1}, {-1, 1}, {1, -1}, {-1, -1}} {
			t := geo.Square(f+d[0], r+d[1])
			if t != rules.NoSquare && pos.At(t).IsEmpty() {
				return sq, t, true
			}
		}
	}
	return rules.NoSquare, rules.NoSquare, false
}

// incidentScript returns the actions of the incident before m is made.
// They keep a human pace whatever the speed (at most twice as fast), so
// the board's scan sees every step.
func incidentScript(pos rules.Position, m rules.Move, inc Incident, side emu.Side, speed float64) emu.Script {
	scale := func(d time.Duration) time.Duration { return time.Duration(float64(d) / min(speed, 2)) }
	switch inc {
	case TouchMove:
		sq, _ := touchable(pos, m)
		p := pos.At(sq)
		return emu.Script{
			{At: 0, Kind: emu.Lift, Square: sq},
			// Held 1.5 s: long enough to be seen as a touch, shorter than
			// the tracker's hold (2 s, after which a missing piece is a
			// displaced-pieces alert); the alert is a warning then (the
			// put-back could have been an announced adjustment, 4.2.1).
			{At: 1500 * time.Millisecond, Kind: emu.Place, Square: sq, Piece: p},
		}
	case IllegalMove:
		from, to, _ := knightAsBishop(pos, m)
		p := pos.At(from)
		// The knight goes to the wrong square and the clock is pressed (a
		// completed illegal move); a few seconds later the player puts it
		// back, then makes the game's move.
		return emu.Script{
			{At: 0, Kind: emu.Lift, Square: from},
			{At: scale(400 * time.Millisecond), Kind: emu.Place, Square: to, Piece: p},
			{At: scale(1200 * time.Millisecond), Kind: emu.Press, Side: side},
			{At: scale(4 * time.Second), Kind: emu.Lift, Square: to},
			{At: scale(4500 * time.Millisecond), Kind: emu.Place, Square: from, Piece: p},
		}
	}
	return nil
}

// apply returns p after the lifts and placements of s.
func apply(p rules.Placement, s emu.Script) rules.Placement {
	for _, a := range s {
		switch a.Kind {
		case emu.Lift:
			p.Sq[a.Square] = rules.NoPiece
		case emu.Place:
			p.Sq[a.Square] = a.Piece
		}
	}
	return p
}

// SetUp returns the script of the players setting the start position up
// again on a board showing from: every piece not on its start square is
// taken off, then the missing pieces are put on their squares, one hand at
// a time (at most three times a normal pace, like every hand here).
func SetUp(from rules.Placement, speed float64) emu.Script {
	if speed <= 0 {
		speed = 1
	}
	step := time.Duration(float64(250*time.Millisecond) / min(speed, maxHandSpeed))
	start := emu.StartPlacement()
	diff := from.Diff(&start, nil)
	var s emu.Script
	at := time.Duration(0)
	for _, sq := range diff {
		if !from.At(sq).IsEmpty() {
			s = append(s, emu.Action{At: at, Kind: emu.Lift, Square: sq})
			at += step
		}
	}
	for _, sq := range diff {
		if !start.At(sq).IsEmpty() {
			s = append(s, emu.Action{At: at, Kind: emu.Place, Square: sq, Piece: start.At(sq)})
			at += step
		}
	}
	return s
}
