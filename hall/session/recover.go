package session

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/dgtbridge/dgtbridge/board"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Recover rebuilds the moves made while the board was not heard (the
// daemon restarting, the cable out, the line down) from the board's own
// log, read on the (re)connection (board.Recover), and now, the position
// the board shows: the moves are appended to the record as if they had
// been watched, with the clock times the log holds, and published in
// order (their MoveEvents have the ids a live run would have given them,
// <g>.move.<ply>.<revision>, so a move already published is not repeated);
// the tracker and the adjudicator then go on from the new record. Moves of
// the record taken back on the board meanwhile are a takeback (a
// Correction). Where the log does not reach back, the record is left as it
// is and the arbiter gets a moves_missing alert naming the ply from which
// moves are missing: nothing is made up, and the position the board shows
// is read next as it comes. A game with no move yet is rebuilt from the
// start position the log holds last when its board was seen set up
// (Record.SetUp). Relayed and team games are not rebuilt, nor a game with
// no move whose board was never seen set up (notRebuilt, noMoveLog say
// why): the arbiter is told what the board shows that the record does not.
func (s *Session) Recover(at time.Time, log game.BoardLog, now rules.Placement) Step {
	st, _ := s.RecoverLog(at, log, now, false)
	return st
}

// recoverLog is Recover; with whole, the log is a bus board's answers
// since it last showed the record's last position at rest (busmany.go),
// aligned with that position only (board.RecoverFromEnd), and a log that
// does not align with it or is not read to its end changes nothing and
// reports false (the caller reads the board live instead). Otherwise it reports whether the
// log explained now: it aligned with the record and was read to its end,
// now being the position after the moves rebuilt (or after a move made
// and not completed yet); now is then a live read (Session.reread), not
// a catch-up.
func (s *Session) RecoverLog(at time.Time, log game.BoardLog, now rules.Placement, whole bool) (Step, bool) {
	var st Step
	n := len(s.rec.Moves)
	switch {
	case s.relay != nil:
		st.Out = append(st.Out, s.notRebuilt(at, now, whyRelay)...)
		return st, whole
	case s.team != nil:
		st.Out = append(st.Out, s.notRebuilt(at, now, whyTeam)...)
		return st, whole
	case s.tr == nil:
		return st, whole
	case n == 0 && !s.rec.SetUp:
		st.Out = append(st.Out, s.noMoveLog(at, log, now)...)
		return st, whole
	}
	moves := make([]rules.Move, 0, n)
	pos := s.start
	for _, p := range s.rec.Moves {
		m, err := pos.ParseMove(p.UCI)
		if err == nil {
			pos, err = pos.Play(m)
		}
		if err != nil { // an illegal move that stood: the log cannot be aligned
			if whole {
				return st, false
			}
			st.Out = append(st.Out, s.missing(at, n, log.Wrapped, err))
			return st, false
		}
		moves = append(moves, m)
	}
	opts := s.o.Tracker
	opts.Start, opts.Rotated = s.start, s.rec.Rotated
	left := rules.NoColor
	switch s.rec.ClockLeft {
	case rules.White.String():
		left = rules.White
	case rules.Black.String():
		left = rules.Black
	}
	recover := board.Recover
	if whole {
		recover = board.RecoverFromEnd
	}
	r, err := recover(s.start, moves, now, log, opts, left)
	if whole && (err != nil || !r.Complete || r.Aligned || len(r.Ambiguous) > 0 || r.Ply != n) {
		return st, false
	}
	if err != nil {
		var gap *board.LogGapError
		if errors.As(err, &gap) {
			st.Out = append(st.Out, s.missing(at, gap.Ply, gap.Wrapped, nil))
		} else {
			st.Out = append(st.Out, s.internalAlert(at, err))
		}
		return st, false
	}
	if r.Ply == n && len(r.Moves) == 0 {
		if r.Complete && !whole {
			s.tr.ClockFromLog(log) // a press after the log was read is one
		}
		return st, r.Complete // nothing was played meanwhile
	}
	if r.Ply < n {
		s.truncate(r.Ply, at, game.Takeback, &st)
	}
	for _, m := range r.Moves {
		s.rec.Moves = append(s.rec.Moves, s.recoveredPly(m, at))
		st.Out = append(st.Out, s.rec.MoveEvent(len(s.rec.Moves)))
	}
	s.rec.UpdatedAt = at
	st.Changed = true
	if err := s.rebuild(at); err != nil {
		st.Out = append(st.Out, s.internalAlert(at, err))
		return st, whole
	}
	if last := r.Moves[len(r.Moves)-1]; !last.HasClock && s.tr != nil {
		s.tr.LastUnpressed() // its press, if made, is read next
	} else if s.tr != nil && r.Complete && !whole {
		s.tr.ClockFromLog(log) // a press after the log was read is one
	}
	if !r.Complete || r.Aligned || len(r.Ambiguous) > 0 {
		st.Out = append(st.Out, s.recoveryAlert(at, n, r))
	}
	return st, r.Complete
}

// recoveredPly is the record's ply of a move rebuilt from the log: the
// mover's time from his press when the log holds it (the other side's as
// before), the time used from the clock where both readings are known.
func (s *Session) recoveredPly(m board.Recovered, at time.Time) gamerecord.Ply {
	p := gamerecord.Ply{UCI: m.UCI, SAN: m.SAN, At: at}
	if m.Position != nil {
		p.FEN = m.Position.FEN()
	}
	var prev *game.ClockPair
	if k := len(s.rec.Moves); k > 0 {
		prev = s.rec.Moves[k-1].Clock
	}
	if prev == nil {
		prev = s.rec.Clock
	}
	if m.HasClock {
		c := game.ClockPair{}
		if prev != nil {
			c = *prev
		}
		t := game.Millis(m.Clock)
		var before int64 = -1
		if m.Side == rules.White {
			if prev != nil {
				before = prev.WhiteMS
			}
			c.WhiteMS = t
		} else {
			if prev != nil {
				before = prev.BlackMS
			}
			c.BlackMS = t
		}
		p.Clock = &c
		s.rec.Clock = &c
		if before >= 0 {
			inc := game.Millis(s.o.TimeControl.Increment())
			if used := before - t + inc; used >= 0 {
				p.EMTMS = used
			}
		}
	}
	return p
}

// Unlogged says that the game's board is heard again (the daemon
// started, the board reconnected) and that no log of it could be read to
// rebuild what was played meanwhile (a board without one, a read that
// failed): the board's first positions are caught up as they come, a
// short legal sequence at most. When the board then shows a position the
// record does not explain, the moves made meanwhile cannot be told, and
// the arbiter gets one moves_missing alert naming the record's last ply
// (unlogged), not only a displaced-pieces warning that would ask the
// players to put back pieces they moved legally. Once the board shows the
// record's position, nothing is missing. Nothing for a game with no move
// whose board was never seen set up, nor relayed and team games (their
// logs are not read either).
func (s *Session) Unlogged() {
	if s.relay != nil || s.team != nil || s.tr == nil || len(s.rec.Moves) == 0 && !s.rec.SetUp {
		return
	}
	s.unlogged = true
}

// unloggedCheck raises the moves_missing alert of a board heard again
// without a log (Unlogged) on the first event saying the board shows what
// the record cannot explain, and ends the watch once the board shows the
// record's position.
func (s *Session) unloggedCheck(ev game.Event, st *Step) {
	_, displaced := ev.(game.DisplacedPieces)
	_, unexplained := ev.(game.Unexplained)
	if displaced || unexplained {
		s.unlogged = false
		st.Out = append(st.Out, s.missingWhy(ev.When(), len(s.rec.Moves),
			"the board's log could not be read to rebuild them"))
	}
}

// unloggedSettled ends the watch of Unlogged when the board shows the
// record's position with nothing pending.
func (s *Session) unloggedSettled() {
	if tr := s.tr; tr != nil && tr.Completed() == tr.Ply() && tr.Sensed() == tr.Position().Placement() {
		s.unlogged = false
	}
}

// missing is the moves_missing alert: moves after ply are missing.
func (s *Session) missing(at time.Time, ply int, wrapped bool, cause error) game.Alert {
	why := "the board's log does not reach back to it"
	switch {
	case cause != nil:
		why = "the record cannot be aligned with the board's log (" + cause.Error() + ")"
	case wrapped:
		why = "the board's log had wrapped: it does not reach back to it"
	}
	return s.missingWhy(at, ply, why)
}

// missingWhy is the moves_missing alert: moves after ply are missing, why.
func (s *Session) missingWhy(at time.Time, ply int, why string) game.Alert {
	return game.Alert{ID: fmt.Sprintf("%s.%s.%d.%d", s.rec.Info.Game, game.KindMovesMissing, ply, at.UnixMilli()),
		Game: s.rec.Info.Game, Kind: game.KindMovesMissing, Severity: game.Crit, Ply: ply, At: game.T(at),
		Message: fmt.Sprintf("Moves after ply %d were made while the board was not heard and are missing from the record: %s. "+
			"Nothing was made up: the record stops at ply %d and the daemon reads the board's position as it is; "+
			"the arbiter establishes the missing moves (the scoresheets) and enters them.", ply, why, ply)}
}

// recoveryAlert tells the arbiter what to check in moves rebuilt from the
// log: a log read only in part, an earlier place in it that fits too, or
// placements more than one sequence explains.
func (s *Session) recoveryAlert(at time.Time, from int, r board.Recovery) game.Alert {
	msg := fmt.Sprintf("Plies %d to %d were rebuilt from the board's log (the board was not heard while they were played).",
		r.Ply+1, len(s.rec.Moves))
	if !r.Complete {
		msg += " The log stopped making sense after them (pieces displaced, an illegal move, or a placement nothing explains): what came after is for the arbiter to establish."
	}
	if r.Aligned {
		msg += " An earlier place in the log fits the record too and reads on with other moves: check which is right."
	}
	if len(r.Ambiguous) > 0 {
		msg += fmt.Sprintf(" %d placement(s) were explained by more than one sequence of moves: check the record.", len(r.Ambiguous))
	}
	return game.Alert{ID: fmt.Sprintf("%s.%s.%d.%d", s.rec.Info.Game, game.KindAmbiguous, from, at.UnixMilli()),
		Game: s.rec.Info.Game, Kind: game.KindAmbiguous, Severity: game.Warn, Ply: from, At: game.T(at), Message: msg}
}

// Why the moves of some games are not rebuilt from a board's log.
const (
	whyRelay = "Moves of a game relayed to a blind player are not rebuilt from the board's log: the relay checks the blind player's board " +
		"against every move as it is made, and moves put into the record afterwards would pass that check by."
	whyTeam = "Moves of a team-drop game are not rebuilt from one board's log: what a player may drop comes from the partner board's captures, " +
		"and the order of the presses on the two boards decides it; one board's log cannot tell it."
)

// notRebuilt is the moves_missing alert of a game whose moves are not
// rebuilt from the board's log (why), when the board, heard again, shows
// another position than the record's last: moves may be missing. None
// when it shows the record's position.
func (s *Session) notRebuilt(at time.Time, now rules.Placement, why string) []game.Payload {
	n := len(s.rec.Moves)
	if pos, err := startPosition(s.rec.Variant(), s.rec.FEN(), s.o.RuleSet); err == nil {
		want := pos.Placement()
		if s.rec.Rotated {
			want = Rotated(want)
		}
		if want == now {
			return nil
		}
	}
	return []game.Payload{game.Alert{ID: fmt.Sprintf("%s.%s.%d.%d", s.rec.Info.Game, game.KindMovesMissing, n, at.UnixMilli()),
		Game: s.rec.Info.Game, Kind: game.KindMovesMissing, Severity: game.Warn, Ply: n, At: game.T(at),
		Message: fmt.Sprintf("The board was not heard for a while and now shows another position than the record after ply %d: moves may be missing. %s "+
			"The daemon reads the board as it is from here; the arbiter checks the record against the scoresheets and enters what is missing.", n, why)}}
}

// noMoveLog is the alert of a game with no move recorded, its board never
// seen set up, whose board's log holds moves from its last start position up to what the board shows
// now: they are not taken as this game's, because the log of a board not
// set up again since the previous round holds that round's game (nothing
// in the log tells the two apart). The arbiter gets the moves, to enter
// them if they were this game's. None when the log explains no move.
func (s *Session) noMoveLog(at time.Time, log game.BoardLog, now rules.Placement) []game.Payload {
	opts := s.o.Tracker
	opts.Start, opts.Rotated = s.start, s.rec.Rotated
	r, err := board.Recover(s.start, nil, now, log, opts, rules.NoColor)
	if err != nil || len(r.Moves) == 0 {
		return nil
	}
	sans := make([]string, len(r.Moves))
	for i, m := range r.Moves {
		sans[i] = m.SAN
	}
	return []game.Payload{game.Alert{ID: fmt.Sprintf("%s.%s.0.%d", s.rec.Info.Game, game.KindMovesMissing, at.UnixMilli()),
		Game: s.rec.Info.Game, Kind: game.KindMovesMissing, Severity: game.Warn, Ply: 0, At: game.T(at),
		Message: fmt.Sprintf("The board's log holds %d move(s) from its last start position up to the position it shows (%s), "+
			"but this game has no move recorded: they are not taken as this game's, since a board not set up again since the previous round "+
			"holds that round's game and its log cannot tell the two apart. If they were played in this game, the arbiter enters them; "+
			"if not, the board is set up for this game.", len(r.Moves), strings.Join(sans, " "))}}
}

// rotated turns a placement by 180° (a board set up the other way round).
func Rotated(p rules.Placement) rules.Placement {
	q := rules.NewPlacement(p.Geo)
	n := p.Geo.Size()
	for i := range n {
		q.Sq[n-1-i] = p.Sq[i]
	}
	return q
}
