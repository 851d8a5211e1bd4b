package handsim

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/obp"
	"github.com/dgtbridge/dgtbridge/rules"
)

// TestXiangqiLinesReachTheGame: a xiangqi game on an OBP board: legal
// moves on a 9×10 board; the L and P lines, in time order, end in the
// game's placement (an occupancy board's in its occupied points); a C
// line at every press with the other clock running, and one at least
// every second.
func TestXiangqiLinesReachTheGame(t *testing.T) {
	for seed := range uint64(60) {
		occupancy := seed%3 == 2
		g := Play(rand.New(rand.NewPCG(seed, 5)), Options{Start: t0, Plies: 40, Pace: Pace(seed % 3), Xiangqi: true, Occupancy: occupancy, Noise: seed%2 == 0})
		if g.Start.Geometry() != rules.Xiangqi9x10 || len(g.Inputs) != 0 || len(g.Plies) == 0 {
			t.Fatalf("seed %d: a game on %v, %d inputs, %d plies", seed, g.Start.Geometry(), len(g.Inputs), len(g.Plies))
		}
		pos := g.Start
		for i, p := range g.Plies {
			next, err := pos.Play(p.Move)
			if err != nil {
				t.Fatalf("seed %d ply %d: %v", seed, i+1, err)
			}
			pos = next
		}
		p := g.Start.Placement()
		var lastClock, last time.Time
		presses := 0
		running := rules.White
		for i, l := range g.Lines {
			if i > 0 && !l.At.After(last) {
				t.Fatalf("seed %d: line %d at %v, not after the one before", seed, i, l.At)
			}
			last = l.At
			switch m := l.Msg.(type) {
			case obp.Lift:
				if p.Sq[m.Square].IsEmpty() {
					t.Fatalf("seed %d: a lift from the empty point %s", seed, p.Geo.Name(m.Square))
				}
				p.Sq[m.Square] = rules.NoPiece
			case obp.Put:
				if m.Unidentified != occupancy || (m.Piece.IsEmpty() != occupancy) {
					t.Fatalf("seed %d: %+v on a board sensing occupancy %v", seed, m, occupancy)
				}
				p.Sq[m.Square] = m.Piece
				if occupancy {
					p.Sq[m.Square] = rules.Piece{Color: rules.White, Kind: rules.Pawn} // occupied
				}
			case obp.Clock:
				if !lastClock.IsZero() && l.At.Sub(lastClock) > time.Second+40*time.Millisecond {
					t.Fatalf("seed %d: clock lines %v apart", seed, l.At.Sub(lastClock))
				}
				lastClock = l.At
				if m.Running != running {
					presses++
					running = m.Running
				}
			}
		}
		if presses != len(g.Plies) {
			t.Fatalf("seed %d: the clock lines show %d presses for %d plies", seed, presses, len(g.Plies))
		}
		want := pos.Placement()
		for s := range want.Sq {
			if occupancy && want.Sq[s].IsEmpty() != p.Sq[s].IsEmpty() || !occupancy && want.Sq[s] != p.Sq[s] {
				t.Fatalf("seed %d: the lines end in\n%s\nnot\n%s", seed, p.String(), want.String())
			}
		}
	}
}

// TestOBPChatterIsPossible: a chattering sensor's lines are those of a
// board: every point's lifts and puts alternate (no lift from a free
// point, no put on an occupied one), however often the chatter falls on
// the same point (two of one point at once read two lifts in a row).
func TestOBPChatterIsPossible(t *testing.T) {
	for seed := range uint64(1500) {
		g := Play(rand.New(rand.NewPCG(seed, 0x0c4)), Options{Start: t0, Plies: 10, Pace: Pace(seed % 3), Xiangqi: true, Occupancy: seed%2 == 0, Noise: true})
		p := g.Start.Placement()
		for _, l := range g.Lines {
			switch m := l.Msg.(type) {
			case obp.Lift:
				if p.Sq[m.Square].IsEmpty() {
					t.Fatalf("seed %d: at %v a lift from the free point %s", seed, l.At.Sub(t0), p.Geo.Name(m.Square))
				}
				p.Sq[m.Square] = rules.NoPiece
			case obp.Put:
				if !p.Sq[m.Square].IsEmpty() {
					t.Fatalf("seed %d: at %v a put on the occupied point %s", seed, l.At.Sub(t0), p.Geo.Name(m.Square))
				}
				p.Sq[m.Square] = rules.Piece{Color: rules.White, Kind: rules.Pawn} // occupied
			}
		}
	}
}
