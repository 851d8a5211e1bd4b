package dgt

import (
	"fmt"
	"time"
)

// Side is a side of the clock as the players see it: the clock is not
// rotated with the board, so mapping sides to colours is the
// caller's business.
type Side uint8

// Sides of the clock.
const (
	NoSide Side = iota
	LeftSide
	RightSide
)

// String returns "none", "left" or "right".
func (s Side) String() string {
	return [...]string{"none", "left", "right", "side?"}[min(s, 3)]
}

// ClockSide is one display of a clock-times message: hours are
// binary 0–9 in the wire format's low nibble, minutes and seconds BCD.
// Values are what the bytes say; [ClockSide.Valid] tells whether they are
// a plausible time (picochess rejects the others).
type ClockSide struct {
	Hours, Minutes, Seconds uint8
	FinalFlag               bool // hour byte bit 4: flag fallen, blocked at zero
	TimePerMove             bool // hour byte bit 5: Fischer/Bronstein indicator
	Flag                    bool // hour byte bit 6: flag fallen and shown
}

// Valid reports hours ≤ 9, minutes ≤ 59 and seconds ≤ 59.
func (c ClockSide) Valid() bool { return c.Hours <= 9 && c.Minutes <= 59 && c.Seconds <= 59 }

// Duration returns the displayed time.
func (c ClockSide) Duration() time.Duration {
	return time.Duration(c.Hours)*time.Hour + time.Duration(c.Minutes)*time.Minute + time.Duration(c.Seconds)*time.Second
}

// String returns h:mm:ss plus flag markers.
func (c ClockSide) String() string {
	s := fmt.Sprintf("%d:%02d:%02d", c.Hours, c.Minutes, c.Seconds)
	if c.Flag {
		s += " flag"
	}
	if c.FinalFlag {
		s += " final"
	}
	return s
}

func (c ClockSide) append(b []byte) ([]byte, error) {
	if c.Hours > 15 || c.Hours == 0x0A || c.Minutes > 79 || c.Seconds > 79 {
		return b, invalidf("clock time %d:%d:%d cannot be encoded", c.Hours, c.Minutes, c.Seconds)
	}
	h := c.Hours
	if c.FinalFlag {
		h |= 0x10
	}
	if c.TimePerMove {
		h |= 0x20
	}
	if c.Flag {
		h |= 0x40
	}
	return append(b, h, toBCD(c.Minutes), toBCD(c.Seconds)), nil
}

func decodeClockSide(p []byte) (ClockSide, error) {
	m, ok1 := fromBCD(p[1])
	s, ok2 := fromBCD(p[2])
	if !ok1 || !ok2 {
		return ClockSide{}, invalidf("clock digits %02x:%02x are not BCD", p[1], p[2])
	}
	return ClockSide{
		Hours: p[0] & 0x0F, Minutes: m, Seconds: s,
		FinalFlag: p[0]&0x10 != 0, TimePerMove: p[0]&0x20 != 0, Flag: p[0]&0x40 != 0,
	}, nil
}

func toBCD(v uint8) byte { return (v/10)<<4 | v%10 }

// fromBCD decodes a 7-bit BCD byte (tens in bits 6–4, units in bits 3–0).
func fromBCD(b byte) (uint8, bool) {
	if b&0x0F > 9 || b >= 0x80 {
		return 0, false
	}
	return (b>>4)*10 + b&0x0F, true
}

// ClockStatus is the status byte of a clock-times message, kept
// raw because the header revisions disagree on bits 1, 3 and 4. The
// method names follow the real captures (the recordings of real boards
// the tests replay, and their JSON decodes).
type ClockStatus uint8

// Running: bit 0, the clock runs.
func (s ClockStatus) Running() bool { return s&0x01 != 0 }

// RightHigh: bit 1, the lever is up on the right side (so the right
// clock runs when Running).
func (s ClockStatus) RightHigh() bool { return s&0x02 != 0 }

// BatteryLow: bit 2.
func (s ClockStatus) BatteryLow() bool { return s&0x04 != 0 }

// LeftTurn: bit 3 ("player's turn" for the left side in the captures;
// the 2015 header text says the opposite UNCERTAIN).
func (s ClockStatus) LeftTurn() bool { return s&0x08 != 0 }

// RightTurn: bit 4 (see LeftTurn).
func (s ClockStatus) RightTurn() bool { return s&0x10 != 0 }

// NoClock: bit 5, no clock connected; the times are not valid.
func (s ClockStatus) NoClock() bool { return s&0x20 != 0 }

// ClockTimes is the clock-times form of DGT_BWTIME (0x8D). The first
// triple on the wire is the right display, the second the left (2011
// header naming, confirmed by the captures). When Status.NoClock() is
// set the reading is invalid and Right and Left are zero.
type ClockTimes struct {
	Right, Left ClockSide
	Status      ClockStatus
}

var _ Message = ClockTimes{}

// MsgID returns MsgClock.
func (ClockTimes) MsgID() MsgID { return MsgClock }

// AppendBinary appends `8D 00 0A` and the 7 clock bytes. Hours of 10 are
// refused (that nibble marks an ACK).
func (t ClockTimes) AppendBinary(b []byte) ([]byte, error) {
	var p [7]byte
	if _, err := t.appendData(p[:0]); err != nil {
		return b, err
	}
	return appendFrame(b, MsgClock, p[:]...), nil
}

func (t ClockTimes) appendData(b []byte) ([]byte, error) {
	if t.Status >= 0x80 {
		return b, invalidf("clock status 0x%02x", t.Status)
	}
	if t.Status.NoClock() && (t.Right != ClockSide{} || t.Left != ClockSide{}) {
		return b, invalidf("times with the no-clock bit")
	}
	b, err := t.Right.append(b)
	if err != nil {
		return b, err
	}
	if b, err = t.Left.append(b); err != nil {
		return b, err
	}
	return append(b, byte(t.Status)), nil
}

// RunningSide derives the running side from the status byte: NoSide when
// stopped (or no clock); otherwise the side whose
// lever is up (bit 1). Bits 3/4 are not used.
func (t ClockTimes) RunningSide() Side {
	switch {
	case !t.Status.Running() || t.Status.NoClock():
		return NoSide
	case t.Status.RightHigh():
		return RightSide
	}
	return LeftSide
}

// IsZero reports an all-zero message, which BT boards (fw 2.10) may send
// right after a clock command; ignore it.
func (t ClockTimes) IsZero() bool { return t == ClockTimes{} }

// String returns e.g. "R 0:03:02 L 0:03:01 running left".
func (t ClockTimes) String() string {
	s := fmt.Sprintf("R %v L %v", t.Right, t.Left)
	if t.Status.NoClock() {
		return s + " no clock"
	}
	if side := t.RunningSide(); side != NoSide {
		return s + " running " + side.String()
	}
	return s + " stopped"
}

// ClockAck is the ACK form of DGT_BWTIME (0x8D with a 0x0A hour
// nibble): four ACK bytes reassembled from 7-bit fragments.
type ClockAck struct {
	// Ack holds ack0..ack3: ack0 0x10 normal, 0x40 (or 0x20) error; ack1
	// the acknowledged clock command (< 0x80) or a spontaneous event
	// (≥ 0x80); ack2/ack3 command-specific.
	Ack [4]byte
	// Status is the seventh data byte, kept as sent.
	Status uint8
}

var _ Message = ClockAck{}

// MsgID returns MsgClock.
func (ClockAck) MsgID() MsgID { return MsgClock }

// AppendBinary appends the 0x8D frame with 0x0A in both hour nibbles.
func (a ClockAck) AppendBinary(b []byte) ([]byte, error) {
	p, err := a.data()
	if err != nil {
		return b, err
	}
	return appendFrame(b, MsgClock, p[:]...), nil
}

func (a ClockAck) data() ([7]byte, error) {
	if a.Status >= 0x80 {
		return [7]byte{}, invalidf("clock ack status 0x%02x", a.Status)
	}
	k := a.Ack
	return [7]byte{
		0x0A | (k[2]>>7)<<4 | (k[3]>>7)<<5,
		k[0] & 0x7F, k[1] & 0x7F,
		0x0A | (k[0]>>7)<<4 | (k[1]>>7)<<5,
		k[2] & 0x7F, k[3] & 0x7F,
		a.Status,
	}, nil
}

// ACK codes in ack0.
const (
	AckOK    = 0x10
	AckError = 0x40
)

// OK reports ack0 == 0x10.
func (a ClockAck) OK() bool { return a.Ack[0] == AckOK }

// Command returns the acknowledged clock command (ack1 < 0x80); ok is
// false for spontaneous ACKs.
func (a ClockAck) Command() (c ClockCmd, ok bool) {
	if a.Ack[1] >= 0x80 {
		return 0, false
	}
	return ClockCmd(a.Ack[1]), true
}

// Spontaneous reports an event the clock sent by itself (ack1 ≥ 0x80:
// 0x81 ready, 0x88 button, 0x8A mode?, 0x90 not in mode 23?).
func (a ClockAck) Spontaneous() bool { return a.Ack[1] >= 0x80 }

// Button returns the button of a spontaneous button ACK (ack1 0x88):
// ack3, '1'..'5' = back, plus, run, minus, OK; ok false otherwise.
func (a ClockAck) Button() (b byte, ok bool) {
	if a.Ack[1] != 0x88 {
		return 0, false
	}
	return a.Ack[3], true
}

// Version returns the clock firmware version of a VERSION ACK (ack1 0x09):
// ack2 high nibble major, low nibble minor; ok false otherwise. Major 2
// is a DGT 3000, otherwise an XL.
func (a ClockAck) Version() (major, minor uint8, ok bool) {
	if a.Ack[1] != byte(ClockCmdVersion) {
		return 0, 0, false
	}
	return a.Ack[2] >> 4, a.Ack[2] & 0x0F, true
}

// String returns the four ACK bytes.
func (a ClockAck) String() string {
	return fmt.Sprintf("ack(%#02x %#02x %#02x %#02x)", a.Ack[0], a.Ack[1], a.Ack[2], a.Ack[3])
}

// isAck reports the ACK form of 7 clock data bytes.
func isAck(p []byte) bool { return p[0]&0x0F == 0x0A || p[3]&0x0F == 0x0A }

// DecodeClock decodes the 7 data bytes of a BWTIME message (0x8D, or the
// data of bus 0x84) into a [ClockTimes] or a [ClockAck].
func DecodeClock(p []byte) (Message, error) {
	if len(p) != 7 {
		return nil, invalidf("clock message has %d data bytes, want 7", len(p))
	}
	if err := check7bit(p); err != nil {
		return nil, err
	}
	if isAck(p) {
		return ClockAck{Ack: [4]byte{
			p[1] | (p[3]<<3)&0x80,
			p[2] | (p[3]<<2)&0x80,
			p[4] | (p[0]<<3)&0x80,
			p[5] | (p[0]<<2)&0x80,
		}, Status: p[6]}, nil
	}
	t, err := DecodeClockTimes(p)
	if err != nil {
		return nil, err
	}
	return t, nil
}

// DecodeClockTimes decodes 7 clock data bytes known not to be an ACK,
// without allocating.
func DecodeClockTimes(p []byte) (ClockTimes, error) {
	if len(p) != 7 {
		return ClockTimes{}, invalidf("clock message has %d data bytes, want 7", len(p))
	}
	if isAck(p) {
		return ClockTimes{}, invalidf("clock message is an ACK")
	}
	if p[0] >= 0x80 || p[3] >= 0x80 || p[6] >= 0x80 {
		return ClockTimes{}, invalidf("clock byte with bit 7 set")
	}
	if p[6]&0x20 != 0 {
		// No clock connected: the reading is invalid, whatever
		// the bytes hold, so it is not decoded.
		return ClockTimes{Status: ClockStatus(p[6])}, nil
	}
	r, err := decodeClockSide(p[0:3])
	if err != nil {
		return ClockTimes{}, err
	}
	l, err := decodeClockSide(p[3:6])
	if err != nil {
		return ClockTimes{}, err
	}
	return ClockTimes{Right: r, Left: l, Status: ClockStatus(p[6])}, nil
}
