package emu

import (
	"math/rand/v2"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// HumanScript turns a game into human hands: think times as recorded in
// thought (thought[i] for moves[i]; 0 or missing: not recorded, 1–5 s
// drawn from seed), divided by speed; incidents is the probability per
// move of a touched piece put back or a slide across a point.
func HumanScript(start rules.Position, moves []rules.Move, thought []time.Duration, speed float64, seed uint64, incidents float64) (Script, error) {
	rng := rand.New(rand.NewPCG(seed, 0x0b9))
	think := make([]time.Duration, len(moves)+1)
	for i := range moves {
		d := time.Second + time.Duration(rng.Int64N(int64(4*time.Second)))
		if i < len(thought) && thought[i] > 0 {
			d = thought[i]
		}
		think[i+1] = time.Duration(float64(d) / speed)
	}
	return GameScript(start, moves, GameOptions{
		Think: func(ply int) time.Duration { return think[ply] }, Speed: speed, Seed: seed, Incidents: incidents,
	})
}
