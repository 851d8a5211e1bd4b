package demo

import (
	_ "embed"
	"errors"
	"fmt"
	"strings"

	"github.com/dgtbridge/dgtbridge/rules/pgn"
)

// gamesPGN holds famous games of the 18th to early 20th century (their
// moves are historical facts, in the public domain), typed in for the demo.
//
//go:embed games.pgn
var gamesPGN string

// Games returns the embedded games, every move resolved by the rules
// engine. An error means the embedded file is broken (a build defect).
func Games() ([]*pgn.Game, error) {
	gs, errs := pgn.ReadAll(strings.NewReader(gamesPGN), pgn.ReaderOptions{Variations: pgn.SkipVariations})
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("demo: embedded games: %w", err)
	}
	if len(gs) == 0 {
		return nil, errors.New("demo: no embedded games")
	}
	return gs, nil
}

// GameFor returns the index into games of the game played on board (1-based)
// in round (1-based): each board starts with a different game and moves on
// to the next one each round, so neighbouring boards never play the same
// game in the same round while there are enough games.
func GameFor(games int, round, board int) int {
	return (round - 1 + board - 1) % games
}
