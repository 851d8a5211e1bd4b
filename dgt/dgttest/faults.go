package dgttest

import (
	"io"
	"math/rand/v2"
	"sync"
)

// Fault is what happens to one byte on a noisy line.
type Fault uint8

// Faults a [FaultyPort] injects.
const (
	NoFault   Fault = iota
	Corrupt         // one bit of the byte flips (bit 7 included: a data byte can turn into a header)
	Drop            // the byte is lost
	Duplicate       // the byte arrives twice
)

// String names the fault.
func (f Fault) String() string {
	return [...]string{"none", "corrupt", "drop", "duplicate", "fault?"}[min(f, 4)]
}

// Faults say which faults a [FaultyPort] injects, per byte the board sends
// (Read) and, with Writes, per byte the host sends (Write). Rates are
// probabilities per byte. Pick, when set, decides instead for every byte
// read, given its offset in the board→host stream (the first byte read is
// 0) and its value: for tests that need one garbled byte at one place;
// PickWrite does the same for the bytes written (host→board).
// Clean is a number of board→host bytes let through untouched first (the
// connection sequence).
type Faults struct {
	Seed                     uint64
	Corrupt, Drop, Duplicate float64
	Pick                     func(off int64, b byte) Fault
	PickWrite                func(off int64, b byte) Fault
	Clean                    int64
	Writes                   bool
}

// FaultyPort is a port that garbles the bytes passing through it the way a
// noisy serial line does: flipped bits, lost bytes, doubled bytes. Wrapped
// around the host's side of the line (what a board's opener returns), its
// Read garbles what the board sends; wrapped around the board's side (the
// port an emulator serves, e.g. emu.Run(ctx,
// dgttest.NewFaultyPort(emu.PTYPort(master), f), board) for the daemon's
// real serial code on a pseudo-terminal), the board's bytes are written:
// garble them with Writes or PickWrite. Read and Write may be called from
// different goroutines. It is seeded and reproducible for a given sequence
// of reads and writes.
type FaultyPort struct {
	rwc io.ReadWriteCloser
	f   Faults

	mu     sync.Mutex
	rd, wr *rand.Rand
	off    int64 // board→host bytes read so far
	woff   int64 // host→board bytes written so far
	counts [4]int
	buf    []byte
	extra  []byte // garbled bytes that did not fit the last Read
}

// NewFaultyPort wraps rwc.
func NewFaultyPort(rwc io.ReadWriteCloser, f Faults) *FaultyPort {
	return &FaultyPort{rwc: rwc, f: f,
		rd: rand.New(rand.NewPCG(f.Seed, 1)), wr: rand.New(rand.NewPCG(f.Seed, 2))}
}

// fault draws the fault of one byte.
func (p *FaultyPort) fault(r *rand.Rand) Fault {
	u := r.Float64()
	switch {
	case u < p.f.Corrupt:
		return Corrupt
	case u < p.f.Corrupt+p.f.Drop:
		return Drop
	case u < p.f.Corrupt+p.f.Drop+p.f.Duplicate:
		return Duplicate
	}
	return NoFault
}

// garble applies faults to b; off is the offset of b[0] in its stream.
func (p *FaultyPort) garble(b []byte, r *rand.Rand, read bool, off int64) []byte {
	out := p.buf[:0]
	for i, c := range b {
		o := off + int64(i)
		f := NoFault
		switch {
		case read && p.f.Pick != nil:
			f = p.f.Pick(o, c)
		case !read && p.f.PickWrite != nil:
			f = p.f.PickWrite(o, c)
		case !read || o >= p.f.Clean:
			f = p.fault(r)
		}
		p.counts[f]++
		switch f {
		case Corrupt:
			out = append(out, c^(1<<r.IntN(8)))
		case Drop:
		case Duplicate:
			out = append(out, c, c)
		default:
			out = append(out, c)
		}
	}
	p.buf = out
	return out
}

// Read reads from the port and returns the bytes garbled. A read whose
// bytes were all dropped reads again, so a Read never returns 0 bytes
// without an error.
func (p *FaultyPort) Read(b []byte) (int, error) {
	p.mu.Lock()
	if len(p.extra) > 0 {
		n := copy(b, p.extra)
		p.extra = p.extra[n:]
		p.mu.Unlock()
		return n, nil
	}
	p.mu.Unlock()
	for {
		n, err := p.rwc.Read(b)
		if n == 0 {
			return 0, err
		}
		p.mu.Lock()
		g := p.garble(b[:n], p.rd, true, p.off)
		p.off += int64(n)
		m := copy(b, g)
		p.extra = append(p.extra, g[m:]...) // a duplicated byte that did not fit
		p.mu.Unlock()
		if m > 0 || err != nil {
			return m, err
		}
	}
}

// Write garbles the host's bytes when Faults.Writes or PickWrite is set
// and writes them; it reports len(b) written when the port took them all.
func (p *FaultyPort) Write(b []byte) (int, error) {
	if !p.f.Writes && p.f.PickWrite == nil {
		return p.rwc.Write(b)
	}
	p.mu.Lock()
	g := append([]byte(nil), p.garble(b, p.wr, false, p.woff)...)
	p.woff += int64(len(b))
	p.mu.Unlock()
	if _, err := p.rwc.Write(g); err != nil {
		return 0, err
	}
	return len(b), nil
}

// Close closes the port.
func (p *FaultyPort) Close() error { return p.rwc.Close() }

// Injected returns how many faults of kind f were injected so far.
func (p *FaultyPort) Injected(f Fault) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.counts[f]
}
