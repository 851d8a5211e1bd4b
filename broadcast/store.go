package broadcast

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Store holds the latest GameState of every game, for the PGN feeds. The
// publisher keeps two: the live one (updated on Publish) and the public one
// (updated when each delayed copy falls due). A state without its PGN is
// rendered when asked for, once per change (the renderer of [NewStore];
// [FallbackPGN] without one). Safe for concurrent use.
type Store struct {
	mu     sync.RWMutex
	games  map[game.ID]game.GameState
	render func(game.GameState) string
	pgn    map[game.ID]string // rendered PGN of the state in games; cleared by Put
}

// NewStore returns an empty store whose states without PGN are rendered by
// render (nil: [FallbackPGN]).
func NewStore(render func(game.GameState) string) *Store {
	if render == nil {
		render = FallbackPGN
	}
	return &Store{games: map[game.ID]game.GameState{}, render: render, pgn: map[game.ID]string{}}
}

// Put records st as its game's latest state.
func (s *Store) Put(st game.GameState) {
	s.mu.Lock()
	s.games[st.Game] = st
	delete(s.pgn, st.Game)
	s.mu.Unlock()
}

// GamePGN returns the PGN of game g, ending in exactly one newline (the
// state's own, or rendered once per change); ok is false when the store
// has no state of g.
func (s *Store) GamePGN(g game.ID) (string, bool) {
	s.mu.RLock()
	st, ok := s.games[g]
	p, cached := s.pgn[g]
	s.mu.RUnlock()
	if !ok {
		return "", false
	}
	if cached {
		return p, true
	}
	p = strings.TrimRight(st.PGN, "\n\r\t ")
	if p == "" {
		p = strings.TrimRight(s.render(st), "\n\r\t ")
	}
	p += "\n"
	s.mu.Lock()
	if cur, ok := s.games[g]; ok && sameState(cur, st) {
		s.pgn[g] = p
	}
	s.mu.Unlock()
	return p, true
}

// sameState reports whether a and b are the same state of a game (one Put
// apart at most by an identical copy).
func sameState(a, b game.GameState) bool {
	return a.Revision == b.Revision && len(a.Moves) == len(b.Moves) && a.UpdatedAt.Equal(b.UpdatedAt.Time) &&
		a.Result == b.Result && a.Status == b.Status
}

// PutNewer records st unless its game has a later state already (its
// UpdatedAt: each game's states come from one daemon, in order); it reports
// whether it did.
func (s *Store) PutNewer(st game.GameState) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cur, ok := s.games[st.Game]; ok && st.UpdatedAt.Before(cur.UpdatedAt.Time) {
		return false
	}
	s.games[st.Game] = st
	delete(s.pgn, st.Game)
	return true
}

// Get returns a game's latest state.
func (s *Store) Get(g game.ID) (game.GameState, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	st, ok := s.games[g]
	return st, ok
}

// Round returns the states of one round, by board number.
func (s *Store) Round(event string, round int) []game.GameState {
	s.mu.RLock()
	var out []game.GameState
	for g, st := range s.games {
		if g.Event == event && g.Round == round {
			out = append(out, st)
		}
	}
	s.mu.RUnlock()
	slices.SortFunc(out, func(a, b game.GameState) int { return cmp.Compare(a.Game.Board, b.Game.Board) })
	return out
}

// RoundPGN returns the round as multi-game PGN (games by board, separated by
// a blank line) and the number of games.
func (s *Store) RoundPGN(event string, round int) (string, int) {
	games := s.Round(event, round)
	var b strings.Builder
	n := 0
	for _, st := range games {
		p, ok := s.GamePGN(st.Game)
		if !ok {
			continue
		}
		if n > 0 {
			b.WriteString("\n")
		}
		b.WriteString(p)
		n++
	}
	return b.String(), n
}

// FallbackPGN renders a minimal PGN from a GameState that carries none: the
// seven tag roster, Round "<round>.<board>", GameId, Variant when set and not
// standard chess, and the SAN moves from the standard start (no clock
// comments, no SetUp/FEN: GameState.FEN is the current position). The daemon's
// wiring normally fills GameState.PGN with the full rendering (contract §6).
func FallbackPGN(st game.GameState) string {
	var b strings.Builder
	tag := func(k, v string) { fmt.Fprintf(&b, "[%s %q]\n", k, v) }
	or := func(v, d string) string {
		if v == "" {
			return d
		}
		return v
	}
	result := or(st.Result, "*")
	tag("Event", or(st.Event, "?"))
	tag("Site", "?")
	tag("Date", "????.??.??")
	tag("Round", fmt.Sprintf("%d.%d", st.Round, st.Board))
	tag("White", or(st.White, "?"))
	tag("Black", or(st.Black, "?"))
	tag("Result", result)
	tag("GameId", st.Game.String())
	if st.Variant != "" && st.Variant != "chess" {
		tag("Variant", st.Variant)
	}
	b.WriteString("\n")
	for i, san := range st.SAN {
		if i%2 == 0 {
			fmt.Fprintf(&b, "%d. ", i/2+1)
		}
		b.WriteString(san)
		b.WriteString(" ")
	}
	b.WriteString(result)
	b.WriteString("\n")
	return b.String()
}
