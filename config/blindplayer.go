package config

import (
	"fmt"
	"strings"

	"github.com/dgtbridge/dgtbridge/pairings"
)

// followBlindPlayers gives each board whose blind.player is set the board
// number and the blind player's colour of that player's game in the
// board's round, as the pairing file tb has it. The board of the same
// round that had that number takes the blind player's board's own number
// in exchange (the two games change tables: the blind player's game is
// played where the blind player's two boards are). Problems name
// boards[i].blind.player or .side.
func (c *Config) followBlindPlayers(tb *pairings.Table) []error {
	var errs []error
	for i := range c.Boards {
		b := &c.Boards[i]
		if b.Blind == nil || b.Blind.Player == "" {
			continue
		}
		key := fmt.Sprintf("boards[%d].blind", i)
		if b.Blind.Side != "" {
			errs = append(errs, keyErr(key+".side", "leave it out with blind.player: the pairing file gives the blind player's colour, round by round"))
			continue
		}
		r := c.round(*b)
		if r < 1 || b.Board < 1 {
			continue // reported by Validate
		}
		var found []pairings.Pairing
		var sides []string
		for _, p := range tb.Round(r) {
			switch {
			case isPlayer(b.Blind.Player, p.White, p.WhiteFideID):
				found, sides = append(found, p), append(sides, "white")
			case isPlayer(b.Blind.Player, p.Black, p.BlackFideID):
				found, sides = append(found, p), append(sides, "black")
			}
		}
		switch len(found) {
		case 0:
			errs = append(errs, keyErr(key+".player", "%q has no game in round %d of %s (%s)", b.Blind.Player, r, c.Event.Pairings, tableSummary(tb)))
			continue
		case 1:
		default:
			errs = append(errs, keyErr(key+".player", "%q names more than one player of round %d of %s: give the FIDE id", b.Blind.Player, r, c.Event.Pairings))
			continue
		}
		own, n := b.Board, found[0].Board
		if n != own {
			for j := range c.Boards {
				if o := &c.Boards[j]; j != i && c.round(*o) == r && o.Board == n {
					o.Board = own
				}
			}
		}
		b.Board, b.Blind.Side = n, sides[0]
	}
	return errs
}

// isPlayer reports whether who (a FIDE id or a name, as in the pairing
// file; names without regard to case and surrounding blanks) is the
// player name with FIDE id fide.
func isPlayer(who, name, fide string) bool {
	who = strings.TrimSpace(who)
	if fide != "" && who == fide {
		return true
	}
	return name != "" && strings.EqualFold(who, strings.TrimSpace(name))
}
