package session

import (
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/rules/adjudicator"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Reconfigure hands the session the options of its board's next game;
// see [Hall.Reconfigure]. What belongs to the board rather than to a game
// (tracker options, relay, clock watching, NextGame) stays as it was.
func (s *Session) Reconfigure(o SessionOptions, at time.Time) (Step, error) {
	var st Step
	if s.team != nil {
		return st, s.teamReconfigure(o)
	}
	if variantOf(o.Info.Variant) != variantOf(s.rec.Info.Variant) {
		return st, fmt.Errorf("the variant changes from %s to %s: that needs a restart", variantOf(s.rec.Info.Variant), variantOf(o.Info.Variant))
	}
	o.Tracker, o.ClockEvery, o.ClockSilence = s.o.Tracker, s.o.ClockEvery, s.o.ClockSilence
	o.NoTiming, o.NewGameOnSetup, o.GestureNoResult = s.o.NoTiming, s.o.NewGameOnSetup, s.o.GestureNoResult
	o.NextGame, o.Blind = s.o.NextGame, followBlind(s.o.Blind, o.Blind)
	if len(s.rec.Moves) == 0 && !s.Over() {
		s.o = o
		s.relaySide(at, &st)
		if o.StartFEN != "" && o.StartFEN != s.rec.StartFEN {
			if p, err := startPosition(s.rec.Variant(), o.StartFEN, o.RuleSet); err == nil {
				s.start = p
			}
		}
		fen := s.rec.StartFEN
		if o.StartFEN != "" {
			fen = o.StartFEN
		}
		if o.Info.Game != s.rec.Info.Game {
			rot := s.rec.Rotated
			s.rec = gamerecord.NewRecord(o.Info, fen, at)
			s.rec.Rotated = rot
		} else {
			s.rec.Info = o.Info
			s.rec.StartFEN = fen
			s.rec.UpdatedAt = at
		}
		s.adj = adjudicator.New(adjudicator.GameInfo{ID: o.Info.Game, White: o.Info.White, Black: o.Info.Black},
			o.RuleSet, adjudicator.Options{Penalties: o.Penalties, TimeControl: o.TimeControl, NoTiming: o.NoTiming, Start: s.start})
		st.Changed = true
		return st, nil
	}
	s.next = &o
	if s.Over() && s.tr != nil && s.tr.Ply() == 0 && s.tr.Sensed() == s.tr.Position().Placement() {
		// The set-up came before the reload: the tracker has reset to the
		// start position the board shows.
		s.nextGame(game.SetupDetected{Stamp: game.Stamp{At: at}, Position: s.tr.Position(), N960: -1}, &st)
	}
	return st, nil
}

// hasNext reports whether a set-up after a result starts a next game.
func (s *Session) hasNext() bool { return s.next != nil || s.o.NextGame != nil }

// nextInfo returns the next game's Info: a reload's (whose options then
// become the session's), else SessionOptions.NextGame's.
func (s *Session) nextInfo() gamerecord.Info {
	if s.next != nil {
		s.o, s.next = *s.next, nil
		return s.o.Info
	}
	return s.o.NextGame(s.rec.Info)
}

// endedCopy returns the current game as a session of its own, kept when
// the board moves on so that the arbiter can still act on it: its record,
// adjudicator and options; no tracker (the board plays the next game).
func (s *Session) endedCopy() *Session {
	return &Session{o: s.o, rec: s.rec, adj: s.adj, start: s.start}
}

func variantOf(v string) string {
	if v == "" {
		return "chess"
	}
	return v
}
