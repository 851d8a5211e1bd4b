package loadtest

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
)

// game is what one board plays: its moves and the script of the hands
// and clock presses that make them.
type game struct {
	ucis   []string
	script emu.Script
	// press[i] is the offset in the script of the press that completes
	// ply i+1.
	press []time.Duration
	// touch[i] are the squares the hands changed for ply i+1 (after the
	// previous press, up to its own), with their offsets in the script.
	touch [][]touch
}

// touch is one square changed by a hand at an offset of the script.
type touch struct {
	at time.Duration
	sq rules.Square
}

// randomGame plays up to plies random legal moves from the standard start
// (seeded: the same seed gives the same game), stopping early at a mate
// or stalemate, and scripts them with think times that put a ply every
// interval: clean hands at twice the normal speed, the mover's press
// after each move.
func randomGame(seed uint64, plies int, interval time.Duration) (game, error) {
	rng := rand.New(rand.NewPCG(seed, 0x10ad))
	start := rules.Position(chess.StartPosition(chess.Standard))
	pos := start.(*chess.Position)
	var moves []rules.Move
	var g game
	var buf []rules.Move
	for len(moves) < plies {
		buf = pos.LegalMoves(buf[:0])
		if len(buf) == 0 {
			break
		}
		m := buf[rng.IntN(len(buf))]
		next, err := pos.Play(m)
		if err != nil {
			return game{}, err
		}
		moves = append(moves, m)
		g.ucis = append(g.ucis, pos.UCI(m))
		pos = next.(*chess.Position)
	}
	// The think time fills what the hands and the press leave of the
	// interval: measured on the script with no think time.
	script := func(think time.Duration) (emu.Script, error) {
		return emu.GameScript(start, moves, emu.GameOptions{
			Think:    func(int) time.Duration { return think },
			Handling: func(int) emu.Handling { return emu.Handling{Speed: 2} },
		})
	}
	s, err := script(0)
	if err == nil && len(moves) > 0 {
		hands := s.Duration() / time.Duration(len(moves))
		s, err = script(max(interval-hands, 50*time.Millisecond))
	}
	if err != nil {
		return game{}, fmt.Errorf("loadtest: game %d: %w", seed, err)
	}
	g.script = s
	first := true
	var squares []touch
	for _, a := range s {
		switch a.Kind {
		case emu.Lift, emu.Place, emu.PlaceMagic:
			squares = append(squares, touch{at: a.At, sq: a.Square})
			continue
		case emu.Press:
		default:
			continue
		}
		if first { // Black starts White's clock: no move
			first = false
			squares = nil
			continue
		}
		g.press = append(g.press, a.At)
		g.touch = append(g.touch, squares)
		squares = nil
	}
	if len(g.press) != len(g.ucis) {
		return game{}, fmt.Errorf("loadtest: game %d: %d presses for %d plies", seed, len(g.press), len(g.ucis))
	}
	return g, nil
}
