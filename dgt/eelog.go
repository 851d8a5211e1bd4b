package dgt

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// EEFBit says which clock display the f bit of an EEPROM clock record
// names. The sources disagree (UNCERTAIN): DGT's header says
// f = 1 is the left display seen from the front, jGeek's parser reads it
// the other way. FLeft, the header's reading, is the default; a board
// whose logs come out with the sides swapped is read with FRight.
type EEFBit uint8

// The two readings of the f bit.
const (
	FLeft  EEFBit = iota // f = 1: the left display (DGT's header; default)
	FRight               // f = 1: the right display (jGeek's reading)
)

// String returns "left" or "right": the display f = 1 names.
func (f EEFBit) String() string {
	if f == FRight {
		return "right"
	}
	return "left"
}

// Display returns the display a clock record with raw bit f names under
// this reading.
func (f EEFBit) Display(bit bool) Side {
	if bit == (f == FLeft) {
		return LeftSide
	}
	return RightSide
}

// Time returns the time of a clock record (EEClock), as shown on the
// halted display.
func (e EEEvent) Time() time.Duration {
	return time.Duration(e.Hours)*time.Hour + time.Duration(e.Minutes)*time.Minute + time.Duration(e.Seconds)*time.Second
}

// EELog is a board's EEPROM event log, parsed: what
// DGT_SEND_EE_MOVES (0x49 → [EEMoves]) or, on a bus, SEND_FROM_START and
// SEND_CHANGES return. It is the board's own record of what it saw while
// nobody was listening: every piece change as its scan saw it (with the
// `r` bit), the time on the halted display at every lever press, and tags
// (power-up, begin position, start tag, …). It carries no timestamps.
//
// Peculiarities a reader must allow for: when one field keeps
// changing, the board overwrites its last piece record instead of adding
// one, so a piece lifted and put back may leave no trace; begin-position
// tags are written again only after more than two pieces left the tagged
// position; clock records name the display (left/right), not a colour,
// and are not swapped on a rotated board; the start times of a game are
// never written; a very fast press may write no clock record.
type EELog struct {
	// Entries are the records, oldest first, without EE_NOP, EE_NOP2 and
	// EE_EOF. A clock record's Display is set from the f bit with the
	// reading the log was parsed with.
	Entries []EEEvent
	// Wrapped is true when the cyclic buffer had wrapped: its oldest
	// bytes were the rest of an overwritten record and were skipped, and
	// older history is gone.
	Wrapped bool
	// Bad counts records that did not parse and were skipped; Err joins
	// their *[EEError]s (nil when Bad is 0).
	Bad int
	Err error
}

// Pieces returns the number of piece records.
func (l EELog) Pieces() int {
	n := 0
	for _, e := range l.Entries {
		if e.Kind == EEPiece {
			n++
		}
	}
	return n
}

// String summarises the log, e.g. "412 records (380 pieces), wrapped".
func (l EELog) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d records (%d pieces)", len(l.Entries), l.Pieces())
	if l.Wrapped {
		b.WriteString(", wrapped")
	}
	if l.Bad > 0 {
		fmt.Fprintf(&b, ", %d bad", l.Bad)
	}
	return b.String()
}

// Log parses the dump with reading f of the clock records' f bit. The
// dump is the whole cyclic buffer, oldest first: when it has wrapped, its
// first bytes may be the remains of an overwritten record, which are
// skipped up to the first byte that can only start a record (≥ 0x60: the
// data bytes of records never reach it).
func (m EEMoves) Log(f EEFBit) EELog { return parseEELog([]byte(m.Data), f, true) }

// Log parses the records of a bus SEND_CHANGES reply.
func (m BusUpdate) Log(f EEFBit) EELog { return parseEELog([]byte(m.Data), f, false) }

// Log parses the records of a bus SEND_FROM_START reply.
func (m BusFromStart) Log(f EEFBit) EELog { return parseEELog([]byte(m.Data), f, false) }

// ParseEELog parses EEPROM records that are not a full dump (e.g. the
// data of bus replies joined together) with reading f of the f bit.
func ParseEELog(data []byte, f EEFBit) EELog { return parseEELog(data, f, false) }

func parseEELog(data []byte, f EEFBit, dump bool) EELog {
	var l EELog
	start := 0
	if dump && len(data) > 0 && data[0] != eeNopCode {
		// No leading EE_NOP: the buffer has wrapped (a fresh buffer is
		// padded with EE_NOP, and every power-up writes three of them).
		l.Wrapped = true
		for start < len(data) && data[start] < 0x60 {
			start++
		}
	}
	s := NewEEScanner(data[start:])
	s.F = f
	var errs []error
	for {
		e, err := s.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			var ee *EEError
			if errors.As(err, &ee) {
				ee.Offset += start
			}
			l.Bad++
			errs = append(errs, err)
			continue
		}
		switch e.Kind {
		case EENop, EENop2:
			continue
		case EEEOF:
			if dump {
				l.Err = errors.Join(errs...)
				return l
			}
			continue
		}
		l.Entries = append(l.Entries, e)
	}
	l.Err = errors.Join(errs...)
	return l
}

// eeNopCode is EE_NOP.
const eeNopCode = 0x7F
