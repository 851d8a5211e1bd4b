package broadcast

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// The LiveChess Cloud JSON of a round, from the public (delayed) copy
// only, as Lichess broadcasts pull it without a token:
//
//	GET /lcc/<event>/round-<n>/index.json   the pairings, by board
//	GET /lcc/<event>/round-<n>/game-<k>.json  board k's moves, clock, result
//
// k is the board number; a board with no public state yet is a pairing
// without players and an empty game, so k always names the same board.
// Only chess and Chess960 games are served (the format has no other
// variant); a round with none is 404.

// LCCIndex is a round's index.json.
type LCCIndex struct {
	// Date is the round's date (PGN form, YYYY.MM.DD), "" when unknown.
	Date     string       `json:"date,omitempty"`
	Pairings []LCCPairing `json:"pairings"`
}

// LCCPairing is one board of a round; White and Black are null for a
// board with nothing public yet.
type LCCPairing struct {
	White  *LCCPlayer `json:"white"`
	Black  *LCCPlayer `json:"black"`
	Result string     `json:"result"`
}

// LCCPlayer is a player: the name split at its comma ("Carlsen, Magnus":
// lname Carlsen, fname Magnus), the FIDE title and id when the pairing file
// gives them.
type LCCPlayer struct {
	FName  string `json:"fname,omitempty"`
	MName  string `json:"mname,omitempty"`
	LName  string `json:"lname,omitempty"`
	Title  string `json:"title,omitempty"`
	FideID int    `json:"fideid,omitempty"`
}

// LCCGame is a board's game-<k>.json: each move "SAN [seconds left][+seconds
// used]", the result, the last clock reading and the start position's
// Chess960 number (518: the standard start).
type LCCGame struct {
	Moves    []string  `json:"moves"`
	Result   string    `json:"result"`
	Clock    *LCCClock `json:"clock,omitempty"`
	Chess960 int       `json:"chess960"`
}

// LCCClock is a clock reading: whole seconds left, and when (ms since the
// epoch).
type LCCClock struct {
	White int64 `json:"white"`
	Black int64 `json:"black"`
	Time  int64 `json:"time"`
}

// lccRound returns a round's chess games by board number (index k-1; nil
// where the board has no public chess game) and whether it has any.
func lccRound(st *Store, event string, round int) ([]*game.GameState, bool) {
	var out []*game.GameState
	some := false
	for _, g := range st.Round(event, round) {
		if !lccChess(g.Variant) || g.Game.Board < 1 {
			continue
		}
		for len(out) < g.Game.Board {
			out = append(out, nil)
		}
		out[g.Game.Board-1] = &g
		some = true
	}
	return out, some
}

func lccChess(variant string) bool {
	return variant == "" || variant == "chess" || variant == "chess960"
}

// LCCIndexOf builds a round's index.json from its public games.
func LCCIndexOf(games []*game.GameState) LCCIndex {
	idx := LCCIndex{Pairings: []LCCPairing{}}
	for _, g := range games {
		if g == nil {
			idx.Pairings = append(idx.Pairings, LCCPairing{Result: "*"})
			continue
		}
		if idx.Date == "" && !g.Started.IsZero() {
			idx.Date = g.Started.UTC().Format("2006.01.02")
		}
		idx.Pairings = append(idx.Pairings, LCCPairing{White: lccPlayer(g.White, g.WhiteTitle, g.WhiteFideID),
			Black: lccPlayer(g.Black, g.BlackTitle, g.BlackFideID), Result: lccResult(g.Result)})
	}
	return idx
}

func lccPlayer(name, title, fideID string) *LCCPlayer {
	p := &LCCPlayer{Title: title}
	name = strings.TrimSpace(name)
	if name != "?" {
		if last, first, ok := strings.Cut(name, ","); ok {
			p.LName, p.FName = strings.TrimSpace(last), strings.TrimSpace(first)
		} else {
			p.LName = name
		}
	}
	if n, err := strconv.Atoi(fideID); err == nil && n > 0 {
		p.FideID = n
	}
	return p
}

func lccResult(r string) string {
	switch r {
	case "1-0", "0-1", "1/2-1/2":
		return r
	}
	return "*"
}

// LCCGameOf builds a board's game-<k>.json from its public state (nil: a
// board with nothing public yet).
func LCCGameOf(g *game.GameState) LCCGame {
	out := LCCGame{Moves: []string{}, Result: "*", Chess960: 518}
	if g == nil {
		return out
	}
	out.Result = lccResult(g.Result)
	for i, san := range g.SAN {
		m := san
		clk, emt := "", ""
		if i < len(g.Clocks) && g.Clocks[i] >= 0 {
			clk = strconv.FormatInt(g.Clocks[i]/1000, 10)
		}
		if i < len(g.EMT) && g.EMT[i] >= 0 {
			emt = "+" + strconv.FormatInt(g.EMT[i]/1000, 10)
		}
		if clk+emt != "" {
			m += " " + clk + emt
		}
		out.Moves = append(out.Moves, m)
	}
	if g.Clock != nil {
		out.Clock = &LCCClock{White: g.Clock.WhiteMS / 1000, Black: g.Clock.BlackMS / 1000, Time: g.UpdatedAt.UnixMilli()}
	}
	if g.StartFEN != "" {
		out.Chess960 = 0
		if p, err := chess.NewPosition(chess.Chess960, g.StartFEN); err == nil {
			if n, ok := chess.Chess960Number(p.Placement()); ok {
				out.Chess960 = n
			}
		}
	}
	return out
}

// lcc serves GET /lcc/<event>/round-<n>/<file> from the public copy.
func (h *HTTPServer) lcc(w http.ResponseWriter, r *http.Request) {
	ev, rs, file := r.PathValue("event"), r.PathValue("round"), r.PathValue("file")
	n, ok := strings.CutPrefix(rs, "round-")
	round, ok2 := positive(n)
	if !ValidToken(ev) || !ok || !ok2 {
		http.Error(w, "want /lcc/<event>/round-<n>/index.json or game-<k>.json", http.StatusNotFound)
		return
	}
	games, some := lccRound(h.o.Games, ev, round)
	if !some {
		http.Error(w, "no public games in this round yet", http.StatusNotFound)
		return
	}
	var body any
	if file == "index.json" {
		body = LCCIndexOf(games)
	} else {
		k, ok := strings.CutPrefix(file, "game-")
		k, ok2 := strings.CutSuffix(k, ".json")
		board, ok3 := positive(k)
		if !ok || !ok2 || !ok3 || board > len(games) {
			http.Error(w, "no such game in this round", http.StatusNotFound)
			return
		}
		body = LCCGameOf(games[board-1])
	}
	b, err := json.Marshal(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	sum := sha256.Sum256(b)
	etag := `"` + hex.EncodeToString(sum[:12]) + `"`
	w.Header().Set("ETag", etag)
	w.Header().Set("Cache-Control", pgnMaxAge)
	if inm := r.Header.Get("If-None-Match"); inm != "" && etagMatch(inm, etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}
