package board

import (
	"errors"
	"fmt"

	"github.com/dgtbridge/dgtbridge/rules"
)

// ErrGameStarted: the blind player's colour is changed while the relay's
// game has moves.
var ErrGameStarted = errors.New("board: the relay's game has moves")

// SetBlind makes c the blind player's colour from now on: the blind
// player's board is then the board of c's moves, the sighted board the
// other colour's. It is for a new game (a blind player who has White in
// one round and Black in the next): with a move recorded it changes
// nothing and returns ErrGameStarted; a colour other than White or Black
// is ErrBadOption.
func (r *Relay) SetBlind(c rules.Color) error {
	if c != rules.White && c != rules.Black {
		return fmt.Errorf("%w: blind side %v", ErrBadOption, c)
	}
	if len(r.rec) > 0 {
		return fmt.Errorf("%w (%d plies): the blind player's colour stays %v", ErrGameStarted, len(r.rec), r.o.Blind)
	}
	r.o.Blind = c
	return nil
}

// Blind returns the blind player's colour.
func (r *Relay) Blind() rules.Color { return r.o.Blind }
