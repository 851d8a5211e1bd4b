package main

import (
	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/rules"
)

// blindChanged reports whether a reload changes a board's blind player's
// board (a, running; b, reloaded) in a way only a restart makes. A board
// that follows a named blind player (blind.player) changes colour from
// round to round: that is no change.
func blindChanged(a, b *config.Blind) bool {
	if a == nil || b == nil {
		return a != b
	}
	x, y := *a, *b
	if x.Player != "" && x.Player == y.Player {
		x.Side, y.Side = "", ""
	}
	return x != y
}

// followedBlind returns, for a reload's plan, the blind player's colour
// of a board that follows a named blind player (the hall takes only the
// colour: hall/session's Reconfigure keeps the rest of the relay); nil
// for any other board.
func followedBlind(b config.Board) *session.Blind {
	if b.Blind == nil || b.Blind.Player == "" {
		return nil
	}
	side := rules.White
	if b.Blind.Side == "black" {
		side = rules.Black
	}
	return &session.Blind{Side: side}
}
