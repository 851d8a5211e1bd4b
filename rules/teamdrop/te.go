package teamdrop

import (
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// ConfirmTE records a technical error of s that the arbiter confirmed
// (A10, Reg. §11: only errors handled through the arbiter count, with
// te_requires_arbiter on; with it off the match counts every violation
// itself and this adds one more). kingInCheck marks an A5 error (a king
// left in check), which has its own count when
// king_in_check_counts_as_te is off. The [TechnicalError] finding carries
// the count and, at te_loss_threshold, the proposed loss; the arbiter
// applies it with SetResult.
func (m *Match) ConfirmTE(s Side, kingInCheck bool, at time.Time) (Update, error) {
	if s.Board > B || s.Color > rules.Black {
		return Update{}, fmt.Errorf("%w: side %v", ErrBadCommand, s)
	}
	if m.rs.TechnicalErrors.LossAt == 0 {
		return Update{}, fmt.Errorf("%w: technical errors are not counted under %s", ErrBadCommand, m.rs.Name)
	}
	var u Update
	m.countTE(&u, s, kingInCheck, at)
	m.events = append(m.events, Event{Kind: EventTE, Board: s.Board, At: at, Color: s.Color, KingInCheck: kingInCheck})
	return u, nil
}

// countTE adds one error to s's count and reports it.
func (m *Match) countTE(u *Update, s Side, kingInCheck bool, at time.Time) {
	count := &m.te[s.Board][s.Color]
	apart := kingInCheck && !m.rs.TeamDrop.KingInCheckCountsAsTE
	art := m.rs.TeamDrop.Articles.TechnicalError
	if apart {
		count = &m.a5[s.Board][s.Color]
		art = m.rs.TeamDrop.Articles.KingLeftInCheck
	}
	*count++
	f := &TechnicalError{At: m.where(s.Board, at, art), Side: s, Count: *count, LossAt: m.rs.TechnicalErrors.LossAt, KingInCheck: apart}
	if f.LossAt > 0 && *count >= f.LossAt {
		f.Proposal = winFor(s.Color.Other())
	}
	u.add(f)
}
