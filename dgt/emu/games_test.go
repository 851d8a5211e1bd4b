package emu_test

import (
	"math/rand/v2"
	"testing"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
)

// randomGame returns up to plies legal moves from start, drawn from seed
// with a taste for what tests of hands need: castling whenever it is
// legal, promotions, en passant, captures more often than quiet moves.
func randomGame(t testing.TB, start rules.Position, seed uint64, plies int) ([]rules.Move, rules.Position) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 99))
	pos := start
	var moves []rules.Move
	var buf []rules.Move
	for len(moves) < plies {
		buf = pos.LegalMoves(buf[:0])
		if len(buf) == 0 {
			break
		}
		var special, captures []rules.Move
		for _, m := range buf {
			switch {
			case m.IsCastle() || m.Promo != rules.NoKind || m.Flags&rules.FlagEnPassant != 0:
				special = append(special, m)
			case m.IsCapture():
				captures = append(captures, m)
			}
		}
		m := buf[r.IntN(len(buf))]
		switch {
		case len(special) > 0 && r.IntN(10) < 8:
			m = special[r.IntN(len(special))]
		case len(captures) > 0 && r.IntN(2) == 0:
			m = captures[r.IntN(len(captures))]
		}
		next, err := pos.Play(m)
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, m)
		pos = next
	}
	return moves, pos
}

// chess960Game returns a random game from Chess960 start position n.
func chess960Game(t testing.TB, n int, seed uint64, plies int) (rules.Position, []rules.Move, rules.Position) {
	start := chess.Chess960Start(n)
	moves, final := randomGame(t, start, seed, plies)
	return start, moves, final
}

// heardPlacement applies the dumps and field updates the host heard and
// returns the position they describe at the end.
func heardPlacement(t testing.TB, p emu.Played) rules.Placement {
	t.Helper()
	var d dgt.BoardDump
	dumps := 0
	for _, h := range p.Heard {
		switch m := h.Msg.(type) {
		case dgt.BoardDump:
			d, dumps = m, dumps+1
		case dgt.FieldUpdate:
			d.Fields[m.Field] = m.Piece
		}
	}
	if dumps == 0 {
		t.Fatal("the host heard no board dump")
	}
	return d.Placement(p.Board.Orientation)
}
