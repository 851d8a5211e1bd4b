package emu

import (
	"errors"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// Stepper scripts one board's game ply by ply with the hands of a [Game],
// for games whose moves are not known in advance: a board of a team-drop
// match, whose drops wait for the pieces the partner board's captures
// hand over, and whose positions (the pockets) come from outside. Make one
// with [Game.Stepper]; [Game.Moves] is not used. Not safe for concurrent
// use.
type Stepper struct {
	w       *scripter
	white   Side
	noClock bool
	start   time.Time
	t       time.Duration // when the hands are free: the last press
	n       int
	plies   []Ply
}

// Stepper returns a stepper for g's board powered up at powerUp whose
// script is scheduled at start (as [Game.Plan]): the first press (the
// opponent of the side to move in g.Start starting the clock) comes after
// g.Lead.
func (g Game) Stepper(powerUp, start time.Time) (*Stepper, error) {
	if g.Start == nil {
		return nil, errors.New("emu: game without a start position")
	}
	o := g.BoardSetup()
	h := g.Hands
	if h == (Hands{}) {
		h = DefaultHands()
	}
	white := g.WhiteSide
	if white == NoSide {
		white = Left
	}
	lead := g.Lead
	if lead <= 0 {
		lead = time.Second
	}
	s := &Stepper{
		w: &scripter{h: h.withDefaults(), r: rand.New(rand.NewPCG(g.Seed, 0x4a4d)), scan: o.Scan(), orient: o.Orientation,
			from: start.Sub(powerUp), last: map[rules.Square]time.Duration{}},
		white: white, noClock: g.NoClock, start: start, t: lead,
	}
	if !g.NoClock {
		s.w.add(Action{At: lead, Kind: Press, Side: sideOf(g.Start.Turn().Other(), white)})
	}
	return s, nil
}

// Ready returns when the hands are free for the next ply: the last press
// (or release, without a clock).
func (s *Stepper) Ready() time.Time { return s.start.Add(s.t) }

// Step scripts move m from pos (the board's position now, as whoever
// keeps it has it: a team-drop board's pockets included): a think from
// Ready, the move made by the hands, its first touch not before notBefore
// (zero: no constraint), then the press. It returns what the hands did.
func (s *Stepper) Step(pos rules.Position, m rules.Move, notBefore time.Time) (Ply, error) {
	var nb time.Duration
	if !notBefore.IsZero() {
		nb = notBefore.Sub(s.start)
	}
	s.n++
	pt, err := s.w.ply(pos, m, s.n, s.t, nb, s.white, s.noClock)
	if err != nil {
		s.n--
		return Ply{}, err
	}
	s.t = pt.release
	if pt.pressed {
		s.t = pt.press
	}
	p := pt.at(s.start)
	s.plies = append(s.plies, p)
	return p, nil
}

// Plan returns the script so far (sorted, offsets from the start given to
// [Game.Stepper]) and the plies.
func (s *Stepper) Plan() (Script, []Ply) {
	sc := slices.Clone(s.w.s)
	slices.SortStableFunc(sc, func(a, b Action) int { return cmpDur(a.At, b.At) })
	return sc, slices.Clone(s.plies)
}
