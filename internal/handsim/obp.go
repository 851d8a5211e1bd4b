package handsim

import (
	"slices"
	"time"

	"github.com/dgtbridge/dgtbridge/obp"
	"github.com/dgtbridge/dgtbridge/rules"
)

// Sent is a line an Open Board Protocol board sent, as the reader hears
// it at At.
type Sent struct {
	At  time.Time
	Msg obp.Message
}

// obpLines returns what an OBP board sends until end: an L line at each
// lift and a P line at each put, at once and in the order the hands made
// them (a P of an occupancy board says "?"), and the clock's C line at
// the start, at every press and once a second while a clock runs (the
// first player's time first, in milliseconds). Each line is heard 2–20 ms
// after what it reports, none before the one sent before it. With noise,
// a sensor now and then reads a standing piece lifted and put back within
// 5–30 ms.
func (b *board) obpLines(r Rand, first rules.Color, end time.Time, occupancy, noise bool) []Sent {
	type line struct {
		at  time.Time
		msg obp.Message
	}
	var out []line
	put := func(at time.Time, s rules.Square, pc rules.Piece) {
		m := obp.Put{Square: s, Piece: pc}
		if occupancy {
			m = obp.Put{Square: s, Unidentified: true}
		}
		out = append(out, line{at, m})
	}
	for _, c := range b.seq {
		if c.pc.IsEmpty() {
			out = append(out, line{c.at, obp.Lift{Square: c.sq}})
		} else {
			put(c.at, c.sq, c.pc)
		}
	}
	if noise && len(b.seq) > 0 {
		var chattered []report // the chatters so far: a point's own never overlap
		for range 1 + r.IntN(3) {
			c := b.seq[r.IntN(len(b.seq))]
			if c.pc.IsEmpty() {
				continue
			}
			// The piece just put down chatters once it stands.
			at := c.at.Add(between(r, 200*time.Millisecond, time.Second))
			if !b.stands(c.sq, c.at, at.Add(40*time.Millisecond)) || chatters(chattered, c.sq, at) {
				continue
			}
			chattered = append(chattered, report{at: at, sq: c.sq})
			out = append(out, line{at, obp.Lift{Square: c.sq}})
			put(at.Add(between(r, 5*time.Millisecond, 30*time.Millisecond)), c.sq, c.pc)
		}
	}
	clock := func(at time.Time) {
		left, running := b.clockAt(first, at.Add(time.Nanosecond)) // a press at at counts
		m := obp.Clock{First: left[0], Second: left[1], Running: rules.White}
		if running == 1 {
			m.Running = rules.Black
		}
		out = append(out, line{at, m})
	}
	clock(b.t0)
	tick := b.t0.Add(time.Second)
	for _, p := range b.presses {
		for ; tick.Before(p); tick = tick.Add(time.Second) {
			clock(tick)
		}
		clock(p)
	}
	for ; tick.Before(end); tick = tick.Add(time.Second) {
		clock(tick)
	}
	slices.SortStableFunc(out, func(x, y line) int { return x.at.Compare(y.at) })
	sent := make([]Sent, len(out))
	var last time.Time
	for i, l := range out {
		at := l.at.Add(between(r, 2*time.Millisecond, 20*time.Millisecond))
		if !at.After(last) {
			at = last.Add(time.Millisecond)
		}
		sent[i], last = Sent{At: at, Msg: l.msg}, at
	}
	return sent
}

// chatters reports whether a chatter of point s begun at one of at's
// neighbours in time (within 40 ms: a chatter lasts 30 ms at most) is
// among cs: a sensor chattering twice at once would report two lifts
// without a put between, which no board sends.
func chatters(cs []report, s rules.Square, at time.Time) bool {
	for _, c := range cs {
		if c.sq == s && c.at.Sub(at) < 40*time.Millisecond && at.Sub(c.at) < 40*time.Millisecond {
			return true
		}
	}
	return false
}

// stands reports whether the piece put on s at from stands there
// untouched until to.
func (b *board) stands(s rules.Square, from, to time.Time) bool {
	for _, c := range b.changes[s] {
		if c.at.After(from) && !c.at.After(to) {
			return false
		}
	}
	return true
}
