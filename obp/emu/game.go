package emu

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// GameOptions shape the hands of [GameScript]. The zero value: think
// times of 2–6 s, hands at a normal pace, no incidents, the clock started
// by the second player's lever before the first move.
type GameOptions struct {
	// Think returns the thinking time before ply (1-based); nil: 2–6 s
	// drawn from Seed.
	Think func(ply int) time.Duration
	// Speed divides the hands' timings (2: twice as fast); 0 means 1.
	Speed float64
	// Seed draws the hands' timings and styles.
	Seed uint64
	// Incidents is the probability per move of something a real player
	// does now and then: a piece touched and put back before another one
	// is moved (touch-move evidence for the arbiter), or a long straight
	// move slid across a point on the way.
	Incidents float64
	// NoClockStart leaves out the second player's lever press that starts
	// the first player's clock.
	NoClockStart bool
}

// GameScript returns the actions of two players making moves from start:
// for each ply the think time, the lifts and puts of the move as hands
// make them (a capture's taken piece off the board before or after the
// mover is lifted; castling's two pieces, an en-passant capture and a
// promotion as the squares change), incidents as GameOptions says, and
// the mover's lever press after the last put. A move that does not play
// is an error naming its ply.
func GameScript(start rules.Position, moves []rules.Move, o GameOptions) (Script, error) {
	if o.Speed <= 0 {
		o.Speed = 1
	}
	r := rand.New(rand.NewPCG(o.Seed, 0x4a4d))
	hand := func(lo, hi time.Duration) time.Duration {
		return time.Duration(float64(lo+time.Duration(r.Int64N(int64(hi-lo)+1))) / o.Speed)
	}
	var s Script
	t := time.Duration(0)
	at := func(a Action) { s = append(s, Step{At: t, Action: a}) }
	if !o.NoClockStart {
		at(Lever{Side: start.Turn().Other()})
	}
	pos := start
	for i, m := range moves {
		ply := i + 1
		next, err := pos.Play(m)
		if err != nil {
			return nil, fmt.Errorf("obp/emu: ply %d (%s): %w", ply, pos.UCI(m), err)
		}
		think := time.Duration(2*time.Second + time.Duration(r.Int64N(int64(4*time.Second))))
		if o.Think != nil {
			think = o.Think(ply)
		}
		t += think
		before, after := pos.Placement(), next.Placement()
		incident := o.Incidents > 0 && r.Float64() < o.Incidents
		if incident && r.IntN(2) == 0 {
			if sq, ok := otherPiece(&before, pos.Turn(), m.From, r); ok {
				at(Lift{Square: sq})
				t += hand(400*time.Millisecond, 1200*time.Millisecond)
				at(Put{Square: sq, Piece: before.At(sq)})
				t += hand(300*time.Millisecond, 900*time.Millisecond)
				incident = false
			}
		}
		from, to := m.From, m.To
		switch {
		case !before.At(to).IsEmpty() && r.IntN(10) < 3:
			at(Lift{Square: to})
			t += hand(300*time.Millisecond, 800*time.Millisecond)
			at(Lift{Square: from})
			t += hand(200*time.Millisecond, 600*time.Millisecond)
		case !before.At(to).IsEmpty():
			at(Lift{Square: from})
			t += hand(200*time.Millisecond, 500*time.Millisecond)
			at(Lift{Square: to})
			t += hand(200*time.Millisecond, 600*time.Millisecond)
		default:
			at(Lift{Square: from})
			t += hand(300*time.Millisecond, 900*time.Millisecond)
			if via, ok := slideVia(&before, from, to); ok && incident {
				at(Put{Square: via, Piece: before.At(from)})
				t += hand(100*time.Millisecond, 300*time.Millisecond)
				at(Lift{Square: via})
				t += hand(100*time.Millisecond, 300*time.Millisecond)
			}
		}
		at(Put{Square: to, Piece: after.At(to)})
		for _, sq := range before.Diff(&after, nil) {
			if sq == from || sq == to {
				continue
			}
			t += hand(300*time.Millisecond, 700*time.Millisecond)
			if !before.At(sq).IsEmpty() {
				at(Lift{Square: sq})
				t += hand(200*time.Millisecond, 500*time.Millisecond)
			}
			if !after.At(sq).IsEmpty() {
				at(Put{Square: sq, Piece: after.At(sq)})
			}
		}
		t += hand(300*time.Millisecond, 1200*time.Millisecond)
		at(Lever{Side: pos.Turn()})
		pos = next
	}
	return s, nil
}

// otherPiece picks a piece of side c other than the one on not.
func otherPiece(p *rules.Placement, c rules.Color, not rules.Square, r *rand.Rand) (rules.Square, bool) {
	var own []rules.Square
	for s := range p.Geo.Size() {
		if pc := p.Sq[s]; !pc.IsEmpty() && pc.Color == c && rules.Square(s) != not {
			own = append(own, rules.Square(s))
		}
	}
	if len(own) == 0 {
		return rules.NoSquare, false
	}
	return own[r.IntN(len(own))], true
}

// slideVia returns the first point after from on a straight move of two
// or more steps to an empty to, when it is empty: a piece slid along the
// board touches it on the way.
func slideVia(p *rules.Placement, from, to rules.Square) (rules.Square, bool) {
	g := p.Geo
	df, dr := g.File(to)-g.File(from), g.Rank(to)-g.Rank(from)
	if df != 0 && dr != 0 || max(abs(df), abs(dr)) < 2 {
		return rules.NoSquare, false
	}
	via := g.Square(g.File(from)+sign(df), g.Rank(from)+sign(dr))
	if !p.At(via).IsEmpty() {
		return rules.NoSquare, false
	}
	return via, true
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func sign(x int) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}
