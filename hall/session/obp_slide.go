package session

import (
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Sliding a piece across points (xiangqi law Art. 9.7, its note): the old
// rule that a piece must stop on the first point it touched is abolished;
// the arbiter reminds the player, and a repeat is a technical error. A
// board sees a slide as a piece put down on a point on its way and lifted
// again at once: put on b, lifted from b within the rule set's
// commit_on_place_debounce (a piece that stood still that long was placed,
// and a placed piece is the move, Art. 9.5(b): the tracker's business),
// then put down on another point c. A SlideWatch finds these in the
// square changes an OBP board's lines are translated into, the same way
// in the daemon and in a replay of its recording, and words them for the
// arbiter: the first slide of a player an info reminder, every later one a
// warn technical-error candidate (confirmed by the arbiter's
// apply_penalty with penalty technical_error and the side). Xiangqi games
// only: the FIDE Laws have no such rule.

// slideExpiry: a piece not put down again this long after it left the
// point it slid across is no slide (the hand stopped).
const slideExpiry = 3 * time.Second

// SlideWatch follows one board's square changes for slides.
type SlideWatch struct {
	// window: a put lifted again within it was not placed (the rule set's
	// CommitDebounce); 0: not a xiangqi game, nothing is watched.
	window time.Duration
	game   game.ID
	count  [2]int // slides per side in this game

	from rules.Square // the point of the last lift before a put (NoSquare: none)
	put  struct {     // the last put after a lift from elsewhere
		sq, from rules.Square
		pc       rules.Piece
		at       time.Time
		ok       bool
	}
	via struct { // a put lifted again at once: a slide if the piece lands elsewhere
		sq, from rules.Square
		pc       rules.Piece
		at, left time.Time
		ok       bool
	}
}

// NewSlideWatch watches the games of session s (its rule set decides).
func NewSlideWatch(s *Session) *SlideWatch {
	w := &SlideWatch{from: rules.NoSquare}
	if rs := s.Options().RuleSet; rs.Variant == "xiangqi" {
		w.window = rs.Xiangqi.CommitDebounce
		if w.window <= 0 {
			w.window = 200 * time.Millisecond
		}
	}
	return w
}

// See takes one report of the board (a square change; a whole-board read
// forgets what was on the way; clock readings pass) of the game of rec at
// time at, and returns the alert of a slide it completes.
func (w *SlideWatch) See(at time.Time, r game.Sensed, rec *gamerecord.Record) (game.Alert, bool) {
	if w.window == 0 {
		return game.Alert{}, false
	}
	if g := rec.Info.Game; g != w.game {
		*w = SlideWatch{window: w.window, game: g, from: rules.NoSquare}
	}
	var sc game.SquareChange
	switch r := r.(type) {
	case game.SquareChange:
		sc = r
	case game.FullRead: // the board read whole: what was on the way is gone
		w.from, w.put.ok, w.via.ok = rules.NoSquare, false, false
		return game.Alert{}, false
	case game.ClockFace, game.LeverPress, game.ResultSignal: // readings come between a hand's lifts and puts
		return game.Alert{}, false
	}
	if sc.Piece.IsEmpty() { // a lift
		if w.put.ok && sc.Square == w.put.sq && at.Sub(w.put.at) < w.window {
			w.via.sq, w.via.from, w.via.pc, w.via.at, w.via.left, w.via.ok = w.put.sq, w.put.from, w.put.pc, w.put.at, at, true
		}
		w.put.ok = false
		w.from = sc.Square
		return game.Alert{}, false
	}
	// A put.
	v := w.via
	w.via.ok = false
	w.put.sq, w.put.from, w.put.pc, w.put.at, w.put.ok = sc.Square, w.from, sc.Piece, at, w.from != rules.NoSquare && w.from != sc.Square
	w.from = rules.NoSquare
	if !v.ok || sc.Piece != v.pc || sc.Square == v.sq || at.Sub(v.left) > slideExpiry {
		return game.Alert{}, false
	}
	w.put.ok = false // the slide's landing point is a placement, not a new slide's start
	return w.alert(at, rec, v.pc, v.from, v.sq, sc.Square, v.at, v.left), true
}

// alert words a slide of pc from one point across via to to.
func (w *SlideWatch) alert(at time.Time, rec *gamerecord.Record, pc rules.Piece, from, via, to rules.Square, putAt, left time.Time) game.Alert {
	stood := left.Sub(putAt)
	g, ply := rec.Info.Game, len(rec.Moves)
	geo := rules.Xiangqi9x10
	side := pc.Color
	w.count[side&1]++
	n := w.count[side&1]
	who := map[rules.Color]string{rules.White: "Red", rules.Black: "Black"}[side]
	letter := string(pc.Kind.Letter())
	if side == rules.Black {
		letter = string(pc.Kind.Letter() + 'a' - 'A')
	}
	msg := fmt.Sprintf("%s slid a %s across %s on its way from %s to %s (it stood there %d ms): the arbiter reminds the player (Art. 9.7, note).",
		who, PieceName(geo, pc), geo.Name(via), geo.Name(from), geo.Name(to), stood.Milliseconds())
	sev := game.Info
	prop := map[string]any{"via": geo.Name(via), "from": geo.Name(from), "to": geo.Name(to), "slides": n}
	if n > 1 {
		sev = game.Warn
		prop["penalty"] = "technical_error"
		msg = fmt.Sprintf("%s slid a %s across %s on its way from %s to %s (it stood there %d ms), slide number %d in this game: a repeat is a technical error (Art. 9.7, note; 16.3). "+
			`If the arbiter finds it so: {"cmd":"apply_penalty","penalty":"technical_error","side":"%s"}.`,
			who, PieceName(geo, pc), geo.Name(via), geo.Name(from), geo.Name(to), stood.Milliseconds(), n, side)
	}
	return game.Alert{ID: fmt.Sprintf("%s.%s.%d.%d", g, game.KindTouchMove, ply, at.UnixMilli()), Game: g, Kind: game.KindTouchMove,
		Severity: sev, Article: "9.7", Side: side.String(), Ply: ply, At: game.T(at), Proposal: prop, Message: msg,
		Evidence: []game.Evidence{{At: game.T(putAt), Square: geo.Name(via), Piece: letter, Event: "place"},
			{At: game.T(left), Square: geo.Name(via), Piece: letter, Event: "lift"}, {At: game.T(at), Square: geo.Name(to), Piece: letter, Event: "place"}}}
}

// pieceName names a piece in English: "white knight", "Red horse".
func PieceName(geo rules.Geometry, pc rules.Piece) string {
	if geo != rules.Xiangqi9x10 {
		return pc.Color.String() + " " + pc.Kind.String()
	}
	side := map[rules.Color]string{rules.White: "Red", rules.Black: "Black"}[pc.Color]
	kind := map[rules.Kind]string{rules.King: "general", rules.Advisor: "advisor", rules.Elephant: "elephant", rules.Knight: "horse",
		rules.Rook: "chariot", rules.Cannon: "cannon", rules.Pawn: "soldier"}[pc.Kind]
	return side + " " + kind
}

// Watching reports whether the game's rule set has slides watched (a
// xiangqi game).
func (w *SlideWatch) Watching() bool { return w.window > 0 }
