package emu

import (
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
)

// EEPROM event codes (§2.9).
const (
	eePowerUp  = 0x6A
	eeEOF      = 0x6B
	eeStartTag = 0x7B
	eeNOP      = 0x7F
	eeSize     = 0x1F00
	eeFastGap  = 250 * time.Millisecond
)

// eeprom is the board's cyclic event memory (§2.9): piece changes as the
// scanner sees them, clock times on lever presses, tags. Positions are
// absolute (bytes ever written), so what the bus host has fetched survives
// the buffer wrapping. Not modelled: overwriting the last entry when one
// piece keeps changing, and the begin-position tags with their hysteresis.
type eeprom struct {
	log      []byte // the last ≤ eeSize bytes written
	base     int    // absolute position of log[0]
	fetched  int    // absolute position up to which SEND_CHANGES delivered
	lastPkt  []byte // the previous SEND_CHANGES packet, for REPEAT_CHANGES
	startTag int    // absolute position of the last EE_START_TAG, -1 none
	lastAt   time.Time
}

func newEEPROM() *eeprom { return &eeprom{startTag: -1} }

func (e *eeprom) end() int { return e.base + len(e.log) }

func (e *eeprom) write(b ...byte) {
	e.log = append(e.log, b...)
	if over := len(e.log) - (eeSize - 1); over > 0 {
		e.log = append(e.log[:0], e.log[over:]...)
		e.base += over
		if e.fetched < e.base {
			e.fetched = e.base
		}
	}
}

// piece records a scanner-seen change; r is set when it follows the
// previous change by less than ~250 ms.
func (e *eeprom) piece(at time.Time, f dgt.Field, c dgt.PieceCode) {
	b0 := 0x40 + byte(c)
	if !e.lastAt.IsZero() && at.Sub(e.lastAt) < eeFastGap {
		b0 += 0x10
	}
	e.lastAt = at
	e.write(b0, byte(f))
}

// pieces writes an entry for every occupied field (after power-up and
// EE_START_TAG).
func (e *eeprom) pieces(board *[dgt.NumFields]dgt.PieceCode) {
	for f, c := range board {
		if c != dgt.Empty {
			e.write(0x40+byte(c), byte(f))
		}
	}
}

func (e *eeprom) powerUp(board *[dgt.NumFields]dgt.PieceCode) {
	e.write(eeNOP, eeNOP, eeNOP, eePowerUp)
	e.pieces(board)
}

func (e *eeprom) startGame(board *[dgt.NumFields]dgt.PieceCode) {
	e.startTag = e.end()
	e.write(eeStartTag)
	e.pieces(board)
}

// slice returns the bytes from absolute position from to the end.
func (e *eeprom) slice(from int) []byte {
	if from < e.base {
		from = e.base
	}
	return append([]byte(nil), e.log[from-e.base:]...)
}

// changes returns the entries not fetched yet and marks them fetched
// (SEND_CHANGES).
func (e *eeprom) changes() []byte {
	e.lastPkt = e.slice(e.fetched)
	e.fetched = e.end()
	return e.lastPkt
}

// fromStart returns everything from the last start tag (SEND_FROM_START)
// and marks it fetched.
func (e *eeprom) fromStart() []byte {
	from := e.startTag
	if from < 0 {
		from = e.base
	}
	e.fetched = e.end()
	return e.slice(from)
}

// dump returns the whole memory as DGT_SEND_EE_MOVES sends it: oldest to
// newest, padded at the front with EE_NOP to the fixed size, ending with
// EE_EOF (§2.4, §2.9).
func (e *eeprom) dump() []byte {
	d := make([]byte, 0, eeSize)
	for i := len(e.log) + 1; i < eeSize; i++ {
		d = append(d, eeNOP)
	}
	d = append(d, e.log...)
	d = append(d, eeEOF)
	e.write(0x6E) // EE_DOWNLOADED
	return d
}
