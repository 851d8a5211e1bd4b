package emu

import (
	"time"
)

// This file encodes the board→host frames the emulator sends. It is
// deliberately written from the protocol's description, independently of
// package dgt's encoders, so that tests of dgt's decoders against the
// emulator cross-check two implementations.

// frame returns a single-board message: id, 14-bit total length, data.
func frame(id byte, data ...byte) []byte {
	n := 3 + len(data)
	b := make([]byte, 0, n)
	b = append(b, id, byte(n>>7)&0x7F, byte(n)&0x7F)
	return append(b, data...)
}

// busFrame returns a bus reply: id, length, address, data, checksum.
func busFrame(id byte, addr uint16, data ...byte) []byte {
	n := 6 + len(data)
	b := make([]byte, 0, n)
	b = append(b, id, byte(n>>7)&0x7F, byte(n)&0x7F, byte(addr>>7)&0x7F, byte(addr)&0x7F)
	b = append(b, data...)
	return append(b, sum7(b))
}

// sum7 is the bus checksum: the sum of the bytes, low 7 bits.
func sum7(p []byte) byte {
	var s byte
	for _, c := range p {
		s += c
	}
	return s & 0x7F
}

// bcd encodes 0–99 as two BCD digits.
func bcd(v int) byte { return byte(v/10<<4 | v%10) }

// hms splits whole seconds into hours (capped at 9, the display's limit),
// minutes and seconds.
func hms(secs int) (h, m, s int) {
	h, m, s = secs/3600, secs/60%60, secs%60
	if h > 9 {
		h, m, s = 9, 59, 59
	}
	return
}

// clockData returns the 7 data bytes of a clock-times message. The
// first triple is the right-hand display, the second the left one, and the
// status bits follow the real captures: bit0
// running, bit1 lever down on the left (right side high), bit3 left
// player's turn, bit4 right player's turn.
func clockData(r clockReading, connected bool) [7]byte {
	if !connected {
		return [7]byte{0, 0, 0, 0, 0, 0, 0x20}
	}
	var d [7]byte
	put := func(i int, s Side) {
		h, m, sec := hms(r.secs[s])
		b := byte(h)
		if r.perMove {
			b |= 0x20
		}
		if r.flag[s] {
			b |= 0x10 | 0x40
		}
		d[i], d[i+1], d[i+2] = b, bcd(m), bcd(sec)
	}
	put(0, Right)
	put(3, Left)
	var st byte
	if r.running != NoSide {
		st |= 0x01
	}
	if r.lever == Left {
		st |= 0x02
	}
	turn := r.running
	if turn == NoSide {
		turn = r.lever.Other()
	}
	switch turn {
	case Left:
		st |= 0x08
	case Right:
		st |= 0x10
	}
	d[6] = st
	return d
}

// ackData returns the 7 data bytes of a clock ACK carrying ack0..ack3:
// low 7 bits in p1, p2, p4, p5; bit 7 of each in bits 4/5 of p3
// and p0; 0x0A in the low nibbles of p0 and p3 marks the ACK.
func ackData(a0, a1, a2, a3 byte) [7]byte {
	var d [7]byte
	d[0] = 0x0A | (a2>>7)<<4 | (a3>>7)<<5
	d[1] = a0 & 0x7F
	d[2] = a1 & 0x7F
	d[3] = 0x0A | (a0>>7)<<4 | (a1>>7)<<5
	d[4] = a2 & 0x7F
	d[5] = a3 & 0x7F
	return d
}

// byteTime is how long one byte takes on the wire at 9600 baud 8N1 (10
// bits).
const byteTime = time.Second / 960
