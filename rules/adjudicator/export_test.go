package adjudicator

import "github.com/dgtbridge/dgtbridge/rules"

// IllegalMoves returns how many illegal moves of side c count towards the
// ladder (tests only).
func (a *Adjudicator) IllegalMoves(c rules.Color) int { return a.illegal[c&1] }

// TechnicalErrors returns side c's confirmed technical errors (tests only).
func (a *Adjudicator) TechnicalErrors(c rules.Color) int { return a.te[c&1] }
