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
	game  game
	start time.Time // when its script starts (zero before)
}

// pollLog notes when the host polled each board of a line (a bus command
// that fetches its changes), as the board hears it, and when each board's
// answer with its changes was on the wire (its last byte handed to the
// pseudo-terminal).
type pollLog struct {
	mu      sync.Mutex
	last    map[uint16]time.Time
	gaps    []time.Duration // between two polls of the same board, while on
	on      bool
	carry   []byte
	answers map[uint16][]time.Time
}

func newPollLog() *pollLog {
	return &pollLog{last: map[uint16]time.Time{}, answers: map[uint16][]time.Time{}}
}

// answered notes the complete reply frames in out (§4.4: id|0x80, length
// in two 7-bit bytes counting the whole frame, address in two, data,
// checksum), sent at now, per line parser state r.
func (p *pollLog) answered(r *replyParser, now time.Time, out []byte) {
	for _, f := range r.feed(out) {
		if f.id == 0x85 { // MSG_BUS_UPDATE: the changes since the last poll
			p.mu.Lock()
			p.answers[f.addr] = append(p.answers[f.addr], now)
			p.mu.Unlock()
		}
	}
}

// answerAfter returns the first changes answer of addr at or after t.
func (p *pollLog) answerAfter(addr uint16, t time.Time) (time.Time, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	a := p.answers[addr]
	i, _ := slices.BinarySearchFunc(a, t, func(x, t time.Time) int { return x.Compare(t) })
	if i == len(a) {
		return time.Time{}, false
	}
	return a[i], true
}

type frame struct {
	id   byte
	addr uint16
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
		out = append(out, frame{id: r.buf[0], addr: uint16(r.buf[3])<<7 | uint16(r.buf[4])})
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

// tappedLine is an emulated line whose traffic is also noted in a
// pollLog.
type tappedLine struct {
	emu.Device
	polls *pollLog
	r     *replyParser
}

func (t tappedLine) Input(now time.Time, p []byte) {
	t.polls.record(now, p)
	t.Device.Input(now, p)
}

func (t tappedLine) Output() []byte {
	out := t.Device.Output()
	if len(out) > 0 {
		t.polls.answered(t.r, time.Now(), out)
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
			b.e = emu.New(emu.Setup{Serial: fmt.Sprintf("%05d", serial), Seed: uint64(i + 1)}, now)
			ems = append(ems, b.e)
			boards = append(boards, b)
		}
		var dev emu.Device = ems[0]
		if perLine > 1 {
			dev = emu.NewLine(now, ems...)
		}
		dev = tappedLine{Device: dev, polls: polls, r: &replyParser{}}
		wg.Go(func() {
			defer master.Close()
			emu.ServePTY(ctx, master, dev)
		})
	}
	return boards, nil
}
