package emu

import (
	"slices"
	"sync"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/rules"
)

// updateMode is the single-board reporting mode.
type updateMode uint8

const (
	modeIdle       updateMode = iota // 0x40: nothing spontaneous
	modeUpdateBrd                    // 0x44: field updates
	modeUpdate                       // 0x43: field updates + clock every second
	modeUpdateNice                   // 0x4B: field updates + clock on change
)

// chunk is output produced at a moment.
type chunk struct {
	at time.Time
	b  []byte
}

// Emulator is one emulated DGT e-board with a DGT 3000 clock cabled to
// it. It is a pure state machine: host bytes go in with [Emulator.Input],
// time moves with [Emulator.Advance], and the bytes the board sends come
// out of [Emulator.Output]; the physical world (hands, the clock lever)
// acts through [Emulator.Schedule] and friends. Every method takes the
// current time; nothing reads the wall clock and nothing starts a
// goroutine. Methods are safe for concurrent use (one mutex), so a test
// may act on the board while [Run] serves it.
//
// Like the hardware it starts in bus mode; the first
// single-board command switches it to single-board mode and is executed.
type Emulator struct {
	mu   sync.Mutex
	opts Setup
	s    *sensors
	c    *clock
	ee   *eeprom
	p    cmdParser

	now     time.Time
	busMode bool
	mode    updateMode

	actions []timedAction
	seq     int
	out     []chunk
	sched   []chunk // delayed output (clock ACKs, bus replies)

	lastClock   [7]byte
	lastClockAt time.Time
	clockSent   bool

	ignorePing bool
	busyUntil  time.Time // bus reset in progress
	dropAcks   int
	clockOff   bool // the clock's cable is pulled (UnplugClock)
	off        bool // the board has no power (PowerOff)
	pingDelays func() time.Duration

	received []byte // op codes of the host commands received, in order
	clockCmd []byte // clock sub-commands received, in order

	changesRead time.Time // when the last SEND_CHANGES / SEND_ALL_D was answered
}

// New returns an emulator powered up at start.
func New(opts Setup, start time.Time) *Emulator {
	opts = opts.withDefaults()
	e := &Emulator{
		opts:    opts,
		s:       newSensors(start, opts.Scan(), opts.Flicker, opts.Seed),
		c:       newClock(opts.Clock),
		ee:      newEEPROM(opts.NoEEPROM, opts.EEFBit),
		now:     start,
		busMode: true,
	}
	pl := opts.Placement
	if pl == nil {
		sp := StartPlacement()
		pl = &sp
	}
	for sq := rules.Square(0); sq < 64; sq++ {
		if c, ok := dgt.PieceCodeOf(pl.Sq[sq]); ok {
			f, _ := dgt.FieldOf(sq, opts.Orientation)
			e.s.set(f, c)
		}
	}
	e.s.settle()
	e.ee.powerUp(&e.s.phys, false)
	rng := e.s.rng
	e.pingDelays = func() time.Duration { return time.Duration(rng.Int64N(int64(1100 * time.Millisecond))) }
	return e
}

// Address returns the board's bus address.
func (e *Emulator) Address() uint16 { return e.opts.BusAddress }

// Setup returns the options in effect, defaults filled in.
func (e *Emulator) Setup() Setup { return e.opts }

// ChangesRead returns when the board last answered a bus SEND_CHANGES or
// SEND_ALL_D (the moment the command reached it), zero if it never has.
// That answer holds every change the scanner had reported and every lever
// press up to that moment, and nothing later. It is a read-only view for
// measurements: the load test (internal/loadtest) times a move from the
// board's answer that completed it.
func (e *Emulator) ChangesRead() time.Time {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.changesRead
}

// Input feeds bytes the host sent at now. Replies appear in Output (some
// after a delay, once Advance reaches their time).
func (e *Emulator) Input(now time.Time, p []byte) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.advance(now)
	if e.off {
		return // no power: the bytes are lost
	}
	e.p.feed(p)
	for {
		c, ok := e.p.next()
		if !ok {
			return
		}
		e.exec(now, c)
	}
}

// Advance moves the emulator to now: scripted actions fall due, the
// scanner visits squares, the clock runs, delayed replies are sent.
func (e *Emulator) Advance(now time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.advance(now)
}

// Output returns and forgets the bytes the board has sent so far.
func (e *Emulator) Output() []byte {
	e.mu.Lock()
	defer e.mu.Unlock()
	var b []byte
	for _, c := range e.out {
		b = append(b, c.b...)
	}
	e.out = e.out[:0]
	return b
}

// outputChunks returns and forgets the output with its times (for Line).
func (e *Emulator) outputChunks() []chunk {
	e.mu.Lock()
	defer e.mu.Unlock()
	c := e.out
	e.out = nil
	return c
}

// NextEvent returns the earliest time after the last Advance or Input at
// which the emulator may send something or change state; ok is false when
// nothing is pending (it then only reacts to Input or new actions).
func (e *Emulator) NextEvent() (t time.Time, ok bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.nextEvent()
}

func (e *Emulator) nextEvent() (t time.Time, ok bool) {
	consider := func(u time.Time, has bool) {
		if has && (!ok || u.Before(t)) {
			t, ok = u, true
		}
	}
	if len(e.actions) > 0 {
		consider(e.actions[0].at, true)
	}
	if len(e.sched) > 0 {
		consider(e.sched[0].at, true)
	}
	if !e.off {
		consider(e.s.nextChange())
	}
	consider(e.c.flagTime())
	if !e.busMode && e.clockReports() {
		consider(e.c.nextDisplayChange(e.now))
		if e.mode == modeUpdate {
			consider(e.lastClockAt.Add(time.Second), true)
		}
	}
	if ok && t.Before(e.now) {
		t = e.now
	}
	return t, ok
}

// clockReports says whether the current mode sends clock messages
// spontaneously.
func (e *Emulator) clockReports() bool {
	return e.hasClock() && (e.mode == modeUpdate || e.mode == modeUpdateNice)
}

// advance is Advance with the lock held.
func (e *Emulator) advance(now time.Time) {
	var changes []change
	stuck := 0
	for {
		t := now
		if next, ok := e.nextEvent(); ok && next.Before(t) {
			t = next
		}
		if !t.After(e.now) {
			t = e.now
			if stuck++; stuck > 2 {
				t = now // defensive: never spin on an event that does not move
			}
		}
		// Scanner visits strictly before the actions due at t see the
		// board as it was; visits at t see the actions' result. A board
		// without power does not scan.
		if !e.off {
			changes = e.s.advance(t.Add(-1), changes[:0])
			e.report(changes)
		}
		for len(e.actions) > 0 && !e.actions[0].at.After(t) {
			a := e.actions[0]
			e.actions = e.actions[1:]
			e.apply(a.at, a.a)
		}
		if !e.off {
			changes = e.s.advance(t, changes[:0])
			e.report(changes)
		}
		for len(e.sched) > 0 && !e.sched[0].at.After(t) {
			e.out = append(e.out, e.sched[0])
			e.sched = e.sched[1:]
		}
		e.c.advance(t)
		e.now = t
		e.clockTick(t)
		if !t.Before(now) {
			return
		}
	}
}

// report turns scanner-seen changes into field updates and EEPROM entries.
func (e *Emulator) report(changes []change) {
	for _, ch := range changes {
		e.ee.piece(ch.at, ch.field, ch.code)
		if !e.busMode && e.mode != modeIdle {
			e.emit(ch.at, frame(0x8E, byte(ch.field), byte(ch.code)))
		}
	}
}

// clockTick sends a clock message when the mode asks for one at t.
func (e *Emulator) clockTick(t time.Time) {
	if e.busMode || !e.clockReports() {
		return
	}
	d := clockData(e.c.read(t), true)
	due := d != e.lastClock || !e.clockSent
	if e.mode == modeUpdate && !t.Before(e.lastClockAt.Add(time.Second)) {
		due = true
	}
	if due {
		e.sendClock(t, d)
	}
}

func (e *Emulator) sendClock(t time.Time, d [7]byte) {
	e.lastClock, e.lastClockAt, e.clockSent = d, t, true
	e.emit(t, frame(0x8D, d[:]...))
}

func (e *Emulator) emit(at time.Time, b []byte) {
	if !e.off {
		e.out = append(e.out, chunk{at: at, b: b})
	}
}

// later queues b to be sent at at.
func (e *Emulator) later(at time.Time, b []byte) {
	i, _ := slices.BinarySearchFunc(e.sched, at, func(c chunk, t time.Time) int {
		if c.at.After(t) {
			return 1
		}
		return -1
	})
	e.sched = slices.Insert(e.sched, i, chunk{at: at, b: b})
}
