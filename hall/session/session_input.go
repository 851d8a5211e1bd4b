package session

import (
	"time"

	"github.com/dgtbridge/dgtbridge/board/dgtfeed"
	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Message feeds one DGT message that arrived at at (board/dgtfeed
// translates it; see Sense).
func (s *Session) Message(at time.Time, m dgt.Message) Step {
	return s.MessageFrom(game.SightedBoard, at, m)
}

// MessageFrom feeds one DGT message from board b of a relayed game (the
// sighted player's or the blind player's). Without a relay, every message
// is the one board's.
func (s *Session) MessageFrom(b game.Which, at time.Time, m dgt.Message) Step {
	var st Step
	for _, r := range dgtfeed.Append(nil, m) {
		s.senseInto(b, at, r, &st)
	}
	return st
}

// Sense feeds one sensor report, in no protocol's terms, that arrived at
// at from the game's board (the sighted player's board of a relayed game).
func (s *Session) Sense(at time.Time, r game.Sensed) Step {
	var st Step
	s.senseInto(game.SightedBoard, at, r, &st)
	return st
}

// reread feeds a full read of the game's board that the board's log has
// just explained (recoverLog): judged as a live read, a hand possibly in
// the middle of a move (board.Tracker.Reread), not searched for the moves
// of a board not heard for a while. Never a relayed or team game's (their
// logs are not read into the record).
func (s *Session) Reread(at time.Time, now rules.Placement) Step {
	var st Step
	evs := s.tr.Reread(at, now)
	s.noteSetUp(&st)
	s.handle(evs, &st)
	return st
}

// senseInto feeds report r of board b: clock faces are watched first (a
// clock lost or back, clockwatch.go), and a board of a relayed game goes
// through the relay.
func (s *Session) senseInto(b game.Which, at time.Time, r game.Sensed, st *Step) {
	if s.relay != nil {
		s.relayStep(s.relay.r.Sense(b, at, r), st)
		return
	}
	if b != game.SightedBoard {
		return
	}
	if f, ok := r.(game.ClockFace); ok && !s.watchClock(at, f, st) {
		return
	}
	if s.team != nil {
		// What fell due before this report is handled first: the match
		// may answer it (an illegal move it records as it stands) before
		// the tracker sees the board change again.
		s.handle(s.tr.Tick(at), st)
	}
	evs := s.tr.Sense(at, r)
	if f, ok := r.(game.ClockFace); ok && f.Running != game.NoDisplay && s.rec.ClockLeft == "" {
		s.learnClockSides(st)
	}
	s.noteSetUp(st)
	s.handle(evs, st)
}

// noteSetUp notes in the record that the board shows the game's start
// position before the first move (Record.SetUp).
func (s *Session) noteSetUp(st *Step) {
	if s.rec.SetUp || len(s.rec.Moves) > 0 || s.team != nil {
		return
	}
	if sensed, start := s.tr.Sensed(), s.start.Placement(); sensed == start || sensed == Rotated(start) {
		s.rec.SetUp = true
		st.Changed = true
	}
}

// learnClockSides keeps the tracker's mapping of clock displays to colours
// (decided on the first running reading of the game) in the record, so a
// resumed game maps them the same way even when moves were made while the
// daemon was down (the tracker would otherwise guess from the side to move).
func (s *Session) learnClockSides(st *Step) {
	if left := s.tr.ClockSides(); left != rules.NoColor {
		s.rec.ClockLeft = left.String()
		st.Changed = true
	}
}
