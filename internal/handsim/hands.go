package handsim

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// hand is a player's hand at work from time at on: each lift and
// placement goes on the board at the hand's time, which then moves on by a
// hand's step.
type hand struct {
	r    Rand
	b    *board
	at   time.Time
	fast bool
}

// step lets a hand's movement pass: 60–250 ms (40–150 ms in blitz).
func (h *hand) step() {
	if h.fast {
		h.at = h.at.Add(between(h.r, 40*time.Millisecond, 150*time.Millisecond))
		return
	}
	h.at = h.at.Add(between(h.r, 60*time.Millisecond, 250*time.Millisecond))
}

func (h *hand) lift(s rules.Square) rules.Piece {
	pc := h.b.cur.Sq[s]
	h.b.set(h.at, s, rules.NoPiece)
	return pc
}

func (h *hand) put(s rules.Square, pc rules.Piece) { h.b.set(h.at, s, pc) }

// adjust: now and then the mover adjusts one of his pieces before the move,
// lifting it and putting it back within 20–120 ms (between two scans, or
// seen for one).
func (h *hand) adjust(pos rules.Position) {
	if !chance(h.r, 8) {
		return
	}
	p := pos.Placement()
	var own []rules.Square
	for s := 0; s < p.Geo.Size(); s++ {
		if pc := p.Sq[s]; !pc.IsEmpty() && pc.Color == pos.Turn() {
			own = append(own, rules.Square(s))
		}
	}
	s := own[h.r.IntN(len(own))]
	pc := h.lift(s)
	h.at = h.at.Add(between(h.r, 20*time.Millisecond, 120*time.Millisecond))
	h.put(s, pc)
	h.step()
}

// play makes move m from pos (leading to next) with the hands, leaving
// h.at at the release of the last piece.
func (h *hand) play(pos, next rules.Position, m rules.Move) {
	before, after := pos.Placement(), next.Placement()
	switch {
	case m.IsCastle():
		h.castle(&before, &after, pos.Turn())
	case m.Flags&rules.FlagEnPassant != 0:
		var victim rules.Square = rules.NoSquare
		for s := 0; s < before.Geo.Size(); s++ {
			if !before.Sq[s].IsEmpty() && after.Sq[s].IsEmpty() && rules.Square(s) != m.From {
				victim = rules.Square(s)
			}
		}
		h.capture(m.From, m.To, victim, after.Sq[m.To], &before)
	default:
		victim := rules.Square(rules.NoSquare)
		if !before.Sq[m.To].IsEmpty() {
			victim = m.To
		}
		h.capture(m.From, m.To, victim, after.Sq[m.To], &before)
	}
}

// capture moves the piece on from to to (final: the piece that ends there,
// a promotion's new piece), taking the piece on victim (NoSquare: none)
// off the board before the mover is lifted, after it, or with the other
// hand at the same time.
func (h *hand) capture(from, to, victim rules.Square, final rules.Piece, before *rules.Placement) {
	order := h.r.IntN(3)
	if victim != rules.NoSquare && order == 0 {
		h.lift(victim)
		h.step()
	}
	pc := h.lift(from)
	if victim != rules.NoSquare && order != 0 {
		if order == 1 {
			h.step()
		} else {
			h.at = h.at.Add(between(h.r, 0, 40*time.Millisecond)) // both hands
		}
		h.lift(victim)
	}
	h.step()
	h.slide(from, to, pc, before)
	if final != pc {
		// Promotion: the pawn put on the last rank and replaced, or the
		// new piece fetched from beside the board.
		if chance(h.r, 50) {
			h.put(to, pc)
			h.step()
			h.lift(to)
			h.step()
		} else {
			h.at = h.at.Add(between(h.r, 300*time.Millisecond, 2*time.Second))
		}
	}
	h.put(to, final)
}

// slide: a bishop, rook, queen or cannon is now and then slid, resting a moment on
// one or two empty squares on its way.
func (h *hand) slide(from, to rules.Square, pc rules.Piece, before *rules.Placement) {
	switch pc.Kind {
	case rules.Bishop, rules.Rook, rules.Queen, rules.Cannon:
	default:
		return
	}
	if !chance(h.r, 30) {
		return
	}
	geo := before.Geo
	df, dr := sign(geo.File(to)-geo.File(from)), sign(geo.Rank(to)-geo.Rank(from))
	f, r := geo.File(from)+df, geo.Rank(from)+dr
	rests := 1 + h.r.IntN(2)
	for s := geo.Square(f, r); s != to && rests > 0; s = geo.Square(f, r) {
		if before.Sq[s].IsEmpty() && chance(h.r, 60) {
			h.put(s, pc)
			h.at = h.at.Add(between(h.r, 20*time.Millisecond, 300*time.Millisecond))
			h.lift(s)
			h.step()
			rests--
		}
		f, r = f+df, r+dr
	}
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// castle moves king and rook: king first (now and then put down on the
// square it passes), rook first, or both at once with two hands.
func (h *hand) castle(before, after *rules.Placement, side rules.Color) {
	king := rules.Piece{Color: side, Kind: rules.King}
	rook := rules.Piece{Color: side, Kind: rules.Rook}
	kf, kt, rf, rt := find(before, after, king), find(after, before, king), find(before, after, rook), find(after, before, rook)
	switch h.r.IntN(3) {
	case 0: // king first
		h.lift(kf)
		h.step()
		if mid := rules.Square((int(kf) + int(kt)) / 2); chance(h.r, 40) && mid != kf && mid != kt && before.Sq[mid].IsEmpty() {
			h.put(mid, king)
			h.at = h.at.Add(between(h.r, 30*time.Millisecond, 400*time.Millisecond))
			h.lift(mid)
			h.step()
		}
		h.put(kt, king)
		h.step()
		h.lift(rf)
		h.step()
		h.put(rt, rook)
	case 1: // rook first
		h.lift(rf)
		h.step()
		h.put(rt, rook)
		h.step()
		h.lift(kf)
		h.step()
		h.put(kt, king)
	default: // both hands
		h.lift(kf)
		h.at = h.at.Add(between(h.r, 0, 60*time.Millisecond))
		h.lift(rf)
		h.step()
		h.put(kt, king)
		h.at = h.at.Add(between(h.r, 0, 60*time.Millisecond))
		h.put(rt, rook)
	}
}

// find returns the square holding pc in p but not in q.
func find(p, q *rules.Placement, pc rules.Piece) rules.Square {
	for s := 0; s < p.Geo.Size(); s++ {
		if p.Sq[s] == pc && q.Sq[s] != pc {
			return rules.Square(s)
		}
	}
	return rules.NoSquare
}
