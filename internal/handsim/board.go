package handsim

import (
	"slices"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// board is the physical board: what stands on each square, change by
// change, and the lever presses.
type board struct {
	start   rules.Placement
	cur     rules.Placement
	changes [][]change // per square, in time order
	seq     []report   // every change in the order the hands made them
	presses []time.Time
	t0      time.Time
	// clock is each side's time at the start (zero: 10 minutes).
	clock time.Duration
}

// startTime is each side's time on the clock at the start.
func (b *board) startTime() time.Duration {
	if b.clock == 0 {
		return 10 * time.Minute
	}
	return b.clock
}

type change struct {
	at time.Time
	pc rules.Piece
}

func newBoard(start rules.Placement, t0 time.Time) *board {
	return &board{start: start, cur: start, changes: make([][]change, start.Geo.Size()), t0: t0}
}

// set puts pc on s at time at (rules.NoPiece: the square is emptied).
func (b *board) set(at time.Time, s rules.Square, pc rules.Piece) {
	b.cur.Sq[s] = pc
	b.changes[s] = append(b.changes[s], change{at: at, pc: pc})
	b.seq = append(b.seq, report{at: at, sq: s, pc: pc})
}

// report is a square change the board reported.
type report struct {
	at time.Time
	sq rules.Square
	pc rules.Piece
}

// scan runs the board's scanner from t0 to end: square i is visited at
// phase + k·period + i·period/size, and reported when the visit finds it
// other than last reported. noise visits (chosen by r) read an occupied
// square empty; their times are returned.
func (b *board) scan(r Rand, period, phase time.Duration, end time.Time, noise int) ([]report, []time.Time) {
	size := b.start.Geo.Size()
	scans := int(end.Sub(b.t0)/period) + 1
	type visit struct{ k, sq int }
	var misread []visit
	for range noise {
		misread = append(misread, visit{k: 1 + r.IntN(max(1, scans-1)), sq: r.IntN(size)})
	}
	shown := b.start
	next := make([]int, size) // per square, the first change not yet in effect
	cur := b.start
	var out []report
	var noiseAt []time.Time
	for k := 0; k < scans; k++ {
		for i := 0; i < size; i++ {
			at := b.t0.Add(phase + time.Duration(k)*period + time.Duration(i)*period/time.Duration(size))
			if at.After(end) {
				return out, noiseAt
			}
			cs := b.changes[i]
			for next[i] < len(cs) && !cs[next[i]].at.After(at) {
				cur.Sq[i] = cs[next[i]].pc
				next[i]++
			}
			seen := cur.Sq[i]
			if !seen.IsEmpty() && slices.Contains(misread, visit{k: k, sq: i}) {
				seen = rules.NoPiece
				noiseAt = append(noiseAt, at)
			}
			if seen != shown.Sq[i] {
				shown.Sq[i] = seen
				out = append(out, report{at: at, sq: rules.Square(i), pc: seen})
			}
		}
	}
	return out, noiseAt
}

// faces returns the clock's faces: one at the start, one at each press,
// and one a second between (White on the left display, 10 minutes each
// unless the board's clock says otherwise).
func (b *board) faces(t0, end time.Time, first rules.Color) []Input {
	left := [2]time.Duration{b.startTime(), b.startTime()} // White, Black
	running := 0
	if first == rules.Black {
		running = 1
	}
	face := func(at time.Time) Input {
		f := game.ClockFace{Left: left[0], Right: left[1], Running: game.LeftDisplay, LeftIs: rules.NoColor}
		if running == 1 {
			f.Running = game.RightDisplay
		}
		return Input{At: at, Sensed: f}
	}
	var out []Input
	last := t0
	out = append(out, face(t0))
	tick := t0.Add(time.Second)
	for _, p := range b.presses {
		for ; tick.Before(p); tick = tick.Add(time.Second) {
			left[running] -= tick.Sub(last)
			last = tick
			out = append(out, face(tick))
		}
		left[running] -= p.Sub(last)
		last = p
		running = 1 - running
		out = append(out, face(p))
	}
	for ; tick.Before(end); tick = tick.Add(time.Second) {
		left[running] -= tick.Sub(last)
		last = tick
		out = append(out, face(tick))
	}
	return out
}

// merge returns the square reports and the clock faces as inputs in time
// order (a report before a face of the same instant).
func merge(reports []report, faces []Input) []Input {
	out := make([]Input, 0, len(reports)+len(faces))
	j := 0
	for _, rp := range reports {
		for j < len(faces) && faces[j].At.Before(rp.at) {
			out = append(out, faces[j])
			j++
		}
		out = append(out, Input{At: rp.at, Sensed: game.SquareChange{Square: rp.sq, Piece: rp.pc}})
	}
	return append(out, faces[j:]...)
}

// dumps returns whole-board reads once a second from a random phase: the
// placement the board's scan had reported by then.
func dumps(r Rand, start rules.Placement, reports []report, t0, end time.Time) []Input {
	p := start
	var out []Input
	j := 0
	for at := t0.Add(between(r, 0, time.Second)); at.Before(end); at = at.Add(time.Second) {
		for j < len(reports) && !reports[j].at.After(at) {
			p.Sq[reports[j].sq] = reports[j].pc
			j++
		}
		out = append(out, Input{At: at, Sensed: game.FullRead{Placement: p}})
	}
	return out
}

// bursts hands over the inputs of a few stretches of 0.3–1.5 s at once at
// the end of each (a reader that stalled), 10 µs apart, in order.
func bursts(r Rand, in []Input) []Input {
	if len(in) == 0 {
		return in
	}
	t0, end := in[0].At, in[len(in)-1].At
	span := end.Sub(t0)
	for range 1 + r.IntN(3) {
		from := t0.Add(time.Duration(r.IntN(int(span/time.Millisecond)+1)) * time.Millisecond)
		to := from.Add(between(r, 300*time.Millisecond, 1500*time.Millisecond))
		i0, _ := slices.BinarySearchFunc(in, from, func(x Input, t time.Time) int { return x.At.Compare(t) })
		for i := i0; i < len(in) && in[i].At.Before(to); i++ {
			in[i].At = to.Add(time.Duration(i-i0) * 10 * time.Microsecond)
		}
		// What came after keeps its place behind the burst.
		for i := 1; i < len(in); i++ {
			if !in[i].At.After(in[i-1].At) {
				in[i].At = in[i-1].At.Add(10 * time.Microsecond)
			}
		}
	}
	return in
}
