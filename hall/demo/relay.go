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

// RelayPlayed is the script of a blind-player game on its two boards.
type RelayPlayed struct {
	// Sighted is the sighted player's board (with the clock); Blind the
	// blind player's.
	Sighted, Blind Played
}

// PlayRelay returns the scripts of g played between a sighted player and a
// blind player of colour blind (FIDE Laws Appendix D): each move is made
// on its player's board and executed on the other board after a pause (the
// move announced and repeated); the sighted player presses the clock after
// his move, the blind player shortly after announcing his. Think times and
// hands follow o.Speed as in Play (o.Incident is ignored: the relay game
// stays clean). With o.Gesture the players signal the result with the
// kings in the centre of the sighted board (the one the relay reads the
// result from).
func PlayRelay(g *pgn.Game, blind rules.Color, o PlayOptions) (RelayPlayed, error) {
	if o.Speed <= 0 {
		o.Speed = 1
	}
	if g.Start == nil {
		return RelayPlayed{}, errors.New("demo: game without a start position")
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0xb11d))
	scale := func(d time.Duration) time.Duration { return time.Duration(float64(d) / o.Speed) }
	n := len(g.Moves)
	think := make([]time.Duration, n+1)
	for i := range think {
		think[i] = scale(time.Second + time.Duration(rng.Int64N(int64(3*time.Second))))
	}
	moves := make([]rules.Move, 0, n)
	for _, m := range g.Moves {
		moves = append(moves, m.Move)
	}
	hand := min(o.Speed, maxHandSpeed)
	sighted, blindS, err := emu.RelayScripts(g.Start, moves, emu.RelayOptions{Blind: blind,
		Think: func(ply int) time.Duration { return think[ply] },
		// Announcing, repeating and finding the pieces takes a human
		// moment whatever the speed.
		Mirror:     func(int) time.Duration { return max(scale(1500*time.Millisecond), 600*time.Millisecond) },
		BlindPress: func(int) time.Duration { return max(scale(500*time.Millisecond), 300*time.Millisecond) },
		Handling:   func(int, bool) emu.Handling { return emu.Handling{Speed: hand} },
	})
	if err != nil {
		return RelayPlayed{}, fmt.Errorf("demo: relay game: %w", err)
	}
	final, err := g.Final()
	if err != nil {
		return RelayPlayed{}, err
	}
	fs, fb := final.Placement(), final.Placement()
	if o.Gesture && (g.Result == emu.WhiteWins || g.Result == emu.BlackWins || g.Result == emu.Draw) {
		gs, err := emu.ResultGesture(&fs, g.Result, hand)
		if err != nil {
			return RelayPlayed{}, err
		}
		end := max(sighted.Duration(), blindS.Duration())
		gap := max(scale(3*time.Second), 2500*time.Millisecond)
		for i := range gs {
			gs[i].At += end + gap
		}
		sighted = append(sighted, gs...)
		fs = apply(fs, gs)
	}
	return RelayPlayed{Sighted: Played{Script: sighted, Final: fs}, Blind: Played{Script: blindS, Final: fb}}, nil
}
