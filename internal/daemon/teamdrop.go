package daemon

import (
	"fmt"

	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// partnerGame returns the game of a team-drop board's partner board (the
// zero ID for every other board): the hall links the two into one match.
func partnerGame(cfg *config.Config, b config.Board) game.ID {
	if b.Variant != config.VariantTeamDrop || b.Partner == 0 {
		return game.ID{}
	}
	return game.ID{Event: cfg.Event.ID, Round: b.Round, Board: b.Partner}
}

// teamDropNotes warns about team-drop boards under a rule set that wants
// the public copy delayed (public_delay_required, 004 A9: what the hall
// shows must not let a player see the partner board or the pockets) when
// event.public_delay is 0. The configuration stays valid: the organiser
// may show nothing in the hall.
func TeamDropNotes(cfg *config.Config) []string {
	if cfg.Event.PublicDelay > 0 {
		return nil
	}
	var notes []string
	for i, b := range cfg.EffectiveBoards() {
		if b.Variant != config.VariantTeamDrop {
			continue
		}
		rs, err := b.RuleSet()
		if err != nil || !rs.TeamDrop.PublicDelayRequired {
			continue
		}
		notes = append(notes, fmt.Sprintf("event.public_delay: 0 with team-drop boards (boards[%d], %s): %s wants the public copy delayed (004 A9: nothing shown in the hall may show the partner board or the pockets); set a delay, or show nothing in the hall", i, rs.Name, rs.Name))
		break
	}
	return notes
}
