package emu

import (
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
)

// EEPROM record codes.
const (
	eePowerUp    = 0x6A
	eeEOF        = 0x6B
	eeFourRows   = 0x6C
	eeEmptyBoard = 0x6D
	eeDownloaded = 0x6E
	eeBeginPos   = 0x6F
	eeBeginRot   = 0x7A
	eeStartTag   = 0x7B
	eeWatchdog   = 0x7C
	eeNOP        = 0x7F
	eeSize       = 0x1F00
	eeFastGap    = 250 * time.Millisecond
)

// eeprom is the board's cyclic event memory as DGT's header
// describes it: piece changes as the scanner sees them (the `r` bit set
// when one follows the previous by less than ~250 ms), the time of the
// halted display on every lever press, tags. Positions are absolute
// (bytes ever written), so what the bus host has fetched survives the
// buffer wrapping; only the last eeSize−1 bytes are kept (the dump adds
// EE_EOF).
//
// Modelled peculiarities: when the same field changes again right after
// its own record, that record is overwritten instead of a new one added
// (only while the bus host has not fetched it); begin-position, four-rows
// and empty-board tags are written when the position appears, and again
// only after more than two pieces have been out of the tagged position
// (the hysteresis); power-up writes three EE_NOP, EE_POWERUP and a record for
// every occupied field; a watchdog reset writes EE_WATCHDOG_ACTION first;
// a download writes EE_DOWNLOADED. Not modelled: the clock record skipped
// on very fast moves.
type eeprom struct {
	absent   bool       // a board without EEPROM: nothing is kept
	fbit     dgt.EEFBit // how this board writes the clock records' f bit
	log      []byte     // the last ≤ eeSize−1 bytes written
	base     int        // absolute position of log[0]
	fetched  int        // absolute position up to which SEND_CHANGES delivered
	lastPkt  []byte     // the previous SEND_CHANGES packet, for REPEAT_CHANGES
	startTag int        // absolute position of the last EE_START_TAG, -1 none
	lastAt   time.Time  // time of the last piece change

	lastPiece int       // absolute position of the last record if it is a piece change, -1 otherwise
	lastField dgt.Field // its field

	board  [dgt.NumFields]dgt.PieceCode // the position as recorded
	tagged [dgt.NumFields]dgt.PieceCode // the position the last position tag was written for
	armed  bool                         // a position tag may be written
}

func newEEPROM(absent bool, f dgt.EEFBit) *eeprom {
	return &eeprom{absent: absent, fbit: f, startTag: -1, lastPiece: -1, armed: true}
}

func (e *eeprom) end() int { return e.base + len(e.log) }

// write appends a record (or several).
func (e *eeprom) write(b ...byte) {
	if e.absent {
		return
	}
	e.lastPiece = -1
	e.log = append(e.log, b...)
	if over := len(e.log) - (eeSize - 1); over > 0 {
		e.log = append(e.log[:0], e.log[over:]...)
		e.base += over
		e.fetched = max(e.fetched, e.base)
	}
}

// piece records a scanner-seen change of field f to c at at.
func (e *eeprom) piece(at time.Time, f dgt.Field, c dgt.PieceCode) {
	b0 := 0x40 + byte(c)
	if !e.lastAt.IsZero() && at.Sub(e.lastAt) < eeFastGap {
		b0 += 0x10
	}
	e.lastAt = at
	e.board[f] = c
	if e.lastPiece >= e.base && e.lastPiece >= e.fetched && e.lastField == f {
		e.log[e.lastPiece-e.base] = b0 // one piece keeps changing: overwrite
	} else {
		e.write(b0, byte(f))
		e.lastPiece, e.lastField = e.end()-2, f
	}
	e.position()
}

// position writes a position tag when the recorded position is a begin
// position, four full rows or an empty board, with the hysteresis the
// header describes (more than two pieces out of place before a new tag).
func (e *eeprom) position() {
	if !e.armed {
		// Pieces out of the tagged position: missing from their tagged
		// fields, or standing where the tag had none (whichever is more).
		missing, extra := 0, 0
		for f := range e.board {
			if e.board[f] == e.tagged[f] {
				continue
			}
			if e.tagged[f] != dgt.Empty {
				missing++
			}
			if e.board[f] != dgt.Empty {
				extra++
			}
		}
		e.armed = max(missing, extra) > 2
	}
	if !e.armed {
		return
	}
	if tag, ok := positionTag(&e.board); ok {
		e.write(tag)
		e.tagged, e.armed = e.board, false
	}
}

// backRank is the back rank of the start position from a to h.
var backRank = [8]dgt.PieceCode{dgt.WhiteRook, dgt.WhiteKnight, dgt.WhiteBishop, dgt.WhiteQueen, dgt.WhiteKing, dgt.WhiteBishop, dgt.WhiteKnight, dgt.WhiteRook}

// positionTag returns the tag a board writes for position b, if any:
// EE_BEGINPOS for the start position with White at fields 48–63,
// EE_BEGINPOS_ROT for it turned round, EE_FOURROWS for any other position
// with all 32 fields of the four outer rows occupied and the rest empty
// (Chess960 tolerance; our reading of the header's "16 figures in the A,
// B, G and H rows"), EE_EMPTYBOARD for an empty board.
func positionTag(b *[dgt.NumFields]dgt.PieceCode) (byte, bool) {
	var start [dgt.NumFields]dgt.PieceCode
	for i := 0; i < 8; i++ {
		start[56+i] = backRank[i]
		start[48+i] = dgt.WhitePawn
		start[8+i] = dgt.BlackPawn
		start[i] = backRank[i] + 6 // the black piece of the same kind
	}
	if *b == start {
		return eeBeginPos, true
	}
	rot := true
	for f := range b {
		if b[f] != start[dgt.NumFields-1-f] {
			rot = false
			break
		}
	}
	if rot {
		return eeBeginRot, true
	}
	empty, rows := true, true
	for f, c := range b {
		outer := f < 16 || f >= 48
		if c != dgt.Empty {
			empty = false
		}
		if outer != (c != dgt.Empty) {
			rows = false
		}
	}
	switch {
	case empty:
		return eeEmptyBoard, true
	case rows:
		return eeFourRows, true
	}
	return 0, false
}

// clock records the time of the display that was just halted.
func (e *eeprom) clock(s Side, secs int) {
	h, m, sec := hms(secs)
	b0 := byte(0x60 + h)
	if (s == Left) == (e.fbit == dgt.FLeft) {
		b0 += 0x10
	}
	e.write(b0, bcd(m), bcd(sec))
}

// pieces writes a record for every occupied field (after power-up and
// EE_START_TAG); they are not changes, so the `r` bit is clear.
func (e *eeprom) pieces(board *[dgt.NumFields]dgt.PieceCode) {
	for f, c := range board {
		if c != dgt.Empty {
			e.write(0x40+byte(c), byte(f))
		}
	}
	e.board = *board
}

// powerUp writes the power-up sequence (after EE_WATCHDOG_ACTION when a
// watchdog reset caused it); the tag hysteresis starts afresh.
func (e *eeprom) powerUp(board *[dgt.NumFields]dgt.PieceCode, watchdog bool) {
	if watchdog {
		e.write(eeWatchdog)
	}
	e.write(eeNOP, eeNOP, eeNOP, eePowerUp)
	e.pieces(board)
	e.lastAt = time.Time{}
	e.armed = true
	e.position()
}

// startGame writes EE_START_TAG and all piece positions (bus
// SET_START_GAME).
func (e *eeprom) startGame(board *[dgt.NumFields]dgt.PieceCode) {
	if e.absent {
		return
	}
	e.startTag = e.end()
	e.write(eeStartTag)
	e.pieces(board)
}

// erase empties the memory (an erased or new EEPROM).
func (e *eeprom) erase() {
	e.base += len(e.log)
	e.log = e.log[:0]
	e.fetched, e.startTag, e.lastPiece = e.base, -1, -1
	e.lastPkt = nil
}

// slice returns the bytes from absolute position from up to to.
func (e *eeprom) slice(from, to int) []byte {
	from = max(from, e.base)
	to = min(to, e.end())
	if to <= from {
		return nil
	}
	return append([]byte(nil), e.log[from-e.base:to-e.base]...)
}

// changes returns the records not fetched yet and marks them fetched
// (SEND_CHANGES).
func (e *eeprom) changes() []byte {
	e.lastPkt = e.slice(e.fetched, e.end())
	e.fetched = e.end()
	e.lastPiece = -1 // a fetched record is never overwritten
	return e.lastPkt
}

// fromStart returns the records from the last start tag up to what
// SEND_CHANGES has delivered, excluding the changes still to be fetched
// (SEND_FROM_START, as DGT's header describes it). Without a start tag, or
// when it has been overwritten, it starts at the oldest byte kept (our
// choice: the header does not say).
func (e *eeprom) fromStart() []byte {
	from := e.startTag
	if from < 0 {
		from = e.base
	}
	return e.slice(from, e.fetched)
}

// dump returns the whole memory as DGT_SEND_EE_MOVES sends it: oldest to
// newest, padded at the front with EE_NOP to the fixed size while the
// buffer has not wrapped, ending with EE_EOF; then it writes
// EE_DOWNLOADED.
func (e *eeprom) dump() []byte {
	d := make([]byte, 0, eeSize)
	for i := len(e.log) + 1; i < eeSize; i++ {
		d = append(d, eeNOP)
	}
	d = append(d, e.log...)
	d = append(d, eeEOF)
	e.write(eeDownloaded)
	return d
}
