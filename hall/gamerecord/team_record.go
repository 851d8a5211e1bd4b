package gamerecord

import (
	"slices"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/teamdrop"
)

// TeamRecord is a team-drop game's part of its match (004 "Cờ đặt"),
// kept in the game's record so that a restart rebuilds the match, pockets
// and technical-error counts included (teamdrop.Restore).
type TeamRecord struct {
	// Partner is the partner board's game; Board says which board of the
	// match this one is: "A" (the lower board number, board 1 of the
	// team) or "B".
	Partner game.ID `json:"partner"`
	Board   string  `json:"board"`
	// Began is when the match began (both records hold the same time).
	Began time.Time `json:"began"`
	// Pockets are this board's pockets now (after the last press on
	// either board).
	Pockets game.Pockets `json:"pockets"`
	// Events are the calls the match accepted that concern this board
	// (a draw agreed by both teams is board A's), each with its place in
	// the match's order. The two records' events merged by Seq are
	// Match.Events.
	Events []TeamEvent `json:"events,omitempty"`
}

// TeamEvent is one call of a match (teamdrop.Event) and its place in the
// match's order (0-based).
type TeamEvent struct {
	Seq int `json:"seq"`
	teamdrop.Event
}

// mergeTeamEvents returns the events of both records in the match's
// order; ok is false when the sequence has a gap or a repeat (a record
// lost its last save, or the records are not of the same match).
func MergeTeamEvents(a, b *TeamRecord) ([]teamdrop.Event, bool) {
	all := append(slices.Clone(a.Events), b.Events...)
	slices.SortStableFunc(all, func(x, y TeamEvent) int { return x.Seq - y.Seq })
	out := make([]teamdrop.Event, len(all))
	for i, e := range all {
		if e.Seq != i {
			return nil, false
		}
		out[i] = e.Event
	}
	return out, true
}

// gamePockets converts a match's pockets to the payload's.
func GamePockets(white, black teamdrop.Pocket) game.Pockets {
	return game.Pockets{White: white.String(), Black: black.String()}
}

// teamMove adds a team-drop game's pockets and partner to its MoveEvent.
func (r *Record) teamMove(ev *game.MoveEvent, m Ply) {
	if r.Team == nil {
		return
	}
	ev.Partner = r.Team.Partner.String()
	p := r.Team.Pockets
	if m.Pockets != nil {
		p = *m.Pockets
	}
	ev.Pockets = &p
}

// teamState adds a team-drop game's pockets and partner to its GameState
// (the BPGN is the match's: Session.State adds it).
func (r *Record) teamState(st *game.GameState) {
	if r.Team == nil {
		return
	}
	p := r.Team.Pockets
	st.Pockets = &p
	st.Partner = r.Team.Partner.String()
	st.PlyPockets = make([]game.Pockets, len(r.Moves))
	for i, m := range r.Moves {
		if m.Pockets != nil {
			st.PlyPockets[i] = *m.Pockets
		}
	}
}

// clone returns a copy that shares nothing with t (the writer serialises
// records on its own goroutine while the board goroutine goes on).
func (t *TeamRecord) Clone() *TeamRecord {
	if t == nil {
		return nil
	}
	c := *t
	c.Events = slices.Clone(t.Events)
	return &c
}

// teamEvents returns the record's team events (none for other games).
func (r *Record) TeamEvents() []TeamEvent {
	if r.Team == nil {
		return nil
	}
	return r.Team.Events
}
