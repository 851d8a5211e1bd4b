package dgt

import (
	"errors"
	"fmt"
	"io"
)

// EEMoves is DGT_EE_MOVES (0x8F): the board's EEPROM event buffer,
// oldest first, ending with EE_EOF. Data holds the raw bytes; parse them
// with [EEScanner] or [ParseEE].
type EEMoves struct {
	Data string
}

var _ Message = EEMoves{}

// MsgID returns MsgEEMoves.
func (EEMoves) MsgID() MsgID { return MsgEEMoves }

// AppendBinary appends the header and the data (≤ 0x1F00 7-bit bytes).
func (m EEMoves) AppendBinary(b []byte) ([]byte, error) {
	return appendText(b, MsgEEMoves, m.Data, 0, maxDataLen)
}

// Events parses Data; see [ParseEE].
func (m EEMoves) Events() ([]EEEvent, error) { return ParseEE([]byte(m.Data)) }

// EEKind is the kind of an EEPROM event record.
type EEKind uint8

// EEPROM record kinds, with their first byte(s).
const (
	EEPiece       EEKind = iota + 1 // 0x40–0x5F: a field changed (2 bytes)
	EEClock                         // 0x60–0x69, 0x70–0x79: time of the clock just halted (3 bytes)
	EEPowerUp                       // 0x6A EE_POWERUP
	EEEOF                           // 0x6B EE_EOF
	EEFourRows                      // 0x6C EE_FOURROWS
	EEEmptyBoard                    // 0x6D EE_EMPTYBOARD
	EEDownloaded                    // 0x6E EE_DOWNLOADED
	EEBeginPos                      // 0x6F EE_BEGINPOS
	EEBeginPosRot                   // 0x7A EE_BEGINPOS_ROT
	EEStartTag                      // 0x7B EE_START_TAG
	EEWatchdog                      // 0x7C EE_WATCHDOG_ACTION
	EEReserved                      // 0x7D, 0x7E
	EENop                           // 0x7F EE_NOP
	EENop2                          // 0x00 EE_NOP2
)

var eeKindNames = [...]string{"?", "piece", "clock", "powerup", "eof", "fourrows", "emptyboard",
	"downloaded", "beginpos", "beginpos_rot", "start_tag", "watchdog", "reserved", "nop", "nop2"}

// String returns the kind's short name.
func (k EEKind) String() string {
	if int(k) < len(eeKindNames) {
		return eeKindNames[k]
	}
	return fmt.Sprintf("EEKind(%d)", uint8(k))
}

// EEEvent is one EEPROM record. Which fields are meaningful
// depends on Kind.
type EEEvent struct {
	Kind EEKind
	Code byte // the first byte as stored (kept for EEReserved, EENop…)

	// EEPiece: the field and the piece now on it (Empty: lifted); Fast
	// is the `r` bit, set when < ~250 ms passed since the previous change.
	Field Field
	Piece PieceCode
	Fast  bool

	// EEClock: the time of the halted clock. F is the raw `f` bit;
	// Display the display it names under the scanner's [EEFBit] reading
	// (the header says f = 1 is the left display, jGeek the opposite;
	// FLeft by default). Hours, Minutes, Seconds as
	// stored (minutes and seconds from tens in bits 6–4 and units in bits
	// 3–0).
	F                       bool
	Display                 Side
	Hours, Minutes, Seconds uint8
}

// Len returns the record's length in bytes.
func (e EEEvent) Len() int {
	switch e.Kind {
	case EEPiece:
		return 2
	case EEClock:
		return 3
	}
	return 1
}

// String describes the record.
func (e EEEvent) String() string {
	switch e.Kind {
	case EEPiece:
		s := fmt.Sprintf("piece %s %s", e.Field, e.Piece)
		if e.Fast {
			s += " fast"
		}
		return s
	case EEClock:
		return fmt.Sprintf("clock %s %d:%02d:%02d", e.Display, e.Hours, e.Minutes, e.Seconds)
	}
	return e.Kind.String()
}

var eeTagCodes = map[EEKind]byte{
	EEPowerUp: 0x6A, EEEOF: 0x6B, EEFourRows: 0x6C, EEEmptyBoard: 0x6D, EEDownloaded: 0x6E,
	EEBeginPos: 0x6F, EEBeginPosRot: 0x7A, EEStartTag: 0x7B, EEWatchdog: 0x7C, EENop: 0x7F, EENop2: 0x00,
}

// AppendBinary appends the record's bytes (for emulators building an
// EEPROM buffer or a bus change packet).
func (e EEEvent) AppendBinary(b []byte) ([]byte, error) {
	switch e.Kind {
	case EEPiece:
		if !e.Field.Valid() || !e.Piece.Valid() {
			return b, invalidf("EEPROM piece record %d/%d", e.Field, e.Piece)
		}
		c := 0x40 | byte(e.Piece)
		if e.Fast {
			c |= 0x10
		}
		return append(b, c, byte(e.Field)), nil
	case EEClock:
		if e.Hours > 9 || e.Minutes > 79 || e.Seconds > 79 {
			return b, invalidf("EEPROM clock record %d:%d:%d", e.Hours, e.Minutes, e.Seconds)
		}
		c := 0x60 | e.Hours
		if e.F {
			c |= 0x10
		}
		return append(b, c, toBCD(e.Minutes), toBCD(e.Seconds)), nil
	case EEReserved:
		if e.Code != 0x7D && e.Code != 0x7E {
			return b, invalidf("reserved EEPROM code 0x%02x", e.Code)
		}
		return append(b, e.Code), nil
	}
	c, ok := eeTagCodes[e.Kind]
	if !ok {
		return b, invalidf("EEPROM record kind %d", e.Kind)
	}
	return append(b, c), nil
}

// EEError reports a bad EEPROM record at Offset in the buffer.
type EEError struct {
	Offset int
	Code   byte
	Reason error // ErrInvalid or ErrTruncated
}

// Error describes the record.
func (e *EEError) Error() string {
	return fmt.Sprintf("dgt: EEPROM record 0x%02x at offset %d: %v", e.Code, e.Offset, e.Reason)
}

// Unwrap returns Reason.
func (e *EEError) Unwrap() error { return e.Reason }

// EEScanner reads EEPROM records one by one from a buffer (the EE_MOVES
// data, or the data of a bus UPDATE / FROM_START reply). It is pure and
// does not allocate. F is the reading of the clock records' f bit used to
// set their Display (default FLeft).
type EEScanner struct {
	F    EEFBit
	data []byte
	off  int
}

// NewEEScanner returns a scanner over data (not copied).
func NewEEScanner(data []byte) *EEScanner { return &EEScanner{data: data} }

// Offset returns the offset of the next record.
func (s *EEScanner) Offset() int { return s.off }

// Next returns the next record, io.EOF at the end, or an *[EEError] for a
// bad record, after which it has skipped one byte and may be called again.
func (s *EEScanner) Next() (EEEvent, error) {
	if s.off >= len(s.data) {
		return EEEvent{}, io.EOF
	}
	at := s.off
	c := s.data[at]
	bad := func(reason error) (EEEvent, error) {
		s.off++
		return EEEvent{}, &EEError{Offset: at, Code: c, Reason: reason}
	}
	need := func(n int) bool { return at+n <= len(s.data) }
	switch {
	case c >= 0x80 || (c >= 0x01 && c < 0x40):
		return bad(ErrInvalid)
	case c < 0x60 && c >= 0x40:
		if !need(2) {
			return bad(ErrTruncated)
		}
		f := s.data[at+1]
		if f >= NumFields {
			return bad(ErrInvalid)
		}
		s.off += 2
		return EEEvent{Kind: EEPiece, Code: c, Field: Field(f), Piece: PieceCode(c & 0x0F), Fast: c&0x10 != 0}, nil
	case (c >= 0x60 && c <= 0x69) || (c >= 0x70 && c <= 0x79):
		if !need(3) {
			return bad(ErrTruncated)
		}
		m, ok1 := fromBCD(s.data[at+1])
		sec, ok2 := fromBCD(s.data[at+2])
		if !ok1 || !ok2 {
			return bad(ErrInvalid)
		}
		s.off += 3
		f := c&0x10 != 0
		return EEEvent{Kind: EEClock, Code: c, F: f, Display: s.F.Display(f), Hours: c & 0x0F, Minutes: m, Seconds: sec}, nil
	}
	s.off++
	e := EEEvent{Code: c}
	switch c {
	case 0x7D, 0x7E:
		e.Kind = EEReserved
	default:
		for k, v := range eeTagCodes {
			if v == c {
				e.Kind = k
			}
		}
	}
	return e, nil
}

// ParseEE parses EEPROM records one for one, NOPs and EOF included, with
// the default reading of the f bit. Bad records are skipped; the returned
// error joins the *[EEError]s (nil when there were none). [EEMoves.Log]
// and [ParseEELog] give the log without the filler.
func ParseEE(data []byte) ([]EEEvent, error) {
	s := NewEEScanner(data)
	var evs []EEEvent
	var errs []error
	for {
		e, err := s.Next()
		if err == io.EOF {
			return evs, errors.Join(errs...)
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		evs = append(evs, e)
	}
}

// AppendEE appends the records' bytes to b.
func AppendEE(b []byte, evs []EEEvent) ([]byte, error) {
	var err error
	for _, e := range evs {
		if b, err = e.AppendBinary(b); err != nil {
			return b, err
		}
	}
	return b, nil
}
