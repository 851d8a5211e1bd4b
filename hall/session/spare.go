package session

import "github.com/dgtbridge/dgtbridge/rules"

// BoardPlacement returns the placement the board must show now: the
// position the tracker holds (the record's, with a move being made on
// the board not yet in it), in the board's own frame (turned around when
// the board is read rotated). ok is false for a game with no tracker of
// its own (a relayed game, a team match). A board that takes over a
// game (a spare) is set up to it before anything it shows counts.
func (s *Session) BoardPlacement() (p rules.Placement, ok bool) {
	if s.tr == nil || s.relay != nil || s.team != nil {
		return p, false
	}
	p = s.tr.Position().Placement()
	if s.rec.Rotated {
		p = rotatePlacement(p)
	}
	return p, true
}
