package emu

import (
	"slices"
	"sync"
	"time"
)

// Line is several emulated boards on one DGT bus: they hear every
// byte the host sends and share one line back to it. The line runs at 9600
// baud both ways: a command reaches the boards when its last byte has
// crossed the wire (1/960 s per byte, after the bytes sent before it), the
// addressed board answers ReplyDelay later (2 ms: "within milliseconds"
// in DGT's words), and each board's reply occupies the line for 1/960 s
// per byte.
// Replies that overlap in time collide — the line is a wired OR, so the
// host receives the bitwise OR of the colliding bytes, which a checksum
// catches. That is what makes broadcast pings (answered at random moments
// within 1.1 s) collide sometimes, as on the real bus.
//
// Like [Emulator], Line is a pure state machine with time passed in, safe
// for concurrent use.
type Line struct {
	mu     sync.Mutex
	boards []*Emulator
	p      cmdParser
	epoch  time.Time
	slots  map[int64]byte // byte slots on the wire, index = time since epoch / byteTime
	busy   []int64        // per board: first free slot
	now    time.Time
	gone   map[uint16]bool // unplugged addresses
	spoil  int             // replies still to corrupt

	rxFree  time.Time  // when the host→board wire is next idle
	pending []timedCmd // commands on their way to the boards, in order
}

// ReplyDelay is how long a board on a [Line] takes to start answering a
// command (after its last byte arrived).
const ReplyDelay = 2 * time.Millisecond

// timedCmd is a host command and the moment the boards act on it.
type timedCmd struct {
	at time.Time
	c  hostCmd
}

// NewLine returns a line with the given boards, starting at start. The
// boards should have distinct bus addresses.
func NewLine(start time.Time, boards ...*Emulator) *Line {
	return &Line{boards: boards, epoch: start, now: start, slots: map[int64]byte{}, busy: make([]int64, len(boards))}
}

// Boards returns the boards on the line.
func (l *Line) Boards() []*Emulator { return slices.Clone(l.boards) }

// Input feeds bytes the host sent at now: they cross the wire one after
// the other, and each command is executed by every board ReplyDelay after
// its last byte arrived (at a later Advance, or now if that is already
// due).
func (l *Line) Input(now time.Time, p []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.advance(now)
	for i := range p {
		arrive := now
		if l.rxFree.After(arrive) {
			arrive = l.rxFree
		}
		arrive = arrive.Add(byteTime)
		l.rxFree = arrive
		l.p.feed(p[i : i+1])
		for {
			c, ok := l.p.next()
			if !ok {
				break
			}
			l.pending = append(l.pending, timedCmd{at: arrive.Add(ReplyDelay), c: c})
		}
	}
	l.advance(now)
}

// execDue executes the commands that have reached the boards by now.
func (l *Line) execDue(now time.Time) {
	n := 0
	for _, tc := range l.pending {
		if tc.at.After(now) {
			break
		}
		n++
		for _, b := range l.boards {
			if l.gone[b.Address()] {
				continue
			}
			b.mu.Lock()
			b.advance(tc.at)
			b.exec(tc.at, tc.c)
			b.mu.Unlock()
		}
	}
	l.pending = l.pending[n:]
}

// Advance moves every board to now.
func (l *Line) Advance(now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.advance(now)
}

func (l *Line) advance(now time.Time) {
	l.execDue(now)
	for _, b := range l.boards {
		b.Advance(now)
	}
	if now.After(l.now) {
		l.now = now
	}
	l.collect()
}

// collect puts the boards' new output on the wire.
func (l *Line) collect() {
	for i, b := range l.boards {
		for _, c := range b.outputChunks() {
			if l.gone[b.Address()] {
				continue
			}
			if l.spoil > 0 && len(c.b) > 0 {
				l.spoil--
				c.b = append([]byte(nil), c.b...)
				c.b[len(c.b)-1] ^= 0x01 // a bit error in the checksum byte
			}
			slot := int64(c.at.Sub(l.epoch) / byteTime)
			if slot < l.busy[i] {
				slot = l.busy[i]
			}
			for _, x := range c.b {
				l.slots[slot] |= x
				slot++
			}
			l.busy[i] = slot
		}
	}
}

// Unplug disconnects the board at addr from the line (it keeps running
// but hears and says nothing); Plug reconnects it.
func (l *Line) Unplug(addr uint16) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.gone == nil {
		l.gone = map[uint16]bool{}
	}
	l.gone[addr] = true
}

// Plug reconnects a board disconnected with Unplug.
func (l *Line) Plug(addr uint16) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.gone, addr)
}

// Corrupt flips one bit in the checksum byte of the next n replies (noise
// on the line), so the host sees checksum errors.
func (l *Line) Corrupt(n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.spoil = n
}

// Output returns and forgets the bytes whose transmission has finished.
func (l *Line) Output() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	done := int64(l.now.Sub(l.epoch) / byteTime) // slots ending by now
	var keys []int64
	for k := range l.slots {
		if k < done {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	out := make([]byte, 0, len(keys))
	for _, k := range keys {
		out = append(out, l.slots[k])
		delete(l.slots, k)
	}
	return out
}

// NextEvent returns the earliest time something happens on the line: a
// board's next event or the end of a byte in transmission.
func (l *Line) NextEvent() (t time.Time, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, b := range l.boards {
		if u, has := b.NextEvent(); has && (!ok || u.Before(t)) {
			t, ok = u, true
		}
	}
	if len(l.pending) > 0 && (!ok || l.pending[0].at.Before(t)) {
		t, ok = l.pending[0].at, true
	}
	if len(l.slots) > 0 {
		last := int64(-1)
		for k := range l.slots {
			last = max(last, k)
		}
		u := l.epoch.Add(time.Duration(last+1) * byteTime)
		if !ok || u.Before(t) {
			t, ok = u, true
		}
	}
	return t, ok
}
