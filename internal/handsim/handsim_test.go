package handsim

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

// final returns the placement the inputs leave (square reports applied,
// or the last full read).
func final(g Game) rules.Placement {
	p := g.Start.Placement()
	for _, in := range g.Inputs {
		switch s := in.Sensed.(type) {
		case game.SquareChange:
			p.Sq[s.Square] = s.Piece
		case game.FullRead:
			p = s.Placement
		}
	}
	return p
}

// TestPlayReachesTheGame: the board's reports end in the position of the
// moves played, in time order, with the lever 0–400 ms after the release
// and every hand at least 100 ms after the opponent's press.
func TestPlayReachesTheGame(t *testing.T) {
	for seed := range uint64(60) {
		r := rand.New(rand.NewPCG(seed, 1))
		o := Options{Start: t0, Plies: 30, Pace: Pace(seed % 3), Noise: seed%2 == 0, Bursts: seed%4 == 1, DumpsOnly: seed%5 == 4}
		g := Play(r, o)
		pos := g.Start
		for i, p := range g.Plies {
			next, err := pos.Play(p.Move)
			if err != nil {
				t.Fatalf("seed %d ply %d: %v", seed, i+1, err)
			}
			pos = next
			if d := p.Press.Sub(p.Release); d < 0 || d > 400*time.Millisecond {
				t.Fatalf("seed %d ply %d: pressed %v after the release", seed, i+1, d)
			}
		}
		if got, want := final(g), pos.Placement(); got != want {
			t.Fatalf("seed %d: the reports end in\n%s\nnot\n%s", seed, got.String(), want.String())
		}
		for i := 1; i < len(g.Inputs); i++ {
			if g.Inputs[i].At.Before(g.Inputs[i-1].At) {
				t.Fatalf("seed %d: input %d at %v before input %d at %v", seed, i, g.Inputs[i].At, i-1, g.Inputs[i-1].At)
			}
		}
		for _, in := range g.Inputs {
			_, face := in.Sensed.(game.ClockFace)
			_, sq := in.Sensed.(game.SquareChange)
			if o.DumpsOnly && (face || sq) {
				t.Fatalf("seed %d: a board read by dumps only reported %T", seed, in.Sensed)
			}
		}
	}
}

// TestBlitzRecapturesBeatTheScan: at blitz pace recaptures come 100–300
// ms after the press, so that some land before the board reported the
// piece they take.
func TestBlitzRecapturesBeatTheScan(t *testing.T) {
	quick, unseen := 0, 0
	for seed := range uint64(40) {
		g := Play(rand.New(rand.NewPCG(seed, 2)), Options{Start: t0, Plies: 60, Pace: Blitz})
		pos := g.Start
		var landed rules.Piece // the piece the previous move put on its square
		for i, p := range g.Plies {
			next, _ := pos.Play(p.Move)
			if p.Quick {
				quick++
				prev := g.Plies[i-1]
				if d := p.Release.Sub(prev.Press); d < 100*time.Millisecond {
					t.Fatalf("seed %d ply %d: the hand came %v after the press", seed, i+1, d)
				}
				seen := false // the board reported the piece taken on its square
				for _, in := range g.Inputs {
					if s, ok := in.Sensed.(game.SquareChange); ok && s.Square == prev.Move.To && s.Piece == landed &&
						!in.At.Before(prev.Release) && !in.At.After(p.Release) {
						seen = true
					}
				}
				if !seen {
					unseen++
				}
			}
			landed = next.Placement().Sq[p.Move.To]
			pos = next
		}
	}
	if quick < 20 {
		t.Fatalf("%d quick recaptures in 40 blitz games, want at least 20", quick)
	}
	if unseen == 0 {
		t.Fatalf("no quick recapture of %d came before the board had reported its victim", quick)
	}
	t.Logf("%d quick recaptures, %d before the board had surely reported the piece they take", quick, unseen)
}
