package pgn

import (
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
)

// ChessPosition is the PositionFunc used when ReaderOptions.NewPosition is
// nil: the rules/chess engine, which plays "chess", "chess960",
// "crazyhouse" and "team-drop". An empty FEN means the variant's start
// position (Chess960: the standard set-up, number 518).
func ChessPosition(variant, fen string) (rules.Position, error) {
	v, err := chess.ParseVariant(variant)
	if err != nil {
		return nil, err
	}
	if fen == "" {
		return chess.StartPosition(v), nil
	}
	p, err := chess.NewPosition(v, fen)
	if err != nil {
		return nil, err
	}
	return p, nil
}
