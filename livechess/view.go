package livechess

import (
	"cmp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// view is the hall as the daemon's feed tells it: the boards (status
// bucket), each game's record (games bucket) and the last clock event of
// each game. Safe for concurrent use; every change closes the channel
// [view.changes] returned and makes a new one.
type view struct {
	first string // the board id listed first ("" none)

	mu      sync.Mutex
	boards  map[string]broadcast.BoardReport
	serials map[string]int // how many boards report each serial number
	games   map[game.ID]*record
	clocks  map[game.ID]game.ClockEvent
	changed chan struct{}
}

// record is a game's latest state and the positions of its record.
type record struct {
	st      game.GameState
	variant chess.Variant
	chess   bool // a chess-family game a LiveChess client can read
	start   string
	// keys[i] and placements[i] are the position after ply i (0: the
	// start); shorter than the record when a move could not be replayed.
	keys, placements []string
	// last is the position after the record's last ply (nil when a move
	// could not be replayed).
	last *chess.Position
}

func newView(first string) *view {
	return &view{first: first, boards: map[string]broadcast.BoardReport{}, serials: map[string]int{}, games: map[game.ID]*record{},
		clocks: map[game.ID]game.ClockEvent{}, changed: make(chan struct{})}
}

// changes returns a channel closed at the next change.
func (v *view) changes() <-chan struct{} {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.changed
}

func (v *view) notify() {
	close(v.changed)
	v.changed = make(chan struct{})
}

// putBoard records a board's report.
func (v *view) putBoard(r broadcast.BoardReport) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.forgetSerial(r.BoardID)
	v.boards[r.BoardID] = r
	if r.Serial != "" {
		v.serials[r.Serial]++
	}
	v.notify()
}

// deleteBoard forgets a board (its report was removed).
func (v *view) deleteBoard(id string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if _, ok := v.boards[id]; ok {
		v.forgetSerial(id)
		delete(v.boards, id)
		v.notify()
	}
}

// forgetSerial uncounts the serial number board id reported. v.mu is held.
func (v *view) forgetSerial(id string) {
	if old, ok := v.boards[id]; ok && old.Serial != "" {
		if v.serials[old.Serial]--; v.serials[old.Serial] <= 0 {
			delete(v.serials, old.Serial)
		}
	}
}

// putGame records a game's state, unless an older one than it holds.
func (v *view) putGame(st game.GameState) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if cur, ok := v.games[st.Game]; ok && st.UpdatedAt.Before(cur.st.UpdatedAt.Time) {
		return
	}
	v.games[st.Game] = newRecord(st, v.games[st.Game])
	v.notify()
}

// putClock records a clock event, unless an older one than it holds.
func (v *view) putClock(c game.ClockEvent) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if cur, ok := v.clocks[c.Game]; ok && c.At.Before(cur.At.Time) {
		return
	}
	v.clocks[c.Game] = c
	v.notify()
}

// newRecord replays st's moves to know the position after every ply. When
// st extends prev (a move added, the usual change) only the new plies are
// replayed.
func newRecord(st game.GameState, prev *record) *record {
	r := &record{st: st}
	name := st.Variant
	if name == "" {
		name = "chess"
	}
	v, err := chess.ParseVariant(name)
	if err != nil || v != chess.Standard && v != chess.Chess960 {
		return r
	}
	r.variant, r.chess = v, true
	r.start = st.StartFEN
	if r.start == "" {
		r.start = chess.StartPosition(v).FEN()
	}
	from := 0
	if prev != nil && prev.chess && prev.last != nil && prev.start == r.start && len(prev.keys) == len(prev.st.Moves)+1 &&
		len(st.Moves) >= len(prev.st.Moves) && slices.Equal(st.Moves[:len(prev.st.Moves)], prev.st.Moves) {
		r.keys, r.placements, r.last = slices.Clone(prev.keys), slices.Clone(prev.placements), prev.last
		from = len(prev.st.Moves)
	} else {
		pos, err := chess.NewPosition(v, r.start)
		if err != nil {
			return r
		}
		r.keys = []string{posKey(pos.FEN())}
		r.placements = []string{placement(pos.FEN())}
		r.last = pos
	}
	pos := r.last
	for _, uci := range st.Moves[from:] {
		m, err := pos.ParseMove(uci)
		if err != nil {
			r.last = nil
			return r
		}
		if pos, err = pos.PlayMove(m); err != nil {
			r.last = nil
			return r
		}
		fen := pos.FEN()
		r.keys = append(r.keys, posKey(fen))
		r.placements = append(r.placements, placement(fen))
	}
	r.last = pos
	return r
}

// posKey is the part of a FEN a set-up is compared on: the placement and
// the side to move (castling rights and the en-passant square are written
// differently by different programs).
func posKey(fen string) string {
	f := strings.Fields(fen)
	if len(f) < 2 {
		return strings.Join(f, " ")
	}
	return f[0] + " " + f[1]
}

// placement is a FEN's first field.
func placement(fen string) string {
	p, _, _ := strings.Cut(strings.TrimSpace(fen), " ")
	return p
}

// boardSnap is one board and its game as a feed sees it.
type boardSnap struct {
	id, serial, port string
	state            string
	game             game.ID
	rec              *record // nil before the game's first state
	clock            *Clock
	comment          string
}

// snapLocked is one board as a feed sees it; ok is false for a board
// playing a game of another variant (xiangqi, team-drop), which clients
// cannot read. v.mu is held.
func (v *view) snapLocked(r broadcast.BoardReport) (boardSnap, bool) {
	rec := v.games[r.Game]
	if rec != nil && !rec.chess {
		return boardSnap{}, false
	}
	b := boardSnap{id: r.BoardID, serial: r.BoardID, port: r.Port, game: r.Game, rec: rec}
	if r.Serial != "" && v.serials[r.Serial] == 1 {
		b.serial = r.Serial
	}
	switch {
	case r.Connected:
		b.state = StateActive
	case r.LastSeen.IsZero():
		b.state = StateInactive
	default:
		b.state = StateNotResponding
	}
	b.comment = r.BoardID + " " + r.Game.String()
	b.clock = v.clockLocked(r, rec)
	return b, true
}

// boardsLocked returns the boards a LiveChess client can read, in the
// listing order: the configured first board, then by game, then by id.
// v.mu is held.
func (v *view) boardsLocked() []boardSnap {
	out := make([]boardSnap, 0, len(v.boards))
	for _, r := range v.boards {
		if b, ok := v.snapLocked(r); ok {
			out = append(out, b)
		}
	}
	slices.SortFunc(out, func(a, b boardSnap) int {
		if (a.id == v.first) != (b.id == v.first) {
			if a.id == v.first {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(a.game.Event, b.game.Event), cmp.Compare(a.game.Round, b.game.Round),
			cmp.Compare(a.game.Board, b.game.Board), cmp.Compare(a.id, b.id))
	})
	return out
}

// clockLocked is the board's latest clock reading: the game's last clock
// event, its state's clock or the board report's, whichever is newest.
func (v *view) clockLocked(r broadcast.BoardReport, rec *record) *Clock {
	var c *Clock
	var at time.Time
	consider := func(w, b int64, run *bool, t time.Time) {
		if c == nil || t.After(at) {
			c = &Clock{White: int(w / 1000), Black: int(b / 1000), Run: run, Time: t.UnixMilli()}
			at = t
		}
	}
	if r.Clock != nil {
		consider(r.Clock.WhiteMS, r.Clock.BlackMS, running(r.Clock.Running), r.Clock.At.Time)
	}
	if ce, ok := v.clocks[r.Game]; ok {
		consider(ce.WhiteMS, ce.BlackMS, running(ce.Running), ce.At.Time)
	}
	if rec != nil && rec.st.Clock != nil {
		var run *bool
		if c != nil {
			run = c.Run // a state says nothing of which clock runs
		}
		consider(rec.st.Clock.WhiteMS, rec.st.Clock.BlackMS, run, rec.st.UpdatedAt.Time)
	}
	return c
}

func running(s string) *bool {
	switch s {
	case game.RunningWhite:
		t := true
		return &t
	case game.RunningBlack:
		f := false
		return &f
	}
	return nil
}

// boards returns the listing ([view.boardsLocked]).
func (v *view) list() []boardSnap {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.boardsLocked()
}

// find returns the board a client names by board id or serial number;
// name "" is the first board listed.
func (v *view) find(name string) (boardSnap, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if name == "" {
		if l := v.boardsLocked(); len(l) > 0 {
			return l[0], true
		}
		return boardSnap{}, false
	}
	if r, ok := v.boards[name]; ok {
		return v.snapLocked(r)
	}
	if v.serials[name] == 1 {
		for _, r := range v.boards {
			if r.Serial == name {
				return v.snapLocked(r)
			}
		}
	}
	return boardSnap{}, false
}

// board returns the board with id id (what a feed follows: a lookup, not
// a listing, on every change of the hall).
func (v *view) board(id string) (boardSnap, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	r, ok := v.boards[id]
	if !ok {
		return boardSnap{}, false
	}
	return v.snapLocked(r)
}

// eboard is b as `eboards` lists it.
func (b boardSnap) eboard(flipped bool) EBoard {
	e := EBoard{SerialNr: b.serial, State: ptr(b.state), Comment: ptr(b.comment), Flipped: flipped, Clock: b.clock}
	if b.port != "" {
		e.Source = ptr(b.port)
	}
	if b.rec != nil && len(b.rec.placements) > 0 {
		e.Board = ptr(b.rec.placements[len(b.rec.placements)-1])
	} else if b.rec == nil {
		e.Board = ptr(placement(chess.StartPosition(chess.Standard).FEN()))
	}
	return e
}

func ptr[T any](v T) *T { return &v }
