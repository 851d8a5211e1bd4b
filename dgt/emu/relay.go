package emu

import (
	"fmt"
	"slices"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// RelayOptions say how [RelayScripts] plays a game between a sighted and a
// blind player on two boards (FIDE Laws 2018 Appendix D).
type RelayOptions struct {
	// Blind is the blind player's colour.
	Blind rules.Color
	// Think is the pause before each move (after the previous move was
	// executed on both boards); nil means 2 s.
	Think func(ply int) time.Duration
	// Mirror is the delay between a move made on its player's board and
	// its execution on the other board (announcing, repeating, finding the
	// pieces); nil means 1.5 s.
	Mirror func(ply int) time.Duration
	// Handling returns the handling of ply on its player's board, and of
	// its execution on the other board (mirror true); nil means Clean at
	// normal speed. Press and Side are filled in by RelayScripts.
	Handling func(ply int, mirror bool) Handling
	// WhiteSide is the clock side of the player with White (the clock
	// stands by the sighted player's board); NoSide means Left.
	WhiteSide Side
	// BlindPress is the delay from the blind player's move to his press
	// of the clock (D.2.4: after announcing it); nil means 500 ms.
	BlindPress func(ply int) time.Duration
}

// RelayScripts returns the scripts of the sighted player's board (with the
// clock) and of the blind player's board for a whole game: each move is
// made on its player's board (the sighted player presses his clock after
// it; the blind player presses after BlindPress), then executed on the
// other board after Mirror. The first press of the game (the opponent of
// the first mover starting his clock) comes first. It fails on the first
// move that is not legal in its position, naming the ply.
func RelayScripts(start rules.Position, moves []rules.Move, o RelayOptions) (sighted, blind Script, err error) {
	white := o.WhiteSide
	if white == NoSide {
		white = Left
	}
	or := func(f func(int) time.Duration, ply int, def time.Duration) time.Duration {
		if f == nil {
			return def
		}
		return f(ply)
	}
	sighted = Script{{Kind: Press, Side: sideOf(start.Turn().Other(), white)}}
	at := time.Duration(0)
	put := func(dst *Script, s Script, off time.Duration) {
		for _, a := range s {
			a.At += off
			*dst = append(*dst, a)
		}
	}
	pos := start
	for i, m := range moves {
		ply := i + 1
		c := pos.Turn()
		at += or(o.Think, ply, 2*time.Second)
		h, hm := Handling{}, Handling{}
		if o.Handling != nil {
			h, hm = o.Handling(ply, false), o.Handling(ply, true)
		}
		hm.Press = false
		own, other := &sighted, &blind
		h.Press, h.Side = true, sideOf(c, white)
		if c == o.Blind {
			own, other = &blind, &sighted
			h.Press = false
		}
		ms, err := MoveScript(pos, m, h)
		if err != nil {
			return nil, nil, fmt.Errorf("emu: ply %d: %w", ply, err)
		}
		put(own, ms, at)
		at += ms.Duration()
		if c == o.Blind {
			*other = append(*other, Action{At: at + or(o.BlindPress, ply, 500*time.Millisecond), Kind: Press, Side: sideOf(c, white)})
		}
		at += or(o.Mirror, ply, 1500*time.Millisecond)
		mirror, err := MoveScript(pos, m, hm)
		if err != nil {
			return nil, nil, fmt.Errorf("emu: ply %d: %w", ply, err)
		}
		put(other, mirror, at)
		at += mirror.Duration()
		if pos, err = pos.Play(m); err != nil {
			return nil, nil, fmt.Errorf("emu: ply %d: %w", ply, err)
		}
	}
	byTime := func(a, b Action) int { return int(a.At - b.At) }
	slices.SortStableFunc(sighted, byTime)
	slices.SortStableFunc(blind, byTime)
	return sighted, blind, nil
}
