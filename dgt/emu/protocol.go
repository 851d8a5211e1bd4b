package emu

import (
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
)

// exec executes one host command at now.
func (e *Emulator) exec(now time.Time, c hostCmd) {
	if e.off {
		return
	}
	if !isBusOp(c.op) || c.addr == 0 || c.addr == e.opts.BusAddress {
		e.received = append(e.received, c.op)
	}
	if isBusOp(c.op) {
		e.execBus(now, c)
		return
	}
	if e.busMode {
		// A single-board command switches to single-board mode (IDLE)
		// and is executed.
		e.busMode = false
		e.mode = modeIdle
	}
	switch c.op {
	case 0x40: // DGT_SEND_RESET
		e.mode = modeIdle
	case 0x41: // DGT_SEND_CLK
		e.sendClock(now, clockData(e.c.read(now), e.hasClock()))
	case 0x42: // DGT_SEND_BRD
		e.emit(now, e.dumpFrame(0x86, false, 0))
	case 0x43: // DGT_SEND_UPDATE
		e.setMode(now, modeUpdate)
	case 0x44: // DGT_SEND_UPDATE_BRD
		e.setMode(now, modeUpdateBrd)
	case 0x4B: // DGT_SEND_UPDATE_NICE
		e.setMode(now, modeUpdateNice)
	case 0x45: // DGT_RETURN_SERIALNR
		e.emit(now, frame(0x91, []byte(e.opts.Serial)...))
	case 0x46: // DGT_RETURN_BUSADRES
		a := e.opts.BusAddress
		e.emit(now, frame(0x90, byte(a>>7)&0x7F, byte(a)&0x7F))
	case 0x47: // DGT_SEND_TRADEMARK
		e.emit(now, frame(0x92, ascii7(e.opts.Trademark)...))
	case 0x49: // DGT_SEND_EE_MOVES: ~8 s of data at 9600 baud
		if !e.opts.NoEEPROM {
			e.emit(now, frame(0x8F, e.ee.dump()...))
		}
	case 0x4A: // DGT_TO_BUSMODE
		e.busMode = true
	case 0x4C: // DGT_SEND_BATTERY_STATUS (9 data bytes)
		e.emit(now, frame(0xA0, byte(e.opts.BatteryPercent), 0x7F, 0x7F, 0, 0, 0, 0, 0, 0))
	case 0x4D: // DGT_SEND_VERSION
		e.emit(now, frame(0x93, e.opts.Version[0], e.opts.Version[1]))
	case 0x4E: // DGT_STARTBOOTLOADER: emulators treat it as a reset
		e.mode = modeIdle
	case 0x55: // DGT_RETURN_LONG_SERIALNR
		e.emit(now, frame(0xA2, []byte(e.opts.LongSerial)...))
	case 0x2B:
		e.execClock(now, c.payload)
	}
	// 0x50–0x54 (draughts) and 0x60 (Revelation II LEDs) are ignored, as
	// a chess board without LEDs does.
}

// setMode changes the update mode; entering a clock-reporting mode sends
// the clock state at once.
func (e *Emulator) setMode(now time.Time, m updateMode) {
	e.mode = m
	e.clockSent = false
	e.clockTick(now)
}

// dumpFrame returns a board dump: single-board 0x86, or a bus frame.
func (e *Emulator) dumpFrame(id byte, bus bool, addr uint16) []byte {
	d := make([]byte, dgt.NumFields)
	for i, c := range e.s.seen {
		d[i] = byte(c)
	}
	if bus {
		return busFrame(id, addr, d...)
	}
	return frame(id, d...)
}

// execClock executes a wrapped clock command `2B size 03 cmd … 00`
// and acknowledges it after AckDelay when the mode asks for ACKs.
func (e *Emulator) execClock(now time.Time, p []byte) {
	if len(p) < 2 || p[0] != 0x03 || !e.hasClock() {
		return
	}
	cmd, arg := p[1], p[2:]
	e.clockCmd = append(e.clockCmd, cmd)
	ack := [4]byte{0x10, cmd, 0, 0}
	switch cmd {
	case 0x01: // DISPLAY (XL 7-segment): C B A F E D icons beep
		if len(arg) < 8 {
			ack[0] = 0x40
			break
		}
		e.c.text = xlText(arg[2], arg[1], arg[0], arg[5], arg[4], arg[3])
		if arg[7]&0x02 != 0 {
			e.c.beeps++
		}
	case 0x02: // ICONS
	case 0x03: // END: back to the time display
		e.c.text = ""
	case 0x08: // BUTTON
	case 0x09: // VERSION
		ack[2] = e.opts.ClockVersion[0]<<4 | e.opts.ClockVersion[1]&0x0F
	case 0x0A: // SETNRUN: lh lm ls rh rm rs flags, plain binary
		if len(arg) < 7 {
			ack[0] = 0x40
			break
		}
		d := func(h, m, s byte) time.Duration {
			return time.Duration(h&0x0F)*time.Hour + time.Duration(m)*time.Minute + time.Duration(s)*time.Second
		}
		e.c.setAndRun(now, d(arg[0], arg[1], arg[2]), d(arg[3], arg[4], arg[5]), arg[6])
	case 0x0B: // BEEP
		e.c.beeps++
	case 0x0C: // ASCII (DGT 3000): 8 characters and a beep byte
		if e.opts.ClockVersion[0] < 2 {
			ack[0] = 0x40 // an XL has no text display
			break
		}
		n := min(8, len(arg))
		e.c.text = string(arg[:n])
		if len(arg) > 8 && arg[8] != 0 {
			e.c.beeps++
		}
	default:
		ack[0] = 0x40
	}
	if e.busMode || !e.clockReports() {
		return // executed silently: ACKs only in UPDATE / UPDATE_NICE
	}
	if e.dropAcks > 0 {
		e.dropAcks--
		return
	}
	d := ackData(ack[0], ack[1], ack[2], ack[3])
	e.later(now.Add(e.opts.AckDelay), frame(0x8D, d[:]...))
}

// execBus executes a bus command. A board in single-board
// mode switches to bus mode and ignores the command that switched it.
func (e *Emulator) execBus(now time.Time, c hostCmd) {
	if !e.busMode {
		e.busMode = true
		return
	}
	if now.Before(e.busyUntil) {
		return
	}
	a := e.opts.BusAddress
	if c.addr == 0 {
		switch c.op {
		case 0x87: // broadcast PING: answer at a random moment within 1100 ms
			if e.ignorePing {
				e.ignorePing = false
				return
			}
			e.later(now.Add(e.pingDelays()), busFrame(0x87, a))
		case 0x88: // END_BUSMODE to everyone
			e.busMode, e.mode = false, modeIdle
		case 0x89:
			e.busReset(now)
		}
		return
	}
	if c.addr != a {
		return
	}
	switch c.op {
	case 0x81: // SEND_CLK
		d := clockData(e.c.read(now), e.hasClock())
		e.emit(now, busFrame(0x84, a, d[:]...))
	case 0x82: // SEND_BRD
		e.emit(now, e.dumpFrame(0x83, true, a))
	case 0x83: // SEND_CHANGES
		e.changesRead = now
		e.emit(now, busFrame(0x85, a, e.ee.changes()...))
	case 0x84: // REPEAT_CHANGES
		e.emit(now, busFrame(0x85, a, e.ee.lastPkt...))
	case 0x85: // SET_START_GAME: written ~70 ms later
		e.ee.startGame(&e.s.seen)
		e.later(now.Add(70*time.Millisecond), busFrame(0x88, a))
	case 0x86: // SEND_FROM_START
		e.emit(now, busFrame(0x86, a, e.ee.fromStart()...))
	case 0x87: // PING
		e.emit(now, busFrame(0x87, a))
	case 0x88: // END_BUSMODE
		e.busMode, e.mode = false, modeIdle
	case 0x89: // RESET
		e.busReset(now)
	case 0x8A: // IGNORE_NEXT_BUS_PING: answered at once
		e.ignorePing = true
		e.emit(now, busFrame(0x87, a))
	case 0x8B: // SEND_VERSION
		e.emit(now, busFrame(0x89, a, e.opts.Version[0], e.opts.Version[1]))
	case 0x8D: // SEND_ALL_D: changes, clock and board
		d := clockData(e.c.read(now), e.hasClock())
		e.changesRead = now
		b := busFrame(0x85, a, e.ee.changes()...)
		b = append(b, busFrame(0x84, a, d[:]...)...)
		b = append(b, e.dumpFrame(0x83, true, a)...)
		e.emit(now, b)
	}
	// 0x8C (draughts) and the undocumented 0x92 are swallowed.
}

// busReset is the power-up reset ("takes seconds", DGT says): the board is
// deaf for 2 s and writes a power-up sequence.
func (e *Emulator) busReset(now time.Time) {
	e.busyUntil = now.Add(2 * time.Second)
	e.ignorePing = false
	e.ee.powerUp(&e.s.seen, false)
}

// ascii7 returns s with every byte that has bit 7 set replaced by '?'.
func ascii7(s string) []byte {
	b := []byte(s)
	for i, c := range b {
		if c >= 0x80 {
			b[i] = '?'
		}
	}
	return b
}
