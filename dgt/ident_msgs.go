package dgt

import "fmt"

// Length limits of the variable identification messages.
const (
	maxSerialLen    = 32  // data bytes of SERIALNR / LONG_SERIALNR (5, 10 or 12 in practice)
	maxTrademarkLen = 512 // data bytes of TRADEMARK (≤ ~256 in practice)
	minBatteryLen   = 7   // the header's size constant
	maxBatteryLen   = 9   // what boards send
)

// BusAddress is DGT_BUSADRES (0x90): the board's 14-bit bus address
// (its 5-digit serial number read as a number).
type BusAddress struct {
	Address uint16
}

var _ Message = BusAddress{}

// MsgID returns MsgBusAddress.
func (BusAddress) MsgID() MsgID { return MsgBusAddress }

// AppendBinary appends `90 00 05 hi lo`.
func (a BusAddress) AppendBinary(b []byte) ([]byte, error) {
	if a.Address > MaxBusAddress {
		return b, invalidf("bus address %d > %d", a.Address, MaxBusAddress)
	}
	return appendFrame(b, MsgBusAddress, byte(a.Address>>7), byte(a.Address&0x7F)), nil
}

// SerialNumber is DGT_SERIALNR (0x91): 5 ASCII digits on
// current boards; dgtbrd13 boards sent 12 bytes ("12345 1.0"). The bytes
// are kept as sent.
type SerialNumber struct {
	Serial string
}

var _ Message = SerialNumber{}

// MsgID returns MsgSerialNr.
func (SerialNumber) MsgID() MsgID { return MsgSerialNr }

// AppendBinary appends the header and the serial bytes (1–32 7-bit bytes).
func (s SerialNumber) AppendBinary(b []byte) ([]byte, error) {
	return appendText(b, MsgSerialNr, s.Serial, 1, maxSerialLen)
}

// LongSerialNumber is DGT_LONG_SERIALNR (0xA2): 10 ASCII digits,
// the last one least significant (Revelation II "Pi mode" boards send a
// version-like prefix, e.g. "3.250010001").
type LongSerialNumber struct {
	Serial string
}

var _ Message = LongSerialNumber{}

// MsgID returns MsgLongSerialNr.
func (LongSerialNumber) MsgID() MsgID { return MsgLongSerialNr }

// AppendBinary appends the header and the serial bytes (1–32 7-bit bytes).
func (s LongSerialNumber) AppendBinary(b []byte) ([]byte, error) {
	return appendText(b, MsgLongSerialNr, s.Serial, 1, maxSerialLen)
}

// Trademark is DGT_TRADEMARK (0x92): free ASCII text naming DGT
// Projects, firmware date, options, version and serial, kept as sent.
type Trademark struct {
	Text string
}

var _ Message = Trademark{}

// MsgID returns MsgTrademark.
func (Trademark) MsgID() MsgID { return MsgTrademark }

// AppendBinary appends the header and the text (≤ 512 7-bit bytes).
func (t Trademark) AppendBinary(b []byte) ([]byte, error) {
	return appendText(b, MsgTrademark, t.Text, 0, maxTrademarkLen)
}

func appendText(b []byte, id MsgID, s string, minLen, maxLen int) ([]byte, error) {
	if len(s) < minLen || len(s) > maxLen {
		return b, invalidf("%d text bytes, want %d to %d", len(s), minLen, maxLen)
	}
	if err := check7bitString(s); err != nil {
		return b, err
	}
	b = appendHeader(b, id, 3+len(s))
	return append(b, s...), nil
}

// Version is DGT_VERSION (0x93): firmware major and minor, binary
// (1, 2 = "1.02"; Bluetooth boards report 3.x).
type Version struct {
	Major, Minor uint8
}

var _ Message = Version{}

// MsgID returns MsgVersion.
func (Version) MsgID() MsgID { return MsgVersion }

// AppendBinary appends `93 00 05 major minor`.
func (v Version) AppendBinary(b []byte) ([]byte, error) {
	if v.Major >= 0x80 || v.Minor >= 0x80 {
		return b, invalidf("version %d.%d", v.Major, v.Minor)
	}
	return appendFrame(b, MsgVersion, v.Major, v.Minor), nil
}

// String returns e.g. "1.02".
func (v Version) String() string { return fmt.Sprintf("%d.%02d", v.Major, v.Minor) }

// NotAvailable is the battery-status value for "no running/charging time
// known".
const NotAvailable = 0x7F

// BatteryStatus is DGT_BATTERY_STATUS (0xA0) of Bluetooth boards.
// The semantics are UNCERTAIN; the fields follow DGT's byte list.
// Boards send 9 data bytes; a message with fewer (the header's size
// constant says 7) leaves the missing fields zero and Len tells how many
// were present.
type BatteryStatus struct {
	Percent                                   uint8 // capacity left, %
	RunHours, RunMinutes                      uint8 // running or charging time left; NotAvailable = n/a
	OnHours, OnMinutes                        uint8 // on-time
	StandbyDays, StandbyHours, StandbyMinutes uint8 // standby time
	Flags                                     uint8 // bit 0 charging, bit 1 discharging
	Len                                       uint8 // data bytes present, 7–9; 0 means 9
}

var _ Message = BatteryStatus{}

// MsgID returns MsgBatteryStatus.
func (BatteryStatus) MsgID() MsgID { return MsgBatteryStatus }

// Charging reports flag bit 0.
func (s BatteryStatus) Charging() bool { return s.Flags&0x01 != 0 }

// Discharging reports flag bit 1.
func (s BatteryStatus) Discharging() bool { return s.Flags&0x02 != 0 }

func (s BatteryStatus) bytes() [9]byte {
	return [9]byte{s.Percent, s.RunHours, s.RunMinutes, s.OnHours, s.OnMinutes,
		s.StandbyDays, s.StandbyHours, s.StandbyMinutes, s.Flags}
}

// AppendBinary appends the header and Len (default 9) data bytes.
func (s BatteryStatus) AppendBinary(b []byte) ([]byte, error) {
	n := int(s.Len)
	if n == 0 {
		n = maxBatteryLen
	}
	if n < minBatteryLen || n > maxBatteryLen {
		return b, invalidf("battery status length %d", n)
	}
	p := s.bytes()
	if err := check7bit(p[:]); err != nil {
		return b, err
	}
	for _, c := range p[n:] {
		if c != 0 {
			return b, invalidf("battery status field beyond length %d is set", n)
		}
	}
	return appendFrame(b, MsgBatteryStatus, p[:n]...), nil
}

func decodeBattery(data []byte) BatteryStatus {
	var p [9]byte
	copy(p[:], data)
	s := BatteryStatus{p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], uint8(len(data))}
	if s.Len == maxBatteryLen {
		s.Len = 0
	}
	return s
}
