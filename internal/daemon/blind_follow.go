package daemon

import (
	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/rules"
)

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
