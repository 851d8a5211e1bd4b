package board

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// ChessSetup returns the [SetupFunc] for chess and Chess960 games of
// variant v: it recognises the standard start position and all 960
// Chess960 start arrays. In a standard game the standard array is a
// standard game (n960 -1) and any other array a Chess960 game; in a
// Chess960 game every array, 518 (the standard one) included, is a
// Chess960 game with its Scharnagl number.
func ChessSetup(v chess.Variant) SetupFunc {
	return func(p rules.Placement) (rules.Position, int, bool) {
		n, ok := chess.Chess960Number(p)
		if !ok {
			return nil, 0, false
		}
		if v != chess.Chess960 && n == 518 {
			return chess.StartPosition(chess.Standard), -1, true
		}
		pos := chess.Chess960Start(n)
		if pos == nil {
			return nil, 0, false
		}
		return pos, n, true
	}
}

// trySetup starts a new game when the board shows a start position that
// differs from the record's.
func (t *Tracker) trySetup(at time.Time, evs []game.Event) ([]game.Event, bool) {
	if t.opts.Setup == nil || (t.line.entered > 0 && t.state.phase != ended) {
		// A game carried on by entered moves (Enter) is not ended by
		// its board coming back showing the start.
		return evs, false
	}
	pos, n, ok := t.opts.Setup(t.board.sensed)
	if !ok {
		return evs, false
	}
	t.reset(pos)
	return append(evs, game.SetupDetected{Stamp: game.Stamp{At: at}, Position: pos, N960: n}), true
}

// tryRotation checks whether the board reads as turned around: the rotated
// placement is the record's position, a legal continuation, or a start
// position.
func (t *Tracker) tryRotation(at time.Time, depth int, evs []game.Event) ([]game.Event, bool) {
	r := rotate(t.board.sensed)
	ok := r == t.line.top().place
	if !ok {
		if pth, _ := t.find(t.line.top(), &r, depth); len(pth.moves) > 0 {
			ok = true
		}
	}
	if !ok && t.opts.Setup != nil {
		_, _, ok = t.opts.Setup(r)
	}
	if !ok {
		return evs, false
	}
	t.board.rotated = !t.board.rotated
	t.board.sensed = r
	t.turn.reset(t.line.top().pos.Turn())
	evs = append(evs, game.OrientationChanged{Stamp: game.Stamp{At: at}, Rotated: t.board.rotated})
	t.board.dirty = true
	return t.evaluate(at, depth, evs), true
}

// tryGesture reads both kings put on the centre squares, with nothing else
// changed, as a result signal (DGT convention: kings on e4 and d5, the
// light centre squares, 1-0; on d4 and e5, the dark ones, 0-1; one on each
// colour 1/2-1/2).
func (t *Tracker) tryGesture(at time.Time, evs []game.Event) ([]game.Event, bool) {
	if !t.opts.KingsCentre || t.geo != rules.Chess8x8 {
		return evs, false
	}
	top := &t.line.top().place
	p := &t.board.sensed
	var wk, bk rules.Square = rules.NoSquare, rules.NoSquare
	centre := func(s rules.Square) bool {
		f, r := t.geo.File(s), t.geo.Rank(s)
		return s != rules.NoSquare && (f == 3 || f == 4) && (r == 3 || r == 4)
	}
	// Only kings moved; other pieces may have been cleared off the centre
	// to make room (the real capture johan.inbytes does that).
	for _, s := range p.Diff(top, nil) {
		before, now := top.Sq[s], p.Sq[s]
		if !now.IsEmpty() && now.Kind != rules.King {
			return evs, false
		}
		// A piece cleared off a centre square may have made room for a
		// king (the emulator's ResultGesture sweeps the target squares).
		if !before.IsEmpty() && before.Kind != rules.King && !((now.IsEmpty() || now.Kind == rules.King) && centre(s)) {
			return evs, false
		}
	}
	for s := 0; s < 64; s++ {
		if p.Sq[s].Kind == rules.King {
			if p.Sq[s].Color == rules.White {
				wk = rules.Square(s)
			} else {
				bk = rules.Square(s)
			}
		}
	}
	if !centre(wk) || !centre(bk) {
		return evs, false
	}
	light := func(s rules.Square) bool { return (t.geo.File(s)+t.geo.Rank(s))%2 == 1 }
	res := "1/2-1/2"
	switch {
	case light(wk) && light(bk):
		res = "1-0"
	case !light(wk) && !light(bk):
		res = "0-1"
	}
	evs = t.resolved(at, evs)
	return t.end(at, res, "kings_centre", evs), true
}

// trySetupMismatch reports a set-up that is the start position's pieces
// placed otherwise, before the first move (pieces swapped: a bishop for a
// knight, king and queen): the arbiter has it corrected (FIDE 2018 7.2.1).
// The record keeps the start position; the board is held as reported
// until it shows it (Explained).
func (t *Tracker) trySetupMismatch(at time.Time, evs []game.Event) ([]game.Event, bool) {
	if len(t.line.moves) > 0 || t.state.phase == held {
		return evs, false
	}
	start := &t.line.node(0).place
	if !samePieces(&t.board.sensed, start) {
		return evs, false
	}
	evs = append(evs, game.SetupMismatch{Stamp: game.Stamp{At: at}, Expected: t.line.node(0).pos,
		Squares: t.board.sensed.Diff(start, nil), Placement: t.board.sensed})
	evs = t.to(held, at, evs)
	t.state.setup = true
	return evs, true
}

// samePieces reports whether p has pieces on the squares q has, and the
// same pieces of each colour, placed otherwise on some squares.
func samePieces(p, q *rules.Placement) bool {
	var count [2][16]int
	diff := false
	n := p.Geo.Size()
	for i := 0; i < n; i++ {
		a, b := p.Sq[i], q.Sq[i]
		if a.IsEmpty() != b.IsEmpty() {
			return false
		}
		if a == b {
			continue
		}
		diff = true
		count[a.Color&1][a.Kind]++
		count[b.Color&1][b.Kind]--
	}
	return diff && count == [2][16]int{}
}
