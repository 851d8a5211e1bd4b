package teamdrop

import (
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// Event kinds: the calls a match was given.
const (
	EventMove      = "move"      // Complete
	EventFlag      = "flag"      // Flag
	EventResign    = "resign"    // Resign
	EventAgreement = "agreement" // AgreeDraw
	EventThreefold = "threefold" // ConfirmThreefold
	EventResult    = "result"    // SetResult
	EventTE        = "te"        // ConfirmTE
	EventReinstate = "reinstate" // Reinstate
)

// Event is one call a match accepted, as plain data (JSON-ready): the
// match is a function of its rules, its start and these, so a daemon that
// keeps them rebuilds the match after a restart with [Restore], pockets,
// results and technical-error counts included.
type Event struct {
	Kind  string      `json:"kind"`
	Board Board       `json:"board"`
	At    time.Time   `json:"at"`
	Move  *rules.Move `json:"move,omitempty"`  // move
	Color rules.Color `json:"color,omitempty"` // flag, resign, te
	// Result and Termination: result.
	Result      string `json:"result,omitempty"`
	Termination string `json:"termination,omitempty"`
	KingInCheck bool   `json:"king_in_check,omitempty"` // te
	Ply         int    `json:"ply,omitempty"`           // reinstate
}

// Events returns the calls the match accepted, in order (a copy). A
// Complete after the end (not recorded) and a call that failed are not
// among them.
func (m *Match) Events() []Event { return append([]Event(nil), m.events...) }

// Restore rebuilds a match from its rules, start positions, start time and
// the events [Match.Events] returned: the same calls in the same order,
// their findings dropped (they were reported when the events happened).
// An event that no longer applies (the rules or the starts differ) is an
// error naming it.
func Restore(rs ruleset.RuleSet, fenA, fenB string, began time.Time, events []Event) (*Match, error) {
	m, err := New(rs, fenA, fenB, began)
	if err != nil {
		return nil, err
	}
	for i, e := range events {
		var err error
		switch e.Kind {
		case EventMove:
			if e.Move == nil {
				err = fmt.Errorf("%w: a move event without a move", ErrBadCommand)
				break
			}
			_, err = m.Complete(e.Board, *e.Move, e.At)
		case EventFlag:
			_, err = m.Flag(e.Board, e.Color, e.At)
		case EventResign:
			_, err = m.Resign(e.Board, e.Color, e.At)
		case EventAgreement:
			_, err = m.AgreeDraw(e.At)
		case EventThreefold:
			_, err = m.ConfirmThreefold(e.Board, e.At)
		case EventResult:
			_, err = m.SetResult(e.Board, e.Result, e.Termination, e.At)
		case EventTE:
			_, err = m.ConfirmTE(Side{e.Board, e.Color}, e.KingInCheck, e.At)
		case EventReinstate:
			_, err = m.Reinstate(e.Board, e.Ply, e.At)
		default:
			err = fmt.Errorf("%w: unknown event kind %q", ErrBadCommand, e.Kind)
		}
		if err != nil {
			return nil, fmt.Errorf("teamdrop: restore, event %d (%s on board %s): %w", i+1, e.Kind, e.Board, err)
		}
	}
	return m, nil
}
