package session

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi"
)

// Input is a move entered by an operator or arbiter where no board reads
// it: the request of <p>.input.<g>.move (docs/contract.md §3.1), e.g.
// {"move":"P2-5","notation":"vi","clock":{"white_ms":5395000,"black_ms":5400000}}.
//
// Notation says how Move is written: for xiangqi "vi" (the Vietnamese
// notation of 001 in the rule set's dialect, notation_dialect: vn by
// default, doc_asian), "wxf", "iccs", and "san" (WXF, the record's SAN)
// or "uci" (ICCS); for chess "san" or "uci". Empty: the game's own
// notations (xiangqi: the rule set's dialect or ICCS; chess: SAN or UCI).
// Clock, optional, is the clock after the move (either time may be left
// out: the last reading's is kept).
type Input struct {
	Move     string      `json:"move"`
	Notation string      `json:"notation,omitempty"`
	Clock    *InputClock `json:"clock,omitempty"`
}

// InputClock is the clock an operator read after the move.
type InputClock struct {
	WhiteMS *int64 `json:"white_ms,omitempty"`
	BlackMS *int64 `json:"black_ms,omitempty"`
}

// InputReply is the reply of <p>.input.<g>.move: {ok, error, ply}, ply the
// entered move's (as in its MoveEvent; 0 when refused).
type InputReply struct {
	OK    bool   `json:"ok"`
	Error string `json:"error"`
	Ply   int    `json:"ply"`
}

// Sentinel errors of entered moves; match them with errors.Is.
var (
	// ErrUnreadable: the text is no move of the notation in this
	// position (nothing for the arbiter: the operator types again).
	ErrUnreadable = errors.New("hall: move not readable")
	// ErrIllegalEntry: the move is readable but illegal; it was judged as
	// a board's illegal move (the arbiter has the alerts) and not entered.
	ErrIllegalEntry = errors.New("hall: illegal move")
	// ErrNotEnterable: the game takes no entered move now (it has a
	// result, or it is relayed between two boards).
	ErrNotEnterable = errors.New("hall: no move can be entered")
)

// Enter judges an entered move at time at exactly as a move made on a
// board and completed by the clock: a legal move enters the record (its
// MoveEvent, the adjudicator's findings); an illegal one raises the same
// alerts as a board's completed illegal move and changes nothing. It
// returns the step, the ply of the entered move, and an error matching
// ErrUnreadable, ErrIllegalEntry or ErrNotEnterable.
func (s *Session) Enter(at time.Time, in Input) (Step, int, error) {
	var st Step
	if s.relay != nil {
		return st, 0, fmt.Errorf("%w: a relayed game is entered on its boards", ErrNotEnterable)
	}
	if s.Over() {
		return st, 0, fmt.Errorf("%w: the game has a result (%s); set_result \"*\" resumes it", ErrNotEnterable, s.rec.Result)
	}
	ply := s.tr.Completed() + 1
	pos := s.tr.PositionAt(ply - 1)
	m, err := parseEntry(pos, in, s.o.RuleSet.Xiangqi.Notation)
	var ie *rules.IllegalMoveError
	switch {
	case errors.As(err, &ie):
		s.illegalEntry(at, ply, pos, m, in.Move, ie.Reason, &st)
		return st, 0, fmt.Errorf("%w: %s at ply %d (%s); not entered, the arbiter has the alert", ErrIllegalEntry, in.Move, ply, ie.Reason)
	case err != nil:
		return st, 0, err
	}
	clk := s.entryClock(pos.Turn(), in.Clock)
	if clk != nil {
		s.handle([]game.Event{game.ClockChanged{Stamp: game.Stamp{At: at}, Clock: *clk}}, &st)
	}
	evs, err := s.tr.Enter(at, m, clk)
	if err != nil {
		return st, 0, fmt.Errorf("%w: %v", ErrNotEnterable, err)
	}
	s.handle(evs, &st)
	s.showRecord(at, &st)
	return st, ply, nil
}

// illegalEntry reports an illegal entered move as the tracker reports a
// board's completed illegal move.
func (s *Session) illegalEntry(at time.Time, ply int, pos rules.Position, m rules.Move, text string, why rules.Reason, st *Step) {
	ev := game.IllegalMove{Stamp: game.Stamp{At: at}, Ply: ply, Side: pos.Turn(), Attempt: m, Text: text,
		Reason: why, Completed: true}
	if m.From != rules.NoSquare {
		if after, err := pos.PlayIllegal(m); err == nil {
			ev.Position = after
		} else {
			ev.Attempt = rules.NoMove
		}
	}
	s.adjudicate(ev, st)
}

// entryClock returns the clock reading an entry gives (the side that
// moved, mover, has pressed: the other one's runs), the missing time taken
// from the last reading; nil without one.
func (s *Session) entryClock(mover rules.Color, c *InputClock) *game.ClockReading {
	if c == nil || (c.WhiteMS == nil && c.BlackMS == nil) {
		return nil
	}
	r := game.ClockReading{Running: mover.Other()}
	if last := s.rec.Clock; last != nil {
		r.White, r.Black = time.Duration(last.WhiteMS)*time.Millisecond, time.Duration(last.BlackMS)*time.Millisecond
	}
	if c.WhiteMS != nil {
		r.White = time.Duration(*c.WhiteMS) * time.Millisecond
	}
	if c.BlackMS != nil {
		r.Black = time.Duration(*c.BlackMS) * time.Millisecond
	}
	return &r
}

// showRecord makes the tracker's board of a game without one (protocol
// manual) show the record's position, so that nothing it senses can be
// taken for a move, a takeback or a set-up.
func (s *Session) showRecord(at time.Time, st *Step) {
	if !s.o.NoBoard || s.tr == nil {
		return
	}
	s.handle(s.tr.Dump(at, s.tr.Position().Placement()), st)
}

// parseEntry reads an entered move in pos. A readable illegal move is an
// *rules.IllegalMoveError with the attempted move when the notation names
// its squares (rules.NoMove otherwise); an unreadable one matches
// ErrUnreadable.
func parseEntry(pos rules.Position, in Input, dialect string) (rules.Move, error) {
	text := strings.TrimSpace(in.Move)
	if text == "" {
		return rules.NoMove, fmt.Errorf("%w: no move given", ErrUnreadable)
	}
	notation := strings.ToLower(strings.TrimSpace(in.Notation))
	xq, isXQ := pos.(*xiangqi.Position)
	coords := false
	var m rules.Move
	var err error
	switch {
	case isXQ:
		switch notation {
		case "iccs", "uci":
			coords = true
			m, err = pos.ParseMove(text)
		case "wxf", "san":
			m, err = xq.ParseMoveDialect(text, xiangqi.DialectWXF)
		case "vi", "":
			d, derr := xiangqi.ParseDialect(dialect)
			if derr != nil || d == xiangqi.DialectWXF {
				d = xiangqi.DialectVN
			}
			if coordText(text) {
				coords = true
				m, err = pos.ParseMove(text)
			} else {
				m, err = xq.ParseMoveDialect(text, d)
			}
		default:
			return rules.NoMove, fmt.Errorf("%w: notation %q (a xiangqi game takes vi, wxf, iccs, san or uci)", ErrUnreadable, in.Notation)
		}
	default:
		switch notation {
		case "san", "uci", "":
			coords = notation == "uci" || coordText(text)
			m, err = pos.ParseMove(text)
		default:
			return rules.NoMove, fmt.Errorf("%w: notation %q (a %s game takes san or uci)", ErrUnreadable, in.Notation, pos.Variant())
		}
	}
	if err == nil {
		return m, nil
	}
	var ie *rules.IllegalMoveError
	if !errors.As(err, &ie) {
		return rules.NoMove, fmt.Errorf("%w: %q: %v", ErrUnreadable, text, err)
	}
	attempt := rules.NoMove
	if coords {
		attempt = coordMove(pos.Geometry(), text)
	}
	return attempt, &rules.IllegalMoveError{Move: attempt, Text: text, Reason: ie.Reason}
}

// coordText reports whether s looks like a coordinate move (UCI, ICCS):
// two square names, a promotion letter after them.
func coordText(s string) bool {
	if len(s) < 4 || len(s) > 5 {
		return false
	}
	return s[0] >= 'a' && s[0] <= 'z' && s[1] >= '0' && s[1] <= '9' && s[2] >= 'a' && s[2] <= 'z' && s[3] >= '0' && s[3] <= '9'
}

// coordMove returns the move from and to the squares a coordinate text
// names (NoMove when they are not on the board).
func coordMove(g rules.Geometry, s string) rules.Move {
	if !coordText(s) {
		return rules.NoMove
	}
	from, err1 := g.ParseSquare(s[:2])
	to, err2 := g.ParseSquare(s[2:4])
	if err1 != nil || err2 != nil {
		return rules.NoMove
	}
	m := rules.Move{From: from, To: to}
	if len(s) == 5 {
		if k, ok := rules.KindFromLetter(s[4]); ok {
			m.Promo = k
		}
	}
	return m
}
