package emu

import (
	"errors"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/dgtbridge/dgtbridge/obp"
	"github.com/dgtbridge/dgtbridge/rules"
)

// Options configure an Emulator. The zero value is a xiangqi board with
// pieces identified, at the start array, with a clock of 15 minutes + 10
// seconds.
type Options struct {
	// Geo is rules.Xiangqi9x10 (default) or rules.Chess8x8.
	Geo rules.Geometry
	// Serial is what the board answers in its Ident; default "OBP0001".
	Serial string
	// Placement is the position on the board at power-up; default the
	// geometry's start array (xiangqi's of Art. 3, or chess's).
	Placement *rules.Placement
	// Occupancy makes the board one that cannot tell pieces apart: its
	// lines say "?" for the piece.
	Occupancy bool
	// NoClock: no clock is attached ("C none").
	NoClock bool
	// Base and Increment set the clock (both sides); default 15 min + 10 s.
	Base, Increment time.Duration
	// ClockEvery is how often a running clock sends its state; default
	// 1 s (OBP/1: at least once a second).
	ClockEvery time.Duration
	// BadLines is the probability that a line is damaged on the wire (a
	// byte changed, noise before it, its checksum lost).
	BadLines float64
	// Seed seeds the damage.
	Seed uint64
}

func (o Options) withDefaults() Options {
	if o.Geo == (rules.Geometry{}) {
		o.Geo = rules.Xiangqi9x10
	}
	if o.Serial == "" {
		o.Serial = "OBP0001"
	}
	if o.Base <= 0 {
		o.Base, o.Increment = 15*time.Minute, 10*time.Second
	}
	if o.ClockEvery <= 0 {
		o.ClockEvery = time.Second
	}
	return o
}

// ErrGeometry: Options.Geo is neither 8×8 nor 9×10.
var ErrGeometry = errors.New("obp/emu: board size is neither 8x8 nor 9x10")

type timed struct {
	at time.Time
	a  Action
}

// Emulator is one emulated OBP board with its clock. See the package
// comment.
type Emulator struct {
	mu    sync.Mutex
	opts  Options
	t0    time.Time
	now   time.Time
	board rules.Placement
	cmds  obp.CommandDecoder
	out   []byte
	rng   *rand.Rand

	actions []timed
	garble  int // lines to damage next

	left     [2]time.Duration
	running  rules.Color
	started  bool
	lastTick time.Time // when left was last brought up to date
	nextSend time.Time // next periodic clock line

	received []obp.Command
	sent     int // lines sent
	damaged  int // lines damaged
}

// New returns an emulator powered up at start.
func New(opts Options, start time.Time) (*Emulator, error) {
	opts = opts.withDefaults()
	if opts.Geo != rules.Xiangqi9x10 && opts.Geo != rules.Chess8x8 {
		return nil, ErrGeometry
	}
	e := &Emulator{opts: opts, t0: start, now: start, running: rules.NoColor, rng: rand.New(rand.NewPCG(opts.Seed, 0x0b9))}
	if opts.Placement != nil {
		if opts.Placement.Geo != opts.Geo {
			return nil, ErrGeometry
		}
		e.board = *opts.Placement
	} else {
		e.board = StartArray(opts.Geo)
	}
	e.left = [2]time.Duration{opts.Base, opts.Base}
	return e, nil
}

// Geometry returns the board's size.
func (e *Emulator) Geometry() rules.Geometry { return e.opts.Geo }

// Schedule queues the steps of s from start on.
func (e *Emulator) Schedule(start time.Time, s Script) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, st := range s {
		e.actions = append(e.actions, timed{at: start.Add(st.At), a: st.Action})
	}
	slices.SortStableFunc(e.actions, func(a, b timed) int { return a.at.Compare(b.at) })
}

// Input takes bytes from the host at now and answers the commands in
// them.
func (e *Emulator) Input(now time.Time, p []byte) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.advance(now)
	e.cmds.Feed(p)
	for {
		c, err := e.cmds.Next()
		if errors.Is(err, obp.ErrNeedMore) {
			return
		}
		if err != nil {
			continue // a board ignores what it does not understand
		}
		e.received = append(e.received, c)
		switch c {
		case obp.CmdIdent:
			e.send(obp.Ident{Version: obp.Version, Geo: e.opts.Geo, Serial: e.opts.Serial, Occupancy: e.opts.Occupancy})
		case obp.CmdBoard:
			e.send(e.boardLine(now))
		case obp.CmdClock:
			e.send(e.clockLine(now))
		}
	}
}

// Advance runs the actions due by now and the clock's periodic lines.
func (e *Emulator) Advance(now time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.advance(now)
}

func (e *Emulator) advance(now time.Time) {
	for {
		var t time.Time
		action, clock := false, false
		if len(e.actions) > 0 && !e.actions[0].at.After(now) {
			t, action = e.actions[0].at, true
		}
		if e.ticking() && !e.nextSend.After(now) && (!action || e.nextSend.Before(t)) {
			t, action, clock = e.nextSend, false, true
		}
		if !action && !clock {
			break
		}
		if t.Before(e.now) {
			t = e.now
		}
		e.tick(t)
		e.now = t
		if action {
			a := e.actions[0].a
			e.actions = e.actions[1:]
			e.do(t, a)
			continue
		}
		e.send(e.clockLine(t))
		e.nextSend = e.nextSend.Add(e.opts.ClockEvery)
	}
	if now.After(e.now) {
		e.tick(now)
		e.now = now
	}
}

// ticking reports whether a clock runs and sends its periodic lines.
func (e *Emulator) ticking() bool { return !e.opts.NoClock && e.running != rules.NoColor }

// tick brings the running clock's time left up to t.
func (e *Emulator) tick(t time.Time) {
	if e.running != rules.NoColor && t.After(e.lastTick) {
		e.left[e.running] = max(e.left[e.running]-t.Sub(e.lastTick), 0)
	}
	if t.After(e.lastTick) {
		e.lastTick = t
	}
}

// do performs one action at t.
func (e *Emulator) do(t time.Time, a Action) {
	switch a := a.(type) {
	case Lift:
		if !e.board.At(a.Square).IsEmpty() {
			e.board.Sq[a.Square] = rules.NoPiece
			e.sendAt(t, obp.Lift{Square: a.Square})
		}
	case Put:
		if e.opts.Geo.Contains(a.Square) {
			e.board.Sq[a.Square] = a.Piece
			p := obp.Put{Square: a.Square, Piece: a.Piece}
			if e.opts.Occupancy {
				p = obp.Put{Square: a.Square, Unidentified: true}
			}
			e.sendAt(t, p)
		}
	case Lever:
		if e.opts.NoClock {
			return
		}
		other := a.Side.Other()
		switch {
		case !e.started:
			e.started = true
		case e.running == a.Side:
			e.left[a.Side] += e.opts.Increment
		case e.running != rules.NoColor:
			return // the lever is down on the other side already
		}
		e.running = other
		e.send(e.clockLine(t))
		e.nextSend = t.Add(e.opts.ClockEvery)
	case Garble:
		e.garble++
	case Fault:
		e.sendAt(t, obp.Fault{Code: a.Code, Text: a.Text})
	case ClockSet:
		if e.opts.NoClock {
			return
		}
		e.left = [2]time.Duration{a.First, a.Second}
		e.running, e.started = a.Running, a.Running != rules.NoColor
		if e.started {
			e.nextSend = t.Add(e.opts.ClockEvery)
		}
		e.send(e.clockLine(t))
	}
}

// stamp returns the board timestamp of t.
func (e *Emulator) stamp(t time.Time) obp.Stamp { return obp.At(uint64(t.Sub(e.t0).Milliseconds())) }

func (e *Emulator) sendAt(t time.Time, m obp.Message) {
	switch m := m.(type) {
	case obp.Lift:
		m.Stamp = e.stamp(t)
		e.send(m)
	case obp.Put:
		m.Stamp = e.stamp(t)
		e.send(m)
	case obp.Fault:
		m.Stamp = e.stamp(t)
		e.send(m)
	default:
		e.send(m)
	}
}

// send appends m's line to the output, damaged when due.
func (e *Emulator) send(m obp.Message) {
	line := m.AppendLine(nil, e.opts.Geo)
	e.sent++
	if e.garble > 0 || e.opts.BadLines > 0 && e.rng.Float64() < e.opts.BadLines {
		if e.garble > 0 {
			e.garble--
		}
		line = damage(e.rng, line)
		e.damaged++
	}
	e.out = append(e.out, line...)
}

// damage returns line as a noisy wire delivers it: one byte changed, noise
// bytes before it, or its checksum cut off. The line end stays, so only
// this line is lost.
func damage(r *rand.Rand, line []byte) []byte {
	body := line[:len(line)-1]
	switch r.IntN(3) {
	case 0:
		i := r.IntN(len(body))
		c := body[i] ^ byte(1+r.IntN(0x3f))
		if c == '\n' {
			c = 0x7f
		}
		body = append(append(append([]byte(nil), body[:i]...), c), body[i+1:]...)
	case 1:
		body = append([]byte{0xff, 0x00, 'x'}, body...)
	default:
		body = body[:len(body)-3]
	}
	return append(body, '\n')
}

func (e *Emulator) boardLine(now time.Time) obp.Message {
	b := obp.Board{Placement: e.board, Stamp: e.stamp(now)}
	if e.opts.Occupancy {
		b.Placement = rules.NewPlacement(e.opts.Geo)
		for s := range e.opts.Geo.Size() {
			if !e.board.Sq[s].IsEmpty() {
				b.Unidentified = append(b.Unidentified, rules.Square(s))
			}
		}
	}
	return b
}

func (e *Emulator) clockLine(now time.Time) obp.Message {
	if e.opts.NoClock {
		return obp.Clock{None: true, Stamp: e.stamp(now)}
	}
	return obp.Clock{First: e.left[0], Second: e.left[1], Running: e.running, Stamp: e.stamp(now)}
}

// Output returns and clears the bytes the board has sent.
func (e *Emulator) Output() []byte {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := e.out
	e.out = nil
	return out
}

// NextEvent returns when the board next acts by itself (a scheduled action
// or a periodic clock line).
func (e *Emulator) NextEvent() (time.Time, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	var t time.Time
	ok := false
	if len(e.actions) > 0 {
		t, ok = e.actions[0].at, true
	}
	if e.ticking() && (!ok || e.nextSend.Before(t)) {
		t, ok = e.nextSend, true
	}
	return t, ok
}

// Placement returns what stands on the board now (lifted pieces are off
// it).
func (e *Emulator) Placement() rules.Placement {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.board
}

// Pending returns how many scripted actions are still to come.
func (e *Emulator) Pending() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.actions)
}

// Received returns the host commands received so far, in order.
func (e *Emulator) Received() []obp.Command {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.received)
}

// Lines returns how many lines the board has sent and how many of them
// were damaged.
func (e *Emulator) Lines() (sent, damaged int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.sent, e.damaged
}

// Clock returns the clock's state at the last Advance.
func (e *Emulator) Clock() (first, second time.Duration, running rules.Color) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.left[0], e.left[1], e.running
}
