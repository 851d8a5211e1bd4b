package emu

import (
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/rules"
)

// GameOptions say how [GameScript] plays a game.
type GameOptions struct {
	// Think is the pause before each move (after the previous press);
	// nil means 2 s for every ply.
	Think func(ply int) time.Duration
	// Handling returns the handling of ply (1-based); nil means Clean at
	// normal speed. Press and Side are filled in by GameScript.
	Handling func(ply int) Handling
	// WhiteSide is the clock side of the player with White; NoSide means
	// Left.
	WhiteSide Side
	// NoClock: nobody presses a lever.
	NoClock bool
}

// GameScript returns the script of a whole game: for each move, a think
// pause, the move made with its handling, and the mover's press on the
// clock. The first press of the game (Black starting White's clock) comes
// first, unless NoClock. It fails on the first move that is not legal in
// its position, naming the ply.
func GameScript(start rules.Position, moves []rules.Move, o GameOptions) (Script, error) {
	white := o.WhiteSide
	if white == NoSide {
		white = Left
	}
	var s Script
	if !o.NoClock {
		s = Script{{Kind: Press, Side: sideOf(rules.Black, white)}}
		if start.Turn() == rules.Black {
			s[0].Side = sideOf(rules.White, white)
		}
	}
	pos := start
	for i, m := range moves {
		ply := i + 1
		h := Handling{}
		if o.Handling != nil {
			h = o.Handling(ply)
		}
		h.Press = !o.NoClock
		h.Side = sideOf(pos.Turn(), white)
		ms, err := MoveScript(pos, m, h)
		if err != nil {
			return nil, fmt.Errorf("emu: ply %d: %w", ply, err)
		}
		think := 2 * time.Second
		if o.Think != nil {
			think = o.Think(ply)
		}
		if len(s) == 0 {
			s = ms
			for j := range s {
				s[j].At += think
			}
		} else {
			s = s.Then(think, ms)
		}
		next, err := pos.Play(m)
		if err != nil {
			return nil, fmt.Errorf("emu: ply %d: %w", ply, err)
		}
		pos = next
	}
	return s, nil
}

func sideOf(c rules.Color, white Side) Side {
	if c == rules.White {
		return white
	}
	return white.Other()
}

// Result gestures: both kings on the centre squares.
const (
	WhiteWins = "1-0"
	BlackWins = "0-1"
	Draw      = "1/2-1/2"
)

// ResultGesture returns the script of the "kings in the centre" result
// signal on placement p: both kings lifted and put on the centre squares —
// 1-0 on the light squares (White's king e4, Black's d5), 0-1 on the dark
// ones (White's king d4, Black's e5), a draw on one of each (White's king
// d4, Black's d5). A piece standing on a target square is swept off the
// board first. The convention is arnsholt/dgtdriver's and picochess's
// (two programs that read DGT boards).
func ResultGesture(p *rules.Placement, result string, speed float64) (Script, error) {
	g := rules.Chess8x8
	d4, e4, d5, e5 := g.Square(3, 3), g.Square(4, 3), g.Square(3, 4), g.Square(4, 4)
	var wt, bt rules.Square
	switch result {
	case WhiteWins:
		wt, bt = e4, d5
	case BlackWins:
		wt, bt = d4, e5
	case Draw:
		wt, bt = d4, d5
	default:
		return nil, fmt.Errorf("emu: result %q is not 1-0, 0-1 or 1/2-1/2", result)
	}
	wk, bk := rules.NoSquare, rules.NoSquare
	for sq := rules.Square(0); sq < 64; sq++ {
		switch p.Sq[sq] {
		case rules.Piece{Color: rules.White, Kind: rules.King}:
			wk = sq
		case rules.Piece{Color: rules.Black, Kind: rules.King}:
			bk = sq
		}
	}
	if wk == rules.NoSquare || bk == rules.NoSquare {
		return nil, fmt.Errorf("emu: result gesture needs both kings on the board")
	}
	if speed <= 0 {
		speed = 1
	}
	beat := time.Duration(float64(400*time.Millisecond) / speed)
	var s Script
	t := time.Duration(0)
	add := func(a Action) {
		a.At = t
		s = append(s, a)
		t += beat
	}
	for _, sq := range []rules.Square{wt, bt} {
		if sq != wk && sq != bk && !p.Sq[sq].IsEmpty() {
			add(Action{Kind: Lift, Square: sq})
		}
	}
	// Both hands: lift both kings, then put them down, so a king standing
	// on the other's target square is out of the way.
	if wk != wt {
		add(Action{Kind: Lift, Square: wk})
	}
	if bk != bt {
		add(Action{Kind: Lift, Square: bk})
	}
	if wk != wt {
		add(Action{Kind: Place, Square: wt, Piece: rules.Piece{Color: rules.White, Kind: rules.King}})
	}
	if bk != bt {
		add(Action{Kind: Place, Square: bt, Piece: rules.Piece{Color: rules.Black, Kind: rules.King}})
	}
	return s, nil
}

// MagicResult returns the action putting the magic piece for result on sq
// (DGT's magic pieces: draw, white wins, black wins).
func MagicResult(sq rules.Square, result string) (Action, error) {
	var c dgt.PieceCode
	switch result {
	case Draw:
		c = dgt.MagicDraw
	case WhiteWins:
		c = dgt.MagicWhiteWin
	case BlackWins:
		c = dgt.MagicBlackWin
	default:
		return Action{}, fmt.Errorf("emu: result %q is not 1-0, 0-1 or 1/2-1/2", result)
	}
	return Action{Kind: PlaceMagic, Square: sq, Magic: c}, nil
}
