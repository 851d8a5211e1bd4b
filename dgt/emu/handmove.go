package emu

import (
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/rules"
)

// This file turns one move into the lifts and placements of [Hands]; see
// handscript.go for the game around it.

// Capture orders drawn per capture.
type captureOrder uint8

const (
	capturePlain captureOrder = iota // mover lifted, captured piece off, mover down
	captureFirst
	captureSwap
	captureBoth
	captureLate // en passant: the captured pawn off after the mover landed
)

// order draws the capture order of a capture (en passant: ep).
func (w *scripter) order(ep bool) (captureOrder, Habit) {
	h := w.h
	u := w.r.Float64()
	switch {
	case u < h.CaptureFirst:
		return captureFirst, HabitCaptureFirst
	case !ep && u < h.CaptureFirst+h.CaptureSwap:
		return captureSwap, HabitCaptureSwap
	case ep && u < h.CaptureFirst+h.EnPassantLate:
		return captureLate, HabitEnPassantLate
	case u < h.CaptureFirst+h.CaptureSwap+h.CaptureBoth:
		return captureBoth, HabitCaptureBoth
	}
	return capturePlain, 0
}

// move scripts p starting at t and returns when the last piece was put
// down (or taken off) and the habits used.
func (w *scripter) move(p Physical, chess960 bool, t time.Duration) (time.Duration, Habit) {
	if p.RookFrom != rules.NoSquare {
		return w.castle(p, chess960, t)
	}
	if p.From == rules.NoSquare { // a drop: the piece comes from the hand
		w.place(t, p.To, p.Placed)
		return t, 0
	}
	if p.To == rules.NoSquare { // a lift off the board: the piece goes aside
		w.lift(t, p.From)
		return t, 0
	}
	var hb Habit
	ep := p.Captured != rules.NoSquare && p.Captured != p.To
	order := capturePlain
	if p.Captured != rules.NoSquare {
		var oh Habit
		order, oh = w.order(ep)
		hb |= oh
	}
	lifted := t
	switch order {
	case captureFirst:
		w.lift(t, p.Captured)
		lifted = t + handGap.draw(w.r)
		w.lift(lifted, p.From)
	case captureBoth:
		w.lift(t, p.Captured)
		lifted = t + bothHandsTime.draw(w.r)
		w.lift(lifted, p.From)
	default:
		w.lift(t, p.From)
	}
	arrive, slid := w.travel(p, lifted)
	if slid {
		hb |= HabitSlide
	}
	if order == capturePlain && p.Captured != rules.NoSquare {
		w.lift(lifted+(arrive-lifted)/2, p.Captured)
	}
	if order == captureSwap {
		w.lift(arrive, p.To)
		arrive += captureSwapTime.draw(w.r)
	}
	end := w.land(p, arrive, &hb)
	if order == captureLate {
		end += w.h.EnPassantDelay.draw(w.r)
		w.lift(end, p.Captured)
	}
	return end, hb
}

// travel moves the lifted piece from its square (lifted at t) to above
// its destination: held in the hand for Hold, or slid across the squares
// in between. It returns the time of arrival.
func (w *scripter) travel(p Physical, t time.Duration) (time.Duration, bool) {
	path := between(p.From, p.To)
	slidable := len(path) > 0 && (p.Piece.Kind == rules.Rook || p.Piece.Kind == rules.Bishop ||
		p.Piece.Kind == rules.Queen || p.Piece.Kind == rules.Pawn)
	if !slidable || !w.pick(w.h.Slide) {
		return t + w.h.Hold.draw(w.r), false
	}
	for _, sq := range path {
		w.place(t, sq, p.Piece)
		t += w.h.SlideDwell.draw(w.r)
		w.lift(t, sq)
	}
	return t, true
}

// land puts the piece down on its destination at t; a promotion fetches
// the new piece from beside the board first. It returns when the last
// piece was put down.
func (w *scripter) land(p Physical, t time.Duration, hb *Habit) time.Duration {
	if p.Placed == p.Piece {
		w.place(t, p.To, p.Placed)
		return t
	}
	*hb |= HabitPromoLate
	if w.pick(w.h.PromoteOnSquare) {
		*hb |= HabitPromoteOnSquare
		w.place(t, p.To, p.Piece)
		t += Span{300 * time.Millisecond, 1500 * time.Millisecond}.draw(w.r)
		w.lift(t, p.To)
	}
	t += w.h.PromoFetch.draw(w.r)
	w.place(t, p.To, p.Placed)
	return t
}

// castle scripts king and rook. The king is the piece From→To, the rook
// RookFrom→RookTo; in Chess960 either may stand still, and one's
// destination may be the other's origin.
func (w *scripter) castle(p Physical, chess960 bool, t time.Duration) (time.Duration, Habit) {
	type piece struct {
		from, to rules.Square
		pc       rules.Piece
	}
	k := piece{p.From, p.To, p.Piece}
	r := piece{p.RookFrom, p.RookTo, p.Rook}
	kMoves, rMoves := k.from != k.to, r.from != r.to
	switch {
	case chess960 && kMoves && w.pick(w.h.KingHold):
		w.lift(t, k.from)
		up := t
		if rMoves {
			t += handGap.draw(w.r)
			w.lift(t, r.from)
			t += w.h.Hold.draw(w.r)
			w.place(t, r.to, r.pc)
		}
		t = max(t+handGap.draw(w.r), up+w.h.KingHoldTime.draw(w.r))
		w.place(t, k.to, k.pc)
		return t, HabitKingHold
	case kMoves && rMoves && w.pick(w.h.CastleBoth):
		w.lift(t, k.from)
		t += bothHandsTime.draw(w.r)
		w.lift(t, r.from)
		t += w.h.Hold.draw(w.r)
		w.place(t, k.to, k.pc)
		t += bothHandsTime.draw(w.r)
		w.place(t, r.to, r.pc)
		return t, HabitCastleBoth
	}
	var hb Habit
	first, second := k, r
	if rMoves && kMoves && w.pick(w.h.RookFirst) {
		first, second, hb = r, k, HabitRookFirst
	}
	if first.from == first.to {
		first, second = second, first
	}
	if second.from == second.to { // only one piece moves
		w.lift(t, first.from)
		t += w.h.Hold.draw(w.r)
		w.place(t, first.to, first.pc)
		return t, hb
	}
	w.lift(t, first.from)
	if first.to == second.from {
		// The first piece's destination is occupied by the second: lift
		// both, then put both down.
		t += handGap.draw(w.r)
		w.lift(t, second.from)
		t += w.h.Hold.draw(w.r)
		w.place(t, first.to, first.pc)
		t += handGap.draw(w.r)
		w.place(t, second.to, second.pc)
		return t, hb
	}
	t += w.h.Hold.draw(w.r)
	w.place(t, first.to, first.pc)
	t += handGap.draw(w.r)
	w.lift(t, second.from)
	t += w.h.Hold.draw(w.r)
	w.place(t, second.to, second.pc)
	return t, hb
}

// nudge scripts, within [from, until), one of the mover's pieces not
// taking part in p lifted and put back between two visits of its field,
// so the board never reports it. It returns false when the think is too
// short or no piece qualifies.
func (w *scripter) nudge(pos rules.Position, p Physical, from, until time.Duration) bool {
	period := w.scan.Period
	lo, hi := from+100*time.Millisecond, until-2*period-100*time.Millisecond
	if hi <= lo {
		return false
	}
	involved := []rules.Square{p.From, p.To, p.Captured, p.RookFrom, p.RookTo}
	var own []rules.Square
	pl := pos.Placement()
	for sq, pc := range pl.Sq {
		s := rules.Square(sq)
		if !pc.IsEmpty() && pc.Color == pos.Turn() && !containsSq(involved, s) {
			own = append(own, s)
		}
	}
	if len(own) == 0 {
		return false
	}
	sq := own[w.r.IntN(len(own))]
	f, ok := dgt.FieldOf(sq, w.orient)
	if !ok {
		return false
	}
	at := lo + Span{0, hi - lo}.draw(w.r)
	visit := w.scan.Next(f, w.from+at) - w.from
	up := visit + 2*time.Millisecond
	back := up + min(w.h.NudgeTime.draw(w.r), period-10*time.Millisecond)
	w.lift(up, sq)
	w.place(back, sq, pl.Sq[sq])
	return true
}

func containsSq(s []rules.Square, x rules.Square) bool {
	for _, y := range s {
		if y == x && x != rules.NoSquare {
			return true
		}
	}
	return false
}
