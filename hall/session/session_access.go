package session

import (
	"github.com/dgtbridge/dgtbridge/rules/adjudicator"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/pgn"
)

// What the runtime that owns a Session reads of it beyond its record and
// tracker. None of these changes the session.

// Options returns the options the session's game runs with.
func (s *Session) Options() SessionOptions { return s.o }

// Adjudicator returns the game's adjudicator (nil before the game has one).
func (s *Session) Adjudicator() *adjudicator.Adjudicator { return s.adj }

// Relayed reports whether the game is a blind player's relayed game (two
// boards, SessionOptions.Blind).
func (s *Session) Relayed() bool { return s.relay != nil }

// InTeam reports whether the game is one board of a team-drop match.
func (s *Session) InTeam() bool { return s.team != nil }

// Ended returns the game this board played before the current one (after
// a set-up started the next game), for the arbiter's commands on it; nil
// when there is none.
func (s *Session) Ended() *Session { return s.ended }

// TeamBPGN returns the team-drop match the session belongs to as a BPGN
// game; nil when the session is not in a match.
func (s *Session) TeamBPGN() *pgn.BPGNGame {
	if s.team == nil {
		return nil
	}
	return s.team.tm.BPGNGame()
}

// Renumber gives the game the board number n (a replay numbers the games
// it finds on one recording as boards 1, 2, …).
func (s *Session) Renumber(n int) {
	s.rec.Info.Game.Board = n
	s.o.Info.Game.Board = n
}

// TeamPosition returns the position of the session's board in its
// team-drop match (nil when the session is not in a match).
func (s *Session) TeamPosition() *chess.Position {
	if s.team == nil {
		return nil
	}
	return s.team.tm.m.Position(s.team.b)
}
