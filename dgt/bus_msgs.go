package dgt

// The bus-mode replies. Every one carries the 14-bit address
// of the board that sent it; the frame ends with a checksum, which
// AppendBinary computes and the decoder verifies.

// BusBoardDump is DGT_MSG_BUS_BRD_DUMP (0x83): the 64 piece codes.
type BusBoardDump struct {
	Address uint16
	Board   BoardDump
}

// BusClock is DGT_MSG_BUS_BWTIME (0x84): the 7 clock bytes of the clock message,
// decoded into a [ClockTimes] or a [ClockAck] (never nil when decoded).
type BusClock struct {
	Address uint16
	Clock   Message
}

// BusUpdate is DGT_MSG_BUS_UPDATE (0x85): the EEPROM-format records
// since the previous SEND_CHANGES; parse Data with [ParseEE].
type BusUpdate struct {
	Address uint16
	Data    string
}

// BusFromStart is DGT_MSG_BUS_FROM_START (0x86): the records from the
// last EE_START_TAG on.
type BusFromStart struct {
	Address uint16
	Data    string
}

// BusPing is DGT_MSG_BUS_PING (0x87): the board at Address is present.
type BusPing struct {
	Address uint16
}

// BusStartGameWritten is DGT_MSG_BUS_START_GAME_WRITTEN (0x88).
type BusStartGameWritten struct {
	Address uint16
}

// BusVersion is DGT_MSG_BUS_VERSION (0x89): firmware major and minor;
// firmware up to 1.2 sends no data (NoData true, Major and Minor 0).
type BusVersion struct {
	Address      uint16
	Major, Minor uint8
	NoData       bool
}

// BusDraughtsDump is DGT_MSG_BUS_BRD_DUMP_50B (0x8A): 50 draughts codes.
type BusDraughtsDump struct {
	Address uint16
	Fields  [50]PieceCode
}

var (
	_ Message = BusBoardDump{}
	_ Message = BusClock{}
	_ Message = BusUpdate{}
	_ Message = BusFromStart{}
	_ Message = BusPing{}
	_ Message = BusStartGameWritten{}
	_ Message = BusVersion{}
	_ Message = BusDraughtsDump{}
)

// MsgID returns MsgBusBoardDump.
func (BusBoardDump) MsgID() MsgID { return MsgBusBoardDump }

// MsgID returns MsgBusClock.
func (BusClock) MsgID() MsgID { return MsgBusClock }

// MsgID returns MsgBusUpdate.
func (BusUpdate) MsgID() MsgID { return MsgBusUpdate }

// MsgID returns MsgBusFromStart.
func (BusFromStart) MsgID() MsgID { return MsgBusFromStart }

// MsgID returns MsgBusPing.
func (BusPing) MsgID() MsgID { return MsgBusPing }

// MsgID returns MsgBusStartGameWritten.
func (BusStartGameWritten) MsgID() MsgID { return MsgBusStartGameWritten }

// MsgID returns MsgBusVersion.
func (BusVersion) MsgID() MsgID { return MsgBusVersion }

// MsgID returns MsgBusBoardDump50B.
func (BusDraughtsDump) MsgID() MsgID { return MsgBusBoardDump50B }

// AppendBinary appends the 70-byte frame.
func (m BusBoardDump) AppendBinary(b []byte) ([]byte, error) {
	if err := checkCodes(m.Board.Fields[:]); err != nil {
		return b, err
	}
	var p [NumFields]byte
	for i, c := range m.Board.Fields {
		p[i] = byte(c)
	}
	return appendBusFrame(b, MsgBusBoardDump, m.Address, p[:])
}

// AppendBinary appends the 13-byte frame; Clock must be a ClockTimes or a
// ClockAck.
func (m BusClock) AppendBinary(b []byte) ([]byte, error) {
	var p [7]byte
	switch c := m.Clock.(type) {
	case ClockTimes:
		if _, err := c.appendData(p[:0]); err != nil {
			return b, err
		}
	case ClockAck:
		var err error
		if p, err = c.data(); err != nil {
			return b, err
		}
	default:
		return b, invalidf("bus clock payload %T", m.Clock)
	}
	return appendBusFrame(b, MsgBusClock, m.Address, p[:])
}

// AppendBinary appends the frame with Data.
func (m BusUpdate) AppendBinary(b []byte) ([]byte, error) {
	return appendBusFrame(b, MsgBusUpdate, m.Address, []byte(m.Data))
}

// Events parses Data; see [ParseEE].
func (m BusUpdate) Events() ([]EEEvent, error) { return ParseEE([]byte(m.Data)) }

// AppendBinary appends the frame with Data.
func (m BusFromStart) AppendBinary(b []byte) ([]byte, error) {
	return appendBusFrame(b, MsgBusFromStart, m.Address, []byte(m.Data))
}

// Events parses Data; see [ParseEE].
func (m BusFromStart) Events() ([]EEEvent, error) { return ParseEE([]byte(m.Data)) }

// AppendBinary appends the 6-byte frame.
func (m BusPing) AppendBinary(b []byte) ([]byte, error) {
	return appendBusFrame(b, MsgBusPing, m.Address, nil)
}

// AppendBinary appends the 6-byte frame.
func (m BusStartGameWritten) AppendBinary(b []byte) ([]byte, error) {
	return appendBusFrame(b, MsgBusStartGameWritten, m.Address, nil)
}

// AppendBinary appends the 8-byte frame, or the 6-byte one when NoData.
func (m BusVersion) AppendBinary(b []byte) ([]byte, error) {
	if m.NoData {
		if m.Major != 0 || m.Minor != 0 {
			return b, invalidf("bus version without data has a version")
		}
		return appendBusFrame(b, MsgBusVersion, m.Address, nil)
	}
	return appendBusFrame(b, MsgBusVersion, m.Address, []byte{m.Major, m.Minor})
}

// AppendBinary appends the 56-byte frame.
func (m BusDraughtsDump) AppendBinary(b []byte) ([]byte, error) {
	if err := checkCodes(m.Fields[:]); err != nil {
		return b, err
	}
	var p [50]byte
	for i, c := range m.Fields {
		p[i] = byte(c)
	}
	return appendBusFrame(b, MsgBusBoardDump50B, m.Address, p[:])
}
