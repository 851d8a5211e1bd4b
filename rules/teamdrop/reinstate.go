package teamdrop

import (
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// entryKind says what a log entry records.
type entryKind uint8

const (
	entryMove      entryKind = iota // Complete
	entryEnd                        // Flag, Resign, AgreeDraw, ConfirmThreefold
	entrySetResult                  // SetResult
)

// entry is one event the match state is computed from.
type entry struct {
	kind     entryKind
	board    Board
	move     rules.Move
	at       time.Time
	end      EndEvent
	recorded bool
	owed     bool // the drop's piece was owed (not in the pocket) when last computed
	// applied, illegal, reason: what the move was when it was made, which
	// a replay keeps.
	applied bool
	illegal bool
	reason  rules.Reason
	// pending: a drop whose piece was not in the pocket, waiting for the
	// partner board's capture (waiting.go); index: the entry's place in
	// the log.
	pending bool
	index   int
}

// Reinstate takes board b back to the position after its ply n (0: the
// start), as the arbiter does after an illegal move (FIDE 7.5, R5.3) or a
// wrong record: the plies after n are dropped, and both boards' pockets
// are computed again from what remains, so the partner board loses the
// pieces the undone captures gave it and this board gets back the pieces it
// dropped. The findings say how each board's pockets changed
// ([PocketsCorrected]) and name every drop on the partner board whose
// piece came from an undone capture ([BoardMismatch]): that piece is on
// the partner board with nothing to account for it. Ends and results are
// computed again too (a mate undone is no longer an end); technical
// errors stay counted. An n beyond the record is an error wrapping
// ErrBadCommand.
func (m *Match) Reinstate(b Board, n int, at time.Time) (Update, error) {
	if b > B || n < 0 || n > len(m.st.b[b].plies) {
		return Update{}, fmt.Errorf("%w: board %s has no ply %d", ErrBadCommand, b, n)
	}
	var before [2][2]Pocket
	var results [2]Result
	for i := range before {
		w, bl := m.Pockets(Board(i))
		before[i] = [2]Pocket{w, bl}
		results[i] = m.st.results[i]
	}
	keep := make([]entry, 0, len(m.log))
	seen := 0
	for _, e := range m.log {
		if e.kind == entryMove && e.board == b {
			if seen++; seen > n {
				continue
			}
		}
		e.index = len(keep)
		keep = append(keep, e)
	}
	var u Update
	old, oldLog := m.st, m.log
	m.st, m.log = m.fresh(), nil
	for _, e := range keep {
		var err error
		switch e.kind {
		case entryMove:
			err = m.apply(&u, &e, true)
		case entryEnd:
			m.terminal(&u, e.end, true)
		case entrySetResult:
			m.decide(&u, e.end)
		}
		if err != nil {
			m.st, m.log = old, oldLog
			return Update{}, fmt.Errorf("teamdrop: the record no longer replays after reinstating board %s at ply %d: %w", b, n, err)
		}
		m.log = append(m.log, e)
	}
	m.events = append(m.events, Event{Kind: EventReinstate, Board: b, At: at, Ply: n})
	// The replay's own bookkeeping is not news; what changed is.
	u.Pockets, u.Results = [2]bool{}, [2]bool{}
	u.Pockets[b] = true
	for i := range before {
		w, bl := m.Pockets(Board(i))
		after := [2]Pocket{w, bl}
		if after != before[i] {
			u.Pockets[i] = true
			u.add(&PocketsCorrected{At: m.where(Board(i), at, m.rs.TeamDrop.Articles.Pockets), Before: before[i], After: after,
				Cause: fmt.Sprintf("board %s reinstated at ply %d", b, n)})
		}
		if m.st.results[i] != results[i] {
			u.Results[i] = true
		}
	}
	return u, nil
}
