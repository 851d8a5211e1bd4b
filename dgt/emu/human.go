package emu

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// HumanGame is a game as the players' hands are to play it.
type HumanGame struct {
	Start rules.Position
	Moves []rules.Move
	// Thought[i] is the time the player took over Moves[i] as the game
	// records it ([%emt]); 0 or missing: not recorded.
	Thought []time.Duration
	Result  string // WhiteWins, BlackWins, Draw, or anything else (no result)
}

// HumanScript turns a game into timed lifts, placements and clock
// presses: think times as recorded where present (else 1–5 s), divided
// by speed; handling styles drawn from seed: mostly clean, some
// destination-first, capture-first and slow slides, castling rook first
// now and then. With gesture, a decided game ends 3 s (divided by speed)
// after the last move with the result signalled by the kings.
func HumanScript(g HumanGame, speed float64, seed uint64, gesture bool) (Script, error) {
	rng := rand.New(rand.NewPCG(seed, 0xd67))
	think := make([]time.Duration, len(g.Moves)+1)
	hand := make([]Handling, len(g.Moves)+1)
	for i := range g.Moves {
		d := time.Second + time.Duration(rng.Int64N(int64(4*time.Second)))
		if i < len(g.Thought) && g.Thought[i] > 0 {
			d = g.Thought[i]
		}
		think[i+1] = time.Duration(float64(d) / speed)
		h := Handling{Speed: speed * (0.7 + 0.6*rng.Float64()), RookFirst: rng.IntN(10) < 3}
		switch r := rng.IntN(20); {
		case r < 3:
			h.Style = DestinationFirst
		case r < 6:
			h.Style = CaptureFirst
		case r < 8:
			h.Style = Slow
		}
		hand[i+1] = h
	}
	s, err := GameScript(g.Start, g.Moves, GameOptions{
		Think:    func(ply int) time.Duration { return think[ply] },
		Handling: func(ply int) Handling { return hand[ply] },
	})
	if err != nil {
		return nil, err
	}
	if gesture && (g.Result == WhiteWins || g.Result == BlackWins || g.Result == Draw) {
		final := g.Start
		for _, m := range g.Moves {
			if final, err = final.Play(m); err != nil {
				return nil, err
			}
		}
		pl := final.Placement()
		gs, err := ResultGesture(&pl, g.Result, speed)
		if err != nil {
			return nil, err
		}
		s = s.Then(time.Duration(float64(3*time.Second)/speed), gs)
	}
	return s, nil
}

// ParseTimeControl parses "base+inc" in seconds (PGN TimeControl's
// simple form, e.g. "5400+30", "180+2", "300") into a Fischer clock.
func ParseTimeControl(s string) (ClockSetting, error) {
	base, inc, _ := strings.Cut(s, "+")
	b, err := strconv.Atoi(base)
	if err != nil || b <= 0 {
		return ClockSetting{}, fmt.Errorf("time control %q: want base+increment in seconds, e.g. 5400+30", s)
	}
	i := 0
	if inc != "" {
		if i, err = strconv.Atoi(inc); err != nil || i < 0 {
			return ClockSetting{}, fmt.Errorf("time control %q: bad increment", s)
		}
	}
	return ClockSetting{Base: time.Duration(b) * time.Second, Increment: time.Duration(i) * time.Second, Mode: Fischer}, nil
}

// ParseSpan parses "1s-3s" (a range) or "2s" (a fixed time).
func ParseSpan(s string) (Span, error) {
	lo, hi, isRange := strings.Cut(s, "-")
	a, err := time.ParseDuration(strings.TrimSpace(lo))
	if err != nil {
		return Span{}, fmt.Errorf("%q: want a duration or a range like 1s-3s", s)
	}
	b := a
	if isRange {
		if b, err = time.ParseDuration(strings.TrimSpace(hi)); err != nil || b < a {
			return Span{}, fmt.Errorf("%q: want a range like 1s-3s", s)
		}
	}
	if a <= 0 {
		return Span{}, fmt.Errorf("%q: the time must be positive", s)
	}
	return Span{Min: a, Max: b}, nil
}
