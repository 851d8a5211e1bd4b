package broadcast

import (
	"net/http"
	"strings"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// bpgn serves GET /bpgn/<event>/<round>/<board>.bpgn: the team-drop match
// of the board and its partner board as BPGN 1.0 (docs/contract.md §5), from
// the public (delayed) copy. Each board's public GameState carries the
// match as it stood when that state was made; the newer of the two boards'
// states is served, so a move on either board shows once its state is
// public, and nothing shows earlier than the public delay allows. A board
// that is not a team-drop board, or has no public state yet, is 404.
func (h *HTTPServer) bpgn(w http.ResponseWriter, r *http.Request) {
	ev := r.PathValue("event")
	round, ok1 := positive(r.PathValue("round"))
	base, ok2 := strings.CutSuffix(r.PathValue("file"), ".bpgn")
	board, ok3 := positive(base)
	if !ValidToken(ev) || !ok1 || !ok2 || !ok3 {
		http.Error(w, "want /bpgn/<event>/<round>/<board>.bpgn", http.StatusNotFound)
		return
	}
	st, ok := h.o.Games.Get(game.ID{Event: ev, Round: round, Board: board})
	if !ok || st.BPGN == "" {
		http.Error(w, "no public team-drop match on this board yet", http.StatusNotFound)
		return
	}
	if p, err := game.ParseID(st.Partner); err == nil {
		if ps, ok := h.o.Games.Get(p); ok && ps.BPGN != "" && ps.UpdatedAt.After(st.UpdatedAt.Time) {
			st = ps
		}
	}
	writePGN(w, r, st.BPGN)
}
