package emu

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/rules"
)

// Habit is a set of the habits [Hands] used on one ply.
type Habit uint16

// Habits, as recorded in [Ply.Habits].
const (
	HabitFastReply       Habit = 1 << iota // started 30–180 ms after the opponent's press
	HabitNudge                             // another piece lifted and put back between two scans
	HabitSlide                             // the piece slid across the squares in between
	HabitCaptureFirst                      // captured piece off before the mover was lifted
	HabitCaptureSwap                       // captured piece swept off as the mover landed
	HabitCaptureBoth                       // captured piece and mover lifted at once
	HabitEnPassantLate                     // the pawn taken en passant removed after the capturing pawn landed
	HabitRookFirst                         // castling rook first
	HabitCastleBoth                        // castling with both hands at once
	HabitKingHold                          // Chess960 castling with the king held in the hand
	HabitPromoteOnSquare                   // the pawn put on its promotion square, then exchanged
	HabitPromoLate                         // the promotion piece put down seconds after the pawn left
)

var habitNames = [...]string{"fast-reply", "nudge", "slide", "capture-first", "capture-swap", "capture-both",
	"ep-late", "rook-first", "castle-both", "king-hold", "promote-on-square", "promo-late"}

// String lists the habits, e.g. "slide+capture-swap"; "" for none.
func (h Habit) String() string {
	var parts []string
	for i, n := range habitNames {
		if h&(1<<i) != 0 {
			parts = append(parts, n)
		}
	}
	return strings.Join(parts, "+")
}

// Ply is what the hands did for one ply, for tests that check a tracker
// against the truth: when the move was touched, finished and pressed, and
// when the board's scan had caught up with it.
type Ply struct {
	Ply  int // 1-based
	Move rules.Move
	// Touch is the first lift or placement of the move; Release the last
	// (the move is physically complete).
	Touch, Release time.Time
	// Press is the mover's lever press; zero without a clock.
	Press time.Time
	// Settled is when the scan has visited every square the move touched
	// since its last touch: from then on the board's reports describe the
	// position after the move. A Press before Settled is the lever beating
	// the board.
	Settled time.Time
	Habits  Habit
}

// scripter builds the script of a game for one board's scan.
type scripter struct {
	h      Hands
	r      *rand.Rand
	scan   Scan
	orient dgt.Orientation
	from   time.Duration // the script's zero, relative to power-up
	s      Script
	last   map[rules.Square]time.Duration // last touch per square in the current ply
}

func (w *scripter) pick(p float64) bool { return p > 0 && w.r.Float64() < p }

func (w *scripter) add(a Action) {
	w.s = append(w.s, a)
	if a.Kind == Lift || a.Kind == Place {
		if t, ok := w.last[a.Square]; !ok || a.At > t {
			w.last[a.Square] = a.At
		}
	}
}

func (w *scripter) lift(at time.Duration, sq rules.Square) {
	w.add(Action{At: at, Kind: Lift, Square: sq})
}

func (w *scripter) place(at time.Duration, sq rules.Square, pc rules.Piece) {
	w.add(Action{At: at, Kind: Place, Square: sq, Piece: pc})
}

// settled returns when the scan has seen every square touched in the ply.
func (w *scripter) settled() time.Duration {
	var t time.Duration
	for sq, at := range w.last {
		f, ok := dgt.FieldOf(sq, w.orient)
		if !ok {
			continue
		}
		t = max(t, w.scan.Next(f, w.from+at)-w.from)
	}
	return t
}

// plyTimes is a [Ply] whose times are script offsets.
type plyTimes struct {
	ply                            int
	move                           rules.Move
	touch, release, press, settled time.Duration
	pressed                        bool
	habits                         Habit
}

// at returns the Ply with the script's zero at zero.
func (p plyTimes) at(zero time.Time) Ply {
	out := Ply{Ply: p.ply, Move: p.move, Touch: zero.Add(p.touch), Release: zero.Add(p.release),
		Settled: zero.Add(p.settled), Habits: p.habits}
	if p.pressed {
		out.Press = zero.Add(p.press)
	}
	return out
}

// game scripts a whole game starting at lead: the first press (the
// opponent of the first mover starting the clock), then per ply a think,
// the move, the press.
func (w *scripter) game(start rules.Position, moves []rules.Move, white Side, noClock bool, lead time.Duration) ([]plyTimes, error) {
	plies := make([]plyTimes, 0, len(moves))
	t := lead
	if !noClock {
		w.add(Action{At: t, Kind: Press, Side: sideOf(start.Turn().Other(), white)})
	}
	pos := start
	w.last = map[rules.Square]time.Duration{}
	for i, m := range moves {
		pt, err := w.ply(pos, m, i+1, t, 0, white, noClock)
		if err != nil {
			return nil, err
		}
		plies = append(plies, pt)
		t = pt.release
		if pt.pressed {
			t = pt.press
		}
		if pos, err = pos.Play(m); err != nil {
			return nil, fmt.Errorf("emu: ply %d: %w", i+1, err)
		}
	}
	slices.SortStableFunc(w.s, func(a, b Action) int { return cmpDur(a.At, b.At) })
	return plies, nil
}

// ply scripts move m of ply n in pos, the hands free from t on: a think
// (or a fast reply), the move, not touched before notBefore, and the
// press unless noClock.
func (w *scripter) ply(pos rules.Position, m rules.Move, n int, t, notBefore time.Duration, white Side, noClock bool) (plyTimes, error) {
	p, err := Expand(pos, m)
	if err != nil {
		return plyTimes{}, fmt.Errorf("emu: ply %d: %w", n, err)
	}
	var hb Habit
	if w.pick(w.h.FastReply) {
		hb |= HabitFastReply
		t += w.h.FastReplyTime.draw(w.r)
	} else {
		think := w.h.Think.draw(w.r)
		if w.pick(w.h.Nudge) && w.nudge(pos, p, t, t+think) {
			hb |= HabitNudge
		}
		t += think
	}
	t = max(t, notBefore)
	clear(w.last)
	pt := plyTimes{ply: n, move: m, touch: t}
	release, mh := w.move(p, pos.Variant() == "chess960", t)
	pt.release, pt.habits = release, hb|mh
	pt.settled = w.settled()
	if !noClock {
		pt.press, pt.pressed = release+w.h.Press.draw(w.r), true
		w.add(Action{At: pt.press, Kind: Press, Side: sideOf(pos.Turn(), white)})
	}
	return pt, nil
}

func cmpDur(a, b time.Duration) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
