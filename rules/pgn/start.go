package pgn

import "github.com/dgtbridge/dgtbridge/rules"

// StandardFEN is the start position of chess, and of a Chess960 or
// crazyhouse game that gives no FEN tag.
const StandardFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// defaultPosition is used when ReaderOptions.NewPosition is nil.
func defaultPosition(variant, fen string) (rules.Position, error) {
	return nil, ErrNoEngine
}
