// Package obpfeed translates Open Board Protocol lines into the board
// tracker's protocol-free vocabulary ([game.Sensed]), as package
// board/dgtfeed does for DGT boards: a lift or a put becomes a square
// change, the whole board a full read, the clock line a clock face. The
// tracker never sees an OBP line.
//
// A [Translator] keeps what the board shows, so that a board that senses
// only occupancy ("?" for the piece) can still be followed: a piece put
// down is the one in the hand — the capturer when the hand also holds the
// piece lifted from that point, else the last piece lifted — and a full
// read takes the pieces it knows from what it followed. Boards that
// identify pieces need none of that.
package obpfeed

import (
	"errors"
	"fmt"

	"github.com/dgtbridge/dgtbridge/obp"
	"github.com/dgtbridge/dgtbridge/obp/link"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// ErrUnidentified: an occupancy board put a piece down, or showed an
// occupied point, that the translator cannot name (nothing was lifted, or
// the point was never seen occupied). The board's next full read with
// pieces it can name, or the arbiter, must settle it.
var ErrUnidentified = errors.New("obpfeed: piece not identified")

type lifted struct {
	from  rules.Square
	piece rules.Piece
	// origin is where the piece stood before this move: from, or, for a
	// piece lifted off a point it rested on, the point it came from.
	origin rules.Square
}

// Translator turns one board's OBP lines into sensor reports. It is not
// safe for concurrent use: one per board, on the goroutine reading its
// link.
type Translator struct {
	board rules.Placement
	hand  []lifted
	// moved is the colour of the piece an occupancy board last put down
	// on a point it was not lifted from, leaving nothing in the hand (the
	// side that moved last), or NoColor before the first (SetTurn).
	moved rules.Color
	// canTake says whether the piece lifted from a point may take the
	// piece on another (SetCanTake; nil: any may).
	canTake func(from, to rules.Square) bool
	// rests holds, for each point a piece rests on during a move (put
	// down while a piece it captures is still in the hand), the point it
	// came from.
	rests map[rules.Square]rules.Square
}

// New returns a translator for a board showing pl (its first full read,
// e.g. link.Connected's Board).
func New(pl rules.Placement) *Translator { return &Translator{board: pl, moved: rules.NoColor} }

// SetTurn tells the translator which side is to move (the game's record
// when the board connects): the other side counts as the one that moved
// last, until a piece put down says otherwise (see fromHand).
func (t *Translator) SetTurn(c rules.Color) { t.moved = c.Other() }

// SetCanTake gives the translator the game's rules: f reports whether
// the piece lifted from point from may take the piece standing on point
// to, true when the game cannot tell (the game's position not there
// yet). An occupancy board's piece put back on the point it was lifted
// from while a piece of the other side is in the hand is then read as a
// capture by that piece only if it may take there: otherwise it is the
// piece put back (a sensor chattering, a brush).
func (t *Translator) SetCanTake(f func(from, to rules.Square) bool) { t.canTake = f }

// CanTake answers SetCanTake's question from the game's position pos and
// the placement the board shows (Shown): no only when the piece on from
// cannot go to to by its way of moving, or its way is blocked. When pos
// has the other side to move (the game has not taken that side's last
// move in yet), the question goes to the position after the move of
// pos's that shows; yes whenever nothing can tell (no such move, no piece
// of the mover's on from).
func CanTake(pos rules.Position, shown rules.Placement, from, to rules.Square) bool {
	ok, known := canTake(pos, from, to)
	if known {
		return ok
	}
	for _, m := range pos.LegalMoves(nil) {
		if next, err := pos.Play(m); err == nil && next.Placement() == shown {
			ok, _ := canTake(next, from, to)
			return ok
		}
	}
	return true
}

// canTake reports whether the piece on from may go to to in pos by its way
// of moving, and whether pos can tell (not when the piece is of the side
// not to move).
func canTake(pos rules.Position, from, to rules.Square) (ok, known bool) {
	var ie *rules.IllegalMoveError
	if err := pos.Check(rules.Move{From: from, To: to}); errors.As(err, &ie) {
		switch ie.Reason {
		case rules.ReasonBadGeometry, rules.ReasonBlocked:
			return false, true
		case rules.ReasonNotYourTurn:
			return true, false
		}
	}
	return true, true
}

// Shown returns what the board showed before the pieces now in the hand
// were lifted: the translator's placement with each back on the point it
// was lifted from.
func (t *Translator) Shown() rules.Placement {
	pl := t.board
	for _, l := range t.hand {
		pl.Sq[l.from] = l.piece
	}
	return pl
}

// Placement returns what the translator believes stands on the board.
func (t *Translator) Placement() rules.Placement { return t.board }

// Event appends the reports of a link event: Connected gives a full read
// and the clock face, Message what its line reports, other events
// nothing.
func (t *Translator) Event(dst []game.Sensed, ev link.Event) ([]game.Sensed, error) {
	switch ev := ev.(type) {
	case link.Connected:
		dst, err := t.Append(dst, ev.Board)
		if err != nil {
			return dst, err
		}
		return t.Append(dst, ev.Clock)
	case link.Message:
		return t.Append(dst, ev.Msg)
	}
	return dst, nil
}

// Append appends to dst what message m reports and returns the extended
// slice: Lift and Put a SquareChange, Board a FullRead, Clock a
// ClockFace (the first player's time on the left display, as OBP reports
// times by player); Ident, Fault and Unknown report nothing about the
// position. An unidentified piece gives ErrUnidentified (what could be
// translated is appended).
func (t *Translator) Append(dst []game.Sensed, m obp.Message) ([]game.Sensed, error) {
	switch m := m.(type) {
	case obp.Lift:
		pc := t.board.At(m.Square)
		t.board.Sq[m.Square] = rules.NoPiece
		if !pc.IsEmpty() {
			origin := m.Square
			if o, ok := t.rests[m.Square]; ok {
				origin = o
			}
			t.hand = append(t.hand, lifted{m.Square, pc, origin})
		}
		return append(dst, game.SquareChange{Square: m.Square, Piece: rules.NoPiece}), nil
	case obp.Put:
		pc := m.Piece
		if m.Unidentified {
			var ok bool
			if pc, ok = t.fromHand(m.Square); !ok {
				return dst, fmt.Errorf("%w: put on %s with nothing in the hand", ErrUnidentified, t.board.Geo.Name(m.Square))
			}
		} else {
			t.drop(pc)
		}
		t.board.Sq[m.Square] = pc
		return append(dst, game.SquareChange{Square: m.Square, Piece: pc}), nil
	case obp.Board:
		pl := m.Placement
		var err error
		for _, s := range m.Unidentified {
			switch {
			case !t.board.At(s).IsEmpty():
				pl.Sq[s] = t.board.At(s)
			case len(t.hand) > 0:
				pl.Sq[s] = t.hand[len(t.hand)-1].piece
				t.hand = t.hand[:len(t.hand)-1]
			default:
				err = fmt.Errorf("%w: %s is occupied by a piece never seen there", ErrUnidentified, pl.Geo.Name(s))
			}
		}
		t.board, t.hand = pl, nil
		clear(t.rests)
		return append(dst, game.FullRead{Placement: pl}), err
	case obp.Clock:
		if m.None {
			return append(dst, game.ClockFace{Absent: true}), nil
		}
		f := game.ClockFace{Left: m.First, Right: m.Second, LeftFlag: m.First <= 0, RightFlag: m.Second <= 0, LeftIs: rules.White}
		switch m.Running {
		case rules.White:
			f.Running = game.LeftDisplay
		case rules.Black:
			f.Running = game.RightDisplay
		}
		return append(dst, f), nil
	}
	return dst, nil
}

// fromHand takes the piece put down on s out of the hand. When the hand
// holds the piece lifted from s, this is that piece put back when it is
// of the side to move (the side that did not move last), when nothing
// else is in the hand, or when no piece of the other colour in the hand
// may take there (SetCanTake), else a capture (the capturer is the last
// piece lifted of the other colour that may take there); otherwise it is the last piece lifted of the side
// that did not move last (a piece slid across a point, resting there
// while the piece it captures is already off the board: the captured
// piece, lifted after it, is not what rests), or the last piece lifted
// when the hand holds none of that side's. The piece lifted from s then
// leaves the hand either way: a captured piece is set aside, never put
// down again.
func (t *Translator) fromHand(s rules.Square) (rules.Piece, bool) {
	if len(t.hand) == 0 {
		return rules.NoPiece, false
	}
	at := -1
	for i, l := range t.hand {
		if l.from == s {
			at = i
		}
	}
	pick := -1
	if at >= 0 && t.moved != rules.NoColor && t.hand[at].piece.Color != t.moved {
		pick = at // the mover's own piece put back (or its sensor chattering): he captures none of his own
	}
	for j := len(t.hand) - 1; pick < 0 && at < 0 && t.moved != rules.NoColor && j >= 0; j-- {
		if t.hand[j].piece.Color != t.moved {
			pick = j
			break
		}
	}
	for j := len(t.hand) - 1; pick < 0 && j >= 0; j-- {
		if j == at {
			continue
		}
		if at >= 0 && t.canTake != nil && !t.canTake(t.hand[j].origin, s) {
			continue // it cannot take there (a sensor chattering under it, or a piece adjusted)
		}
		if at < 0 || t.hand[j].piece.Color != t.hand[at].piece.Color {
			pick = j
			break
		}
	}
	if pick < 0 {
		pick = at // no capture the rules allow: the piece put back
	}
	if pick < 0 {
		return rules.NoPiece, false
	}
	pc, origin := t.hand[pick].piece, t.hand[pick].origin
	keep := t.hand[:0]
	for i, l := range t.hand {
		if i != pick && l.from != s {
			keep = append(keep, l)
		}
	}
	t.hand = keep
	if pick != at && (at >= 0 || len(t.hand) == 0) {
		// A move ended: a capture (no rest lands on a piece), or the hand
		// emptied (a rest on the way leaves a captured piece in it). A
		// piece whose sensor chatters may still be up after a capture.
		t.moved = pc.Color
	}
	switch {
	case len(t.hand) == 0 || pick != at && at >= 0:
		clear(t.rests) // the move ended
	case pick != at:
		if t.rests == nil {
			t.rests = map[rules.Square]rules.Square{}
		}
		t.rests[s] = origin // a rest on the way
	}
	return pc, true
}

// drop takes an identified piece put down out of the hand (the last one
// lifted of that piece), so that the hand holds only pieces still up.
func (t *Translator) drop(pc rules.Piece) {
	for i := len(t.hand) - 1; i >= 0; i-- {
		if t.hand[i].piece == pc {
			t.hand = append(t.hand[:i], t.hand[i+1:]...)
			return
		}
	}
}

// Identify names the piece standing on s, as the arbiter saw it (the
// answer to ErrUnidentified: a put or a point the translator could not
// name). The translator's board takes it, a piece of that kind still in
// the hand leaves it, and the returned square change tells the tracker.
func (t *Translator) Identify(s rules.Square, pc rules.Piece) game.SquareChange {
	if t.board.Geo.Contains(s) {
		t.board.Sq[s] = pc
	}
	t.drop(pc)
	return game.SquareChange{Square: s, Piece: pc}
}
