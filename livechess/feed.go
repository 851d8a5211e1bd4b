package livechess

import (
	"slices"

	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// feed is one eboardevent subscription: the board it follows, the
// position a `setup` gave, whether the client asked for the board
// flipped, and what its last frame said. Pure: [feed.frames] turns a
// board snapshot into the frames to send.
type feed struct {
	id    int
	board string // board id
	// name is what the client subscribed with (the serial number listed
	// then), carried by every frame: a board that reports its serial
	// number later is listed under it, but the feed keeps its name.
	name string

	setup     string  // the set-up position's key ("" none)
	setupFEN  string  // the FEN as the client gave it
	setupGame game.ID // the game the set-up applies to
	base      int     // the record's ply the set-up position is, -1 none
	flipped   bool

	started bool
	last    sent
}

// sent is what a feed's frames have said so far.
type sent struct {
	san     []string
	board   string
	clock   *Clock
	start   string
	flipped bool
	match   bool
}

// doSetup restarts the feed's moves from fen (a full FEN); the next frame
// says where they start.
func (f *feed) doSetup(fen string, g game.ID) error {
	pos, err := chess.NewPosition(chess.Chess960, fen)
	if err != nil {
		pos, err = chess.NewPosition(chess.Standard, fen)
	}
	if err != nil {
		return errorf("setup: invalid FEN %q: %v", fen, err)
	}
	f.setup, f.setupFEN, f.setupGame, f.base = posKey(pos.FEN()), fen, g, -1
	f.last.start = "" // the client empties its list: the next frame starts it again
	return nil
}

// setupWindow is how far back in the record a set-up position is looked
// for: a client that reconnects sets up its own game, a few plies behind
// the board; a position further back (the start of a game the board has
// finished, set up for the client's next game) is not the board's, and
// its moves must not be sent as new ones.
const setupWindow = 6

// origin returns where the feed's moves start for b: the start FEN and the
// ply of b's record it is (-1 while the record has no such position
// within [setupWindow] plies of its end). A ply once found stays the
// origin while the record keeps it.
func (f *feed) origin(b boardSnap) (start string, base int) {
	rec := b.rec
	if f.setup != "" && f.setupGame != b.game {
		f.setup, f.setupFEN, f.base = "", "", -1 // the board plays another game now
	}
	if rec == nil {
		if f.setup != "" {
			return f.setupFEN, -1
		}
		return chess.StartPosition(chess.Standard).FEN(), 0
	}
	if f.setup == "" {
		return rec.start, 0
	}
	if f.base >= 0 && f.base < len(rec.keys) && rec.keys[f.base] == f.setup {
		return f.setupFEN, f.base
	}
	f.base = -1
	for i := len(rec.keys) - 1; i >= 0 && i >= len(rec.keys)-1-setupWindow; i-- {
		if rec.keys[i] == f.setup {
			f.base = i
			break
		}
	}
	return f.setupFEN, f.base
}

// frames returns the frames that bring the client from what it was last
// sent to b: the whole state in the first frame; then one frame per new
// move (a client takes several new moves in one frame as pieces still in
// the air), one frame for a record that changed otherwise, and one for a
// changed placement, clock or orientation alone.
func (f *feed) frames(b boardSnap) []event {
	start, base := f.origin(b)
	var san, places []string
	if b.rec != nil && base >= 0 {
		n := min(len(b.rec.st.SAN), len(b.rec.placements)-1)
		if base <= n {
			san = b.rec.st.SAN[base:n]
			places = b.rec.placements[base : n+1]
		}
	}
	board := placement(start)
	if b.rec != nil && len(b.rec.placements) > 0 {
		board = b.rec.placements[len(b.rec.placements)-1]
	}
	match := base >= 0
	if san == nil {
		san = []string{}
	}
	if !f.started {
		f.started = true
		if f.setup == "" {
			// The board as it stands, in one frame: a client that has not
			// set up a position takes the game so far.
			f.last = sent{san: slices.Clone(san), board: board, clock: b.clock, start: start, flipped: f.flipped, match: match}
			return []event{{SerialNr: f.name, Flipped: ptr(f.flipped), Board: board, Clock: b.clock, Start: start,
				SAN: san, Match: ptr(match)}}
		}
		// After a setup the client's list is empty: the moves since come
		// one a frame, the first frame saying everything.
		f.last = sent{start: "", board: "", clock: nil, flipped: !f.flipped, match: !match}
	}
	// A new start (a setup) empties the client's list: the moves from it
	// come one a frame like any others.
	prev := f.last.san
	if start != f.last.start {
		prev = nil
	}
	var out []event
	if len(san) > len(prev) && slices.Equal(san[:len(prev)], prev) {
		for k := len(prev) + 1; k < len(san); k++ { // all but the last new move
			e := event{SerialNr: f.name, SAN: slices.Clone(san[:k])}
			if start != f.last.start {
				e.Start = start
				f.last.start = start
			}
			if k < len(places) && places[k] != f.last.board {
				e.Board = places[k]
				f.last.board = places[k]
			}
			out = append(out, e)
		}
	}
	e := event{SerialNr: f.name, SAN: slices.Clone(san)}
	changed := !slices.Equal(san, f.last.san)
	if start != f.last.start {
		e.Start, changed = start, true
	}
	if board != f.last.board {
		e.Board, changed = board, true
	}
	if !sameClock(b.clock, f.last.clock) && b.clock != nil {
		e.Clock, changed = b.clock, true
	}
	if f.flipped != f.last.flipped {
		e.Flipped, changed = ptr(f.flipped), true
	}
	if match != f.last.match {
		e.Match, changed = ptr(match), true
	}
	if changed {
		out = append(out, e)
	}
	f.last = sent{san: slices.Clone(san), board: board, clock: b.clock, start: start, flipped: f.flipped, match: match}
	return out
}

func sameClock(a, b *Clock) bool {
	if a == nil || b == nil {
		return a == b
	}
	sameRun := (a.Run == nil) == (b.Run == nil) && (a.Run == nil || *a.Run == *b.Run)
	return a.White == b.White && a.Black == b.Black && sameRun
}
