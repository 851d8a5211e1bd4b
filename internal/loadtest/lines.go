package loadtest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/dgt/pty"
)

// board is one emulated board of the test: its line, address and game.
type board struct {
	n     int // board number (1-based), the game's
	path  string
	addr  uint16 // 0: alone on its port
	e     *emu.Emulator
	power time.Time // when its emulator was powered up (its scan's epoch)
	game  game
	start time.Time // when its script starts (zero before)

	mu      sync.Mutex
	answers []answer // in the order sent
}

// answer is one message of the board that told the host its changes: a
// bus board's MSG_BUS_UPDATE, or anything a board alone on its port sent.
// It holds what the board had seen up to read (the moment the poll reached
// the board; for a lone board, the emulator's time when it was sent) and
// its last byte was handed to the pseudo-terminal at sent.
type answer struct {
	read, sent time.Time
}

// answered notes an answer of b.
func (b *board) answered(read, sent time.Time) {
	b.mu.Lock()
	b.answers = append(b.answers, answer{read: read, sent: sent})
	b.mu.Unlock()
}

// answerHolding returns when the first answer of b that holds what the
// board had seen at t (read at or after t) was sent.
func (b *board) answerHolding(t time.Time) (time.Time, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	i, _ := slices.BinarySearchFunc(b.answers, t, func(a answer, t time.Time) int { return a.read.Compare(t) })
	if i == len(b.answers) {
		return time.Time{}, false
	}
	return b.answers[i].sent, true
}

// answerAt returns the first answer of b that holds what the board had
// seen at t (read at or after t).
func (b *board) answerAt(t time.Time) (answer, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	i, _ := slices.BinarySearchFunc(b.answers, t, func(a answer, t time.Time) int { return a.read.Compare(t) })
	if i == len(b.answers) {
		return answer{}, false
	}
	return b.answers[i], true
}

// readable returns the first answer of b that held both the press of a
// move, which the board saw at pressed, and the scan of its last square
// change, at scanned (whole; ok false: none yet), and the first answer
// from which a host can read the move (readable; has false: none yet).
//
// readable is whole, unless whole is also the first answer that held the
// press: the host then cannot tell whether the square the board reported
// last is where the piece stayed (the lever often beats the board's scan
// of the last square, and a sliding hand may carry a piece on), until an
// answer the board gave a full scan (its scan period) after that one.
// readable is then the first such answer; a move whose piece could not
// have gone on (a knight, a capture) can be read on whole, and the caller
// times its MoveEvent from whole when it came before readable.
func (b *board) readable(pressed, scanned time.Time) (whole, readable answer, ok, has bool) {
	whole, ok = b.answerAt(later(pressed, scanned))
	if !ok {
		return answer{}, answer{}, false, false
	}
	if first, ok := b.answerAt(pressed); ok && first.read.Equal(whole.read) {
		readable, has = b.answerAt(whole.read.Add(b.e.Setup().Scan().Period))
		return whole, readable, true, has
	}
	return whole, whole, true, true
}

// lastAnswer returns when the last answer of b sent at or before t was
// sent: the newest the daemon could have read of the board when it
// published at t.
func (b *board) lastAnswer(t time.Time) (time.Time, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	i, _ := slices.BinarySearchFunc(b.answers, t, func(a answer, t time.Time) int { return a.sent.Compare(t) })
	if i < len(b.answers) && b.answers[i].sent.Equal(t) {
		i++
	}
	if i == 0 {
		return time.Time{}, false
	}
	return b.answers[i-1].sent, true
}

// pressed returns when the press that completes ply (1-based) was made.
func (b *board) pressed(ply int) time.Time { return b.start.Add(b.game.press[ply-1]) }

// scans returns when the board's scanner reported the first and the last
// square change of ply (1-based): for every square the hands changed for
// it, the scanner's first visit of its field at or after the change
// (dgt/emu's scan model, [emu.Scan.Next]: a change is reported when its
// field is next visited), the earliest and the latest of them. The lever
// often beats the last one.
func (b *board) scans(ply int) (first, last time.Time) {
	setup := b.e.Setup()
	scan := setup.Scan()
	for _, t := range b.game.touch[ply-1] {
		f, ok := dgt.FieldOf(t.sq, setup.Orientation)
		if !ok {
			continue
		}
		at := b.power.Add(scan.Next(f, b.start.Add(t.at).Sub(b.power)))
		if at.After(last) {
			last = at
		}
		if first.IsZero() || at.Before(first) {
			first = at
		}
	}
	return first, last
}

// pollLog notes when the host polled each board of a line (a bus command
// that fetches its changes) and read its clock, as the board hears it.
type pollLog struct {
	mu    sync.Mutex
	last  map[uint16]time.Time
	gaps  []time.Duration // between two polls of the same board, while on
	on    bool
	carry []byte
	// clockReads: when each board's clock was read (BUS_SEND_CLK), by
	// address (unique over the lines).
	clockReads map[uint16][]time.Time
}

func newPollLog() *pollLog {
	return &pollLog{last: map[uint16]time.Time{}, clockReads: map[uint16][]time.Time{}}
}

// clockReadAfter returns the first clock read of addr at or after t.
func (p *pollLog) clockReadAfter(addr uint16, t time.Time) time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	a := p.clockReads[addr]
	i, _ := slices.BinarySearchFunc(a, t, func(x, t time.Time) int { return x.Compare(t) })
	if i == len(a) {
		return time.Time{}
	}
	return a[i]
}

type frame struct {
	id   byte
	addr uint16
	data []byte // between the address and the checksum
}

// replyParser cuts a board→host byte stream into bus reply frames.
type replyParser struct{ buf []byte }

func (r *replyParser) feed(b []byte) []frame {
	r.buf = append(r.buf, b...)
	var out []frame
	for {
		for len(r.buf) > 0 && r.buf[0]&0x80 == 0 {
			r.buf = r.buf[1:]
		}
		if len(r.buf) < 6 {
			return out
		}
		n := int(r.buf[1])<<7 | int(r.buf[2])
		if n < 6 || n > 4096 {
			r.buf = r.buf[1:] // not a frame: resynchronise
			continue
		}
		if len(r.buf) < n {
			return out
		}
		out = append(out, frame{id: r.buf[0], addr: uint16(r.buf[3])<<7 | uint16(r.buf[4]), data: slices.Clone(r.buf[5 : n-1])})
		r.buf = r.buf[n:]
	}
}

func (p *pollLog) record(now time.Time, b []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	b = append(p.carry, b...)
	p.carry = nil
	for len(b) > 0 {
		if b[0]&0x80 == 0 { // not a command byte: skip to the next one
			b = b[1:]
			continue
		}
		if len(b) < 4 {
			p.carry = append([]byte(nil), b...)
			return
		}
		cmd, addr := dgt.BusCmd(b[0]), uint16(b[1])<<7|uint16(b[2])
		b = b[4:]
		if cmd == dgt.BusCmdSendClock {
			p.clockReads[addr] = append(p.clockReads[addr], now)
		}
		if cmd != dgt.BusCmdSendChanges && cmd != dgt.BusCmdSendAll {
			continue
		}
		if last, ok := p.last[addr]; ok && p.on {
			p.gaps = append(p.gaps, now.Sub(last))
		}
		p.last[addr] = now
	}
}

// start counts the gaps between polls from now on, from each board's
// first poll after now (not the discovery).
func (p *pollLog) start() {
	p.mu.Lock()
	p.on = true
	p.gaps = nil
	clear(p.last)
	p.mu.Unlock()
}

func (p *pollLog) take() []time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	g := p.gaps
	p.gaps = nil
	return g
}

// tappedLine is an emulated line (or a board alone on its port) whose
// traffic is also noted: the polls in a pollLog, the boards' answers in
// their boards. Run calls it from one goroutine.
type tappedLine struct {
	emu.Device
	polls  *pollLog
	r      replyParser
	byAddr map[uint16]*board // the boards of a bus line
	alone  *board            // the board alone on its port
	now    time.Time         // the device's time at the last Input or Advance
	clock  func() time.Time  // when output is sent (nil: time.Now; tests: simulated)
}

func (t *tappedLine) Input(now time.Time, p []byte) {
	t.polls.record(now, p)
	t.Device.Input(now, p)
	t.now = now
}

func (t *tappedLine) Advance(now time.Time) {
	t.Device.Advance(now)
	t.now = now
}

// Output notes the answers whose last byte it returns, sent now: each
// complete MSG_BUS_UPDATE frame of a bus line (id|0x80, length in
// two 7-bit bytes counting the whole frame, address in two, data,
// checksum), read when its poll reached the board (emu's ChangesRead: a
// board's next poll comes a cycle later), or whatever a lone board sent
// (all it had seen up to the device's time).
func (t *tappedLine) Output() []byte {
	out := t.Device.Output()
	if len(out) == 0 {
		return out
	}
	sent := time.Now()
	if t.clock != nil {
		sent = t.clock()
	}
	if t.alone != nil {
		t.alone.answered(t.now, sent)
		return out
	}
	for _, f := range t.r.feed(out) {
		if b := t.byAddr[f.addr]; b != nil && f.id == 0x85 { // MSG_BUS_UPDATE: the changes since the last poll
			b.answered(b.e.ChangesRead(), sent)
		}
	}
	return out
}

// serveLines starts the emulated boards on pseudo-terminals: lines of
// perLine boards (perLine <= 1: each board alone on its port), each with
// the game of its board number. They run until ctx is done.
func serveLines(ctx context.Context, wg *sync.WaitGroup, games []game, perLine int, polls *pollLog) ([]*board, error) {
	now := time.Now()
	var boards []*board
	for first := 0; first < len(games); first += max(perLine, 1) {
		last := min(first+max(perLine, 1), len(games))
		master, path, err := pty.Open()
		if err != nil {
			return nil, fmt.Errorf("loadtest: pty: %w", err)
		}
		var ems []*emu.Emulator
		for i := first; i < last; i++ {
			b := &board{n: i + 1, path: path, game: games[i]}
			serial := i + 1
			if perLine > 1 {
				// Addresses: 64 a line, so a line's boards are
				// line*64+1… (the bus address is the serial number).
				serial = (first/perLine)*64 + (i - first) + 1
				b.addr = uint16(serial)
			}
			b.e, b.power = emu.New(emu.Setup{Serial: fmt.Sprintf("%05d", serial), Seed: uint64(i + 1)}, now), now
			ems = append(ems, b.e)
			boards = append(boards, b)
		}
		tap := &tappedLine{Device: ems[0], polls: polls, alone: boards[len(boards)-1]}
		if perLine > 1 {
			tap.Device, tap.alone, tap.byAddr = emu.NewLine(now, ems...), nil, map[uint16]*board{}
			for _, b := range boards[first:] {
				tap.byAddr[b.addr] = b
			}
		}
		var dev emu.Device = tap
		wg.Go(func() {
			defer master.Close()
			emu.ServePTY(ctx, master, dev)
		})
	}
	return boards, nil
}
