package session

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/dgtbridge/dgtbridge/board"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/announce"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Blind makes a session a game relayed for a blind player (FIDE Laws 2018
// Appendix D; docs/blind-players.md): two boards, one record, each move
// announced. See [board.Relay] for how the two boards are followed.
type Blind struct {
	// Side is the blind player's colour.
	Side rules.Color
	// Lang is the announcement language (docs/contract.md §3.5).
	Lang announce.Lang
	// Announce tunes the texts (style, check words).
	Announce announce.Options
	// NoTalkingClock refuses time requests: under the FIDE 2001 Laws a
	// talking clock is not admissible, only the tactile analogue clock
	// (002 F2.4). [DefaultBlind] leaves it off;
	// the daemon sets it for the fide2001-* rule sets. The organiser may
	// adapt (D.1).
	NoTalkingClock bool
	// Relay tunes the relay: the blind board's tracker (BlindBoard),
	// MismatchAfter, MirrorWithin, ClockOn. Start, Blind and Sighted are
	// filled in by the session (Sighted from SessionOptions.Tracker).
	Relay board.RelayOptions
}

// DefaultBlind returns the relay settings of a blind player of colour side
// announced in lang: the board package's defaults ([board.DefaultMismatchAfter],
// [board.DefaultMirrorWithin], the clock on the sighted board), long
// announcements with check and mate, and the blind board read as the hall
// reads boards (turned boards, kings in the centre).
func DefaultBlind(side rules.Color, lang announce.Lang) *Blind {
	return &Blind{Side: side, Lang: lang, Relay: board.RelayOptions{BlindBoard: DefaultTrackerOptions()}}
}

// relayState is the blind-relay part of a Session.
type relayState struct {
	r    *board.Relay
	last *game.ClockReading
	at   time.Time
}

// newRelay builds the relay of the session and replays the record into it
// (both boards read the recorded position, as after reconnecting).
func (s *Session) newRelay(to board.TrackerOptions, start rules.Position, at time.Time) error {
	ro := s.o.Blind.Relay
	ro.Start, ro.Blind, ro.Sighted = start, s.o.Blind.Side, to
	if ro.BlindBoard.Completion != board.Release {
		ro.BlindBoard.Completion = board.Release
	}
	r, err := board.NewRelay(ro)
	if err != nil {
		return fmt.Errorf("hall: game %s: relay: %w", s.rec.Info.Game, err)
	}
	s.relay = &relayState{r: r}
	s.tr = r.Tracker(game.SightedBoard)
	switch s.rec.ClockLeft { // the clock stands by the sighted player's board
	case rules.White.String():
		s.tr.SetClockSides(rules.White)
	case rules.Black.String():
		s.tr.SetClockSides(rules.Black)
	}
	pos := start
	for i, m := range s.rec.Moves {
		mv, err := pos.ParseMove(m.UCI)
		if err == nil {
			pos, err = pos.Play(mv)
		}
		if err != nil {
			return fmt.Errorf("%w: game %s ply %d %s: %v", ErrReplay, s.rec.Info.Game, i+1, m.UCI, err)
		}
		pl := pos.Placement()
		var evs []game.Event
		for _, b := range []game.Which{game.SightedBoard, game.BlindBoard} {
			p := pl
			if b == game.SightedBoard && s.rec.Rotated {
				p = rotatePlacement(pl)
			}
			evs = append(evs, r.Dump(b, at, p)...)
		}
		evs = append(evs, r.Finish(at)...)
		for _, ev := range evs {
			s.adj.Handle(ev)
		}
		if r.Completed() != i+1 {
			return fmt.Errorf("%w: game %s ply %d %s: the relay did not take it", ErrReplay, s.rec.Info.Game, i+1, m.UCI)
		}
	}
	return nil
}

// Relay returns the blind-player relay (nil when the game has none).
func (s *Session) Relay() *board.Relay {
	if s.relay == nil {
		return nil
	}
	return s.relay.r
}

// relayStep applies relay events: each one through the session's usual
// handling, plus an Announcement after every move the record takes and an
// arbiter alert for every board mismatch.
func (s *Session) relayStep(evs []game.Event, st *Step) {
	for _, ev := range evs {
		if e, ok := ev.(game.BoardMismatch); ok {
			st.Out = append(st.Out, s.mismatchAlert(e))
			continue
		}
		if _, ok := ev.(game.BoardsAgree); ok {
			continue
		}
		if e, ok := ev.(game.ClockChanged); ok {
			c := e.Clock
			s.relay.last, s.relay.at = &c, e.At
		}
		n := len(s.rec.Moves)
		s.handle([]game.Event{ev}, st)
		if mc, ok := ev.(game.MoveCompleted); ok && len(s.rec.Moves) == n+1 {
			if a, ok := s.announceMove(mc); ok {
				st.Out = append(st.Out, a)
			}
		}
	}
}

// announceMove writes the announcement of a recorded move.
func (s *Session) announceMove(e game.MoveCompleted) (game.Announcement, bool) {
	prev := s.relay.r.PositionAt(e.Ply - 1)
	if prev == nil {
		return game.Announcement{}, false
	}
	text, err := announce.Move(prev, e.Move, s.o.Blind.Lang, s.o.Blind.Announce)
	if err != nil {
		return game.Announcement{}, false
	}
	return game.Announcement{Game: s.rec.Info.Game, Ply: len(s.rec.Moves), Lang: string(s.o.Blind.Lang),
		Text: text, UCI: e.UCI, Kind: game.AnnounceMove, At: game.T(e.At)}, true
}

// ErrNoTalkingClock: time requests are refused for this game
// (Blind.NoTalkingClock).
var ErrNoTalkingClock = errors.New("hall: no talking clock in this game (FIDE 2001 Laws: only the tactile clock is admissible)")

// TimeAnnouncement returns the talking-clock announcement (kind "time") at
// now: the last clock reading with the running side's time counted down
// since, and the moves completed. ok is false without a relay; with
// Blind.NoTalkingClock the error is ErrNoTalkingClock.
func (s *Session) TimeAnnouncement(now time.Time) (game.Announcement, bool, error) {
	if s.relay == nil {
		return game.Announcement{}, false, nil
	}
	if s.o.Blind.NoTalkingClock {
		return game.Announcement{}, true, ErrNoTalkingClock
	}
	ply := len(s.rec.Moves)
	c := announce.Clock{Moves: ply / 2}
	if l := s.relay.last; l != nil {
		c.White, c.Black = l.White, l.Black
		if d := now.Sub(s.relay.at); d > 0 {
			switch l.Running {
			case rules.White:
				c.White -= d
			case rules.Black:
				c.Black -= d
			}
		}
	}
	text, err := announce.Time(c, s.o.Blind.Lang)
	if err != nil {
		return game.Announcement{}, true, err
	}
	return game.Announcement{Game: s.rec.Info.Game, Ply: ply, Lang: string(s.o.Blind.Lang), Text: text,
		Kind: game.AnnounceTime, At: game.T(now)}, true, nil
}

// mismatchAlert is the arbiter's alert for a board mismatch (D.2.9):
// critical, never corrected by the daemon; it proposes the D.2.9
// procedure and carries both move lists and the last clock reading. It
// goes to the arbiter only: no "mismatch" announcement is sent to the
// relay device, because the daemon never signals the players (the
// arbiter corrects the boards with both scoresheets).
func (s *Session) mismatchAlert(e game.BoardMismatch) game.Alert {
	g := s.rec.Info.Game
	geo := s.start.Geometry()
	var names []string
	for _, q := range e.Squares {
		names = append(names, geo.Name(q))
	}
	who := "the sighted player's board"
	if e.Board == game.BlindBoard {
		who = "the blind player's board"
	}
	msg := fmt.Sprintf("%s differs from the game from ply %d on squares %s", who, e.Ply, strings.Join(names, ", "))
	if e.Late {
		msg = fmt.Sprintf("ply %d was announced but not executed on %s (squares %s)", e.Ply, who, strings.Join(names, ", "))
	}
	msg += ". Correct with both scoresheets (D.2.9): if they agree, the wrong board is adjusted; if not, retrace to where they agree and set the clocks."
	ev := make([]game.Evidence, 0, len(names))
	for _, n := range names {
		ev = append(ev, game.Evidence{At: game.T(e.At), Square: n, Event: "mismatch"})
	}
	return game.Alert{ID: fmt.Sprintf("%s.%s.%s.%d.%d", g, game.KindBoardMismatch, e.Board, e.Ply, e.Since.UnixMilli()),
		Game: g, Kind: game.KindBoardMismatch, Severity: game.Crit, Article: "D.2.9", Ply: e.Ply,
		Message: msg, Evidence: ev, At: game.T(e.At),
		Proposal: map[string]any{"board": e.Board.String(), "squares": names, "record": e.Record, "on_board": e.OnBoard,
			"clock": s.rec.Clock}}
}
