package gamerecord

import (
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// StatePGN renders the PGN (docs/contract.md §6) of a game state that has
// none, a game in progress (broadcast.Options.RenderPGN): the state holds
// what Record.PGN writes (tags, SAN, the mover's clock and the time used
// after every ply), so the PGN is the one the record gives, for a game of
// this hall or of any other daemon publishing into the same KV bucket.
func StatePGN(st game.GameState) string {
	if st.PGN != "" {
		return st.PGN
	}
	return recordOf(st).PGN()
}

// recordOf is the record a state describes (enough of it for its PGN).
func recordOf(st game.GameState) *Record {
	r := &Record{Info: Info{Game: st.Game, EventName: st.EventName, Site: st.Site, White: st.White, Black: st.Black,
		WhiteFideID: st.WhiteFideID, BlackFideID: st.BlackFideID, WhiteTitle: st.WhiteTitle, BlackTitle: st.BlackTitle, WhiteTeam: st.WhiteTeam, BlackTeam: st.BlackTeam,
		Variant: st.Variant, Ruleset: st.Ruleset, TimeControl: st.TimeControl},
		StartFEN: st.StartFEN, Started: st.Started.Time, Revision: st.Revision, Result: st.Result,
		Termination: st.Termination, UpdatedAt: st.UpdatedAt.Time}
	r.Moves = make([]Ply, len(st.Moves))
	for i, u := range st.Moves {
		p := Ply{UCI: u}
		if i < len(st.SAN) {
			p.SAN = st.SAN[i]
		}
		if i < len(st.EMT) {
			p.EMTMS = st.EMT[i]
		}
		if i < len(st.PlyPockets) {
			pk := st.PlyPockets[i]
			p.Pockets = &pk
		}
		if i < len(st.Clocks) && st.Clocks[i] >= 0 {
			// PGNGame writes the mover's time, the one the state holds.
			p.Clock = &game.ClockPair{WhiteMS: st.Clocks[i], BlackMS: st.Clocks[i]}
		}
		r.Moves[i] = p
	}
	return r
}
