package teamdrop

import (
	"errors"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// PocketGrace is how long the match waits, after a drop of a piece its
// pocket does not hold, for the capture on the partner board that may
// have put the piece there before the drop was pressed. A board reports a
// capture once its scan has seen the move and the placement has settled,
// which can be a second or more after the capturer's press (the scan
// lags the lever; a fast reply keeps the board busy); the partner, handed
// the piece, may meanwhile have dropped it and pressed. A capture pressed
// before the drop, however late it is reported, makes the drop legal and
// nothing is reported; a capture pressed after it, or none within
// PocketGrace, makes it the illegal drop D2 (an [IllegalMove] reported
// then).
const PocketGrace = 3 * time.Second

// waiting is a drop waiting for its piece.
type waiting struct {
	side Side
	kind rules.Kind
	at   time.Time // the drop's press
	ply  int       // its ply on its board
	log  int       // its entry in the log
}

// emptyPocket reports whether err says the pocket lacks the dropped piece.
func emptyPocket(err error) bool {
	var ie *rules.IllegalMoveError
	return errors.As(err, &ie) && ie.Reason == rules.ReasonEmptyPocket
}

// settle gives piece k, captured at at, to the oldest drop of s waiting for
// one; it reports whether one was waiting. A capture pressed before the
// drop settles it silently; one pressed after it makes the drop illegal.
func (m *Match) settle(u *Update, s Side, k rules.Kind, at time.Time, replay bool) bool {
	for i, w := range m.st.waiting {
		if w.side != s || w.kind != k {
			continue
		}
		m.st.waiting = append(m.st.waiting[:i:i], m.st.waiting[i+1:]...)
		m.log[w.log].pending = false
		if !at.After(w.at) {
			return true
		}
		m.lateIllegal(u, w, replay)
		return false
	}
	return false
}

// expire reports the drops that waited PocketGrace for their piece by now
// as illegal drops.
func (m *Match) expire(u *Update, now time.Time) {
	keep := m.st.waiting[:0]
	for _, w := range m.st.waiting {
		if now.Sub(w.at) < PocketGrace {
			keep = append(keep, w)
			continue
		}
		m.log[w.log].pending = false
		m.lateIllegal(u, w, false)
	}
	m.st.waiting = keep
}

// lateIllegal reports a waiting drop as the illegal drop D2: the record
// keeps it as illegal from now on (a replay after a correction keeps that).
// The opponent may confiscate it while the board has not moved on.
func (m *Match) lateIllegal(u *Update, w waiting, replay bool) {
	e := &m.log[w.log]
	e.illegal, e.reason = true, rules.ReasonEmptyPocket
	bs := &m.st.b[w.side.Board]
	if w.ply <= len(bs.plies) {
		bs.plies[w.ply-1].Illegal = true
	}
	if replay {
		return
	}
	mv := e.move
	td := m.rs.TeamDrop
	conf := len(bs.plies) == w.ply && td.ConfiscationScope == ruleset.AnyIllegalMove && bs.pos.At(mv.To) == rules.Piece{Color: w.side.Color, Kind: w.kind}
	if conf {
		bs.canConf, bs.confisc = true, mv.To
	}
	u.add(&IllegalMove{At: Where{w.side.Board, w.ply, w.at, td.Articles.DropNotInPocket}, Side: w.side, Move: mv,
		Text: string(w.kind.Letter()) + "@" + sqName(mv.To), Reason: rules.ReasonEmptyPocket, Violation: DropNotInPocket,
		Square: mv.To, Confiscable: conf, Candidate: m.rs.TechnicalErrors.RequiresArbiter, TimeAward: m.rs.Illegal.TimeAward})
	if !m.rs.TechnicalErrors.RequiresArbiter {
		m.countTE(u, w.side, false, w.at)
	}
}

// Tick lets time pass: drops that have waited PocketGrace for their piece
// are reported as illegal drops. The wiring calls it now and then (every
// call of the match does it too).
func (m *Match) Tick(now time.Time) Update {
	var u Update
	m.expire(&u, now)
	return u
}
