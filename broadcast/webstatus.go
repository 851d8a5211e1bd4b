package broadcast

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"

	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
)

// boardsSubject is <p>.api.boards: a request (any payload) answered with
// {"boards":[BoardStatus…]}, the latest status of every board the daemon
// heard of, by board id. Board statuses are core NATS messages published on
// change only; this lets a client that starts later (the arbiters' page)
// know at once which boards are connected. Organisers and arbiters may ask;
// the public role may not.
func (s Subjects) boardsSubject() string { return s.Prefix + ".api.boards" }

// webBoards is the reply on [Subjects.boardsSubject].
type webBoards struct {
	Boards []game.BoardStatus `json:"boards"`
}

// subscribeStatus keeps the latest BoardStatus of each board and answers
// <p>.api.boards on nc.
func (w *Web) subscribeStatus(nc *nats.Conn) error {
	prefix := w.o.Subjects.Prefix + ".board."
	if _, err := nc.Subscribe(prefix+"*.status", func(m *nats.Msg) {
		var st game.BoardStatus
		if err := json.Unmarshal(m.Data, &st); err != nil {
			w.log.Warn("web: undecodable board status", "subject", m.Subject, "err", err)
			return
		}
		if st.BoardID == "" {
			st.BoardID = strings.TrimSuffix(strings.TrimPrefix(m.Subject, prefix), ".status")
		}
		w.mu.Lock()
		w.status[st.BoardID] = st
		w.mu.Unlock()
	}); err != nil {
		return err
	}
	_, err := nc.Subscribe(w.o.Subjects.boardsSubject(), func(m *nats.Msg) {
		w.mu.Lock()
		out := webBoards{Boards: make([]game.BoardStatus, 0, len(w.status))}
		for _, st := range w.status {
			out.Boards = append(out.Boards, st)
		}
		w.mu.Unlock()
		slices.SortFunc(out.Boards, func(a, b game.BoardStatus) int { return cmp.Compare(a.BoardID, b.BoardID) })
		b, _ := json.Marshal(out) // plain values: cannot fail
		if err := m.Respond(b); err != nil {
			w.log.Warn("web: board status reply", "err", err)
		}
	})
	return err
}
